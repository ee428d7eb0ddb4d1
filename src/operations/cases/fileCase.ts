import { type Address, isAddress, isAddressEqual, zeroAddress } from "viem";
import { z } from "zod";
import { caseFactoryAbi } from "../../chain/abi/generated.js";
import { DocketError } from "../../errors/errors.js";
import { staleKeys } from "../../freshness/stale.js";
import type { PaidRoute } from "../../payments/bazaar.js";
import { type Filing, type FilingFee, paymentProof, settleFilingFee } from "../../payments/filing.js";
import { x402Terms } from "../../payments/x402.js";
import { buildUnsignedTx } from "../../tx/unsignedTx.js";
import { courtInput, courtsOf, findCourt, GENERAL_COURT } from "../courts/court.js";
import { Answer, type Ctx, defineOperation } from "../kernel/operation.js";
import { address, amount, evidenceRef, jsonSchemaOf, txHash, unsignedTxResponse } from "../kernel/schemas.js";
import { courtParams } from "./case.js";

// The factory's own limits count UTF-8 bytes; zod counts characters, so both are checked.
const MAX_CLAIM_BYTES = 2000;
const bytes = (s: string) => Buffer.byteLength(s, "utf8");

const input = z
  .object({
    plaintiff: address("Your address: the account that pays the filing fee and signs the filing"),
    defendant: address("The account you file against (not yourself, not the zero address)"),
    claimDescription: z
      .string()
      .min(1)
      .max(MAX_CLAIM_BYTES)
      .refine((s) => bytes(s) <= MAX_CLAIM_BYTES, { error: `at most ${MAX_CLAIM_BYTES} bytes of UTF-8` })
      .describe("What the defendant did, in plain words (1 to 2000 characters)"),
    evidenceIpfsHash: evidenceRef(
      "Your evidence in distributed storage: an IPFS CID, ipfs://<cid> or /ipfs/<cid> (publish_evidence gives one)",
    ),
    stake: amount(
      "Your stake in wei (default: the court's minimum party stake; less is STAKE_BELOW_MINIMUM)",
    ).optional(),
    court: courtInput(
      "The court to file in: its parameters (stakes, windows, hidden or public votes, panel sizes) are copied into the case, and its judges hear it",
    ),
    payment_tx_hash: txHash(
      "The filing-fee payment's transaction hash, once mined (the MCP way to hand in the proof; over HTTP send the X-PAYMENT header, which wins if both are given)",
    ).optional(),
  })
  // zod 4 runs this even when a field failed its own format check: compare only real addresses
  // (isAddressEqual throws on anything else), and leave the rest to the field's own issue.
  .refine(
    (i) =>
      !isAddress(i.plaintiff, { strict: false }) ||
      !isAddress(i.defendant, { strict: false }) ||
      (!isAddressEqual(i.defendant, i.plaintiff) && !isAddressEqual(i.defendant, zeroAddress)),
    {
      error: "the defendant must be another account than the plaintiff, and not the zero address",
      path: ["defendant"],
    },
  );

const filed = unsignedTxResponse.extend({
  payment: z
    .object({
      txHash: z.string(),
      payer: z.string(),
      amount: z.string().describe("Paid, decimal string: wei, or the token's units when `asset` is set"),
      paymentRef: z
        .string()
        .describe(
          "The reference the fee is paid under (a token fee: the authorization's nonce); fileCase uses it once",
        ),
      asset: z
        .string()
        .optional()
        .describe("The token the fee was paid in (x402 exact, EIP-3009); absent: native coin"),
    })
    .describe("The fee payment this filing uses"),
});

const example = {
  plaintiff: "0x2546BcD3c84621e976D8185a91A922aE77ECEc30",
  defendant: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  claimDescription: "Paid for a dataset that was never delivered.",
  evidenceIpfsHash: "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e",
};

/**
 * The filing as x402's Bazaar lists it (src/payments/bazaar.ts): the operation's own input schema and
 * example, and its paid answer's schema with an example of it.
 */
const paidRoute: PaidRoute = {
  toolName: "file_case",
  method: "POST",
  inputSchema: jsonSchemaOf(input, "input"),
  input: example,
  outputSchema: jsonSchemaOf(filed, "output"),
  output: {
    unsigned_tx: {
      to: "0xDc64a140Aa3E981100a9becA4E685f962f0cF6C9",
      value: "10000000000000000",
      data: "0xcf6ba536",
      chainId: 31337,
    },
    instructions: "Files the case against 0x7099…79C8 with a stake of 10000000000000000 wei: sign it as the plaintiff",
    payment: {
      txHash: "0x730b1d7a0f2e1b4ad1c8d1e1b4e3d2c1a0f9e8d7c6b5a4f3e2d1c0b9a8f73dbf",
      payer: example.plaintiff,
      amount: "1000000000000000",
      paymentRef: "0x8c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f6a7b8c9d0e1f2a3b4c5d6e7f8a9be4a7",
    },
  },
};

export const fileCase = defineOperation({
  name: "file_case",
  title: "File a case (payment required)",
  description:
    "File a dispute against `defendant` in `court` (default 1, the General court, whose votes are public; list_courts lists the others, e.g. Agentic Commerce with hidden votes). The case copies the court's parameters at filing (minimum stakes, windows, hidden or public votes, panel sizes) and is heard by the court's judges. Filing costs a fee, paid x402-style into the court itself (the contracts refuse a filing whose fee was not paid). In the court's EIP-3009 token (x402 v2 `exact`, any stock x402 client: sign the authorization PAYMENT-REQUIRED / the 402 result asks for and retry with it in PAYMENT-SIGNATURE or MCP _meta['x402/payment']): docket checks it and returns the unsigned fileCaseWithAuthorization, which pays the fee in the filing transaction itself. Or in the chain's coin: call once without proof: the answer is 402 (over MCP a normal result) with `accepts[0]`, whose `extra.unsigned_tx` pays the fee (payFilingFee under a fresh reference): sign it as the plaintiff and broadcast it. Then call again with the payment's hash (HTTP: the X-PAYMENT header, base64 of {x402Version:1, scheme:'exact', network, payload:{txHash}}; MCP: `payment_tx_hash`). docket checks on chain that the payment succeeded, was recorded for the plaintiff at least at the fee, and that no case has used it yet (each payment files one case), then returns the unsigned fileCase transaction (value = your stake, default the court's minimum party stake) for the plaintiff to sign; the case is then Summoned and the defendant must respond_to_case. A refused proof says why: PAYMENT_NOT_FOUND, PAYMENT_FAILED, PAYMENT_WRONG_PAYER, PAYMENT_WRONG_RECIPIENT, PAYMENT_INSUFFICIENT (402, with the requirements again), PAYMENT_ALREADY_USED (409), PAYMENT_MALFORMED (400).",
  kind: "write",
  toolset: "payments",
  http: { method: "POST", path: "/cases" },
  input,
  // Over MCP the 402's body is a normal result; over HTTP `payment.required` describes it.
  output: z.union([
    filed.describe("The proof holds: sign unsigned_tx as the plaintiff"),
    x402Terms.required,
    x402Terms.mcpRequired,
  ]),
  payment: x402Terms,
  // No CONTRACT_REVERT: the filing is not simulated (the fee it needs is not paid yet at the 402).
  errors: ["RPC_ERROR", "STAKE_BELOW_MINIMUM", "COURT_NOT_FOUND"],
  example,
  handler: async (i, ctx, req) => {
    const filing: Filing = {
      plaintiff: i.plaintiff as Address,
      defendant: i.defendant,
      resource: req.resourceUrl ?? "mcp://tool/file_case",
      discovery: { route: paidRoute, door: req.resourceUrl ? "http" : "mcp" },
    };
    const proof = paymentProof(i.payment_tx_hash, req, ctx.chain.chainId);
    const fee = await settleFilingFee(ctx.chain, ctx.facilitator, filing, proof, {
      params: () => courtParams(ctx),
      stake: () => stakeOf(ctx, i),
    });
    if (!fee.paid) return new Answer(fee.body, { status: 402, payment: fee.payment });
    const tx = await fileTx(ctx, i, filing.plaintiff, fee.stake, fee.by);
    return new Answer(
      { ...tx, payment: fee.receipt },
      { payment: fee.payment, invalidate: staleKeys({ filing: true }) },
    );
  },
});

type FileInput = z.infer<typeof input>;
type PaidBy = Extract<FilingFee, { paid: true }>["by"];

/**
 * The unsigned filing: `fileCase` under the reference a mined payment paid, or
 * `fileCaseWithAuthorization`, which pays the token fee with the plaintiff's authorization in the
 * filing itself.
 */
function fileTx(ctx: Ctx, i: FileInput, plaintiff: Address, stake: bigint, by: PaidBy) {
  const court = BigInt(i.court ?? GENERAL_COURT);
  if (by.kind === "tx") {
    return buildUnsignedTx(ctx.chain, {
      to: ctx.chain.factory,
      abi: caseFactoryAbi,
      functionName: "fileCase",
      args: [court, i.defendant as Address, i.claimDescription, i.evidenceIpfsHash, by.paymentRef],
      value: stake,
      action: `Files the case against ${i.defendant} with a stake of ${stake} wei, as ${plaintiff} (sign with that account: the contract takes the signer as the plaintiff and the payment proof is the plaintiff's)`,
    });
  }
  const a = by.authorization;
  return buildUnsignedTx(ctx.chain, {
    to: ctx.chain.factory,
    abi: caseFactoryAbi,
    functionName: "fileCaseWithAuthorization",
    args: [
      court,
      i.defendant as Address,
      i.claimDescription,
      i.evidenceIpfsHash,
      {
        value: a.value,
        validAfter: a.validAfter,
        validBefore: a.validBefore,
        nonce: a.nonce,
        signature: by.signature,
      },
    ],
    value: stake,
    action: `Files the case against ${i.defendant} with a stake of ${stake} wei, as ${plaintiff}, paying the filing fee of ${a.value} in ${by.token} with the plaintiff's authorization in this same transaction (sign with that account: the contract takes the signer as the plaintiff and the payer; sign and send before ${a.validBefore}, when the authorization expires)`,
  });
}

/**
 * The stake the filing carries: as asked, or the court's minimum; below it is 422 before anyone
 * pays, and an unknown court 404.
 */
async function stakeOf(ctx: Ctx, i: FileInput): Promise<bigint> {
  const court = findCourt(await courtsOf(ctx), i.court ?? GENERAL_COURT);
  const min = court.config.terms.minPartyStake;
  const stake = i.stake === undefined ? min : BigInt(i.stake);
  if (stake < min) {
    throw new DocketError(
      "STAKE_BELOW_MINIMUM",
      `stake ${stake} is below the minimum party stake ${min} of court ${court.id} (${court.name})`,
      { minimum: min.toString(), given: stake.toString(), court: { id: Number(court.id), name: court.name } },
    );
  }
  return stake;
}
