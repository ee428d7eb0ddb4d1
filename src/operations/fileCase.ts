import { type Address, getAddress, type Hex, isAddress, isAddressEqual, zeroAddress } from "viem";
import { z } from "zod";
import { caseFactoryAbi } from "../chain/abi/generated.js";
import type { CourtParamsView } from "../chain/reads.js";
import { randomBytes32 } from "../chain/votes.js";
import { DocketError } from "../errors/errors.js";
import { judgePayment, readPayment } from "../payments/verify.js";
import {
  buildRequirements,
  decodePaymentHeader,
  encodePaymentResponse,
  networkOf,
  paymentRequiredBody,
  x402Terms,
} from "../payments/x402.js";
import { buildUnsignedTx } from "../tx/unsignedTx.js";
import { courtParams } from "./cases.shared.js";
import { filingKeys } from "./keys.js";
import { Answer, type Ctx, defineOperation, type RequestInfo } from "./operation.js";
import { address, amount, txHash, unsignedTxResponse } from "./schemas.js";

// The factory's own limits count UTF-8 bytes; zod counts characters, so both are checked.
const MAX_CLAIM_BYTES = 2000;
const MAX_HASH_BYTES = 128;
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
    evidenceIpfsHash: z
      .string()
      .min(1)
      .max(MAX_HASH_BYTES)
      .refine((s) => bytes(s) <= MAX_HASH_BYTES, { error: `at most ${MAX_HASH_BYTES} bytes of UTF-8` })
      .describe("Content hash of your evidence in distributed storage (e.g. an IPFS CID)"),
    stake: amount("Your stake in wei (default: the minimum party stake; less is STAKE_BELOW_MINIMUM)").optional(),
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
      amount: z.string().describe("Wei paid, decimal string"),
      paymentRef: z.string().describe("The reference the court recorded the fee under; fileCase uses it once"),
    })
    .describe("The fee payment this filing uses"),
});

export const fileCase = defineOperation({
  name: "file_case",
  title: "File a case (payment required)",
  description:
    "File a dispute against `defendant`. Filing costs a fee, paid x402-style in the chain's coin into the court itself (the contracts refuse a filing whose fee was not paid). Call once without proof: the answer is 402 (over MCP a normal result) with `accepts[0]`, whose `extra.unsigned_tx` pays the fee (payFilingFee under a fresh reference): sign it as the plaintiff and broadcast it. Then call again with the payment's hash (HTTP: the X-PAYMENT header, base64 of {x402Version:1, scheme:'exact', network, payload:{txHash}}; MCP: `payment_tx_hash`). docket checks on chain that the payment succeeded, was recorded for the plaintiff at least at the fee, and that no case has used it yet (each payment files one case), then returns the unsigned fileCase transaction (value = your stake, default the minimum party stake) for the plaintiff to sign; the case is then Summoned and the defendant must respond_to_case. A refused proof says why: PAYMENT_NOT_FOUND, PAYMENT_FAILED, PAYMENT_WRONG_PAYER, PAYMENT_WRONG_RECIPIENT, PAYMENT_INSUFFICIENT (402, with the requirements again), PAYMENT_ALREADY_USED (409), PAYMENT_MALFORMED (400).",
  kind: "write",
  toolset: "payments",
  http: { method: "POST", path: "/cases" },
  input,
  // Over MCP the 402's body is a normal result; over HTTP `payment.required` describes it.
  output: z.union([filed.describe("The proof holds: sign unsigned_tx as the plaintiff"), x402Terms.required]),
  payment: x402Terms,
  // No CONTRACT_REVERT: the filing is not simulated (the fee it needs is not paid yet at the 402).
  errors: ["RPC_ERROR", "STAKE_BELOW_MINIMUM"],
  example: {
    plaintiff: "0x2546BcD3c84621e976D8185a91A922aE77ECEc30",
    defendant: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    claimDescription: "Paid for a dataset that was never delivered.",
    evidenceIpfsHash: "bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi",
  },
  handler: async (i, ctx, req) => {
    const proof = paymentProof(i.payment_tx_hash, req, ctx.court.chainId);
    const resource = req.resourceUrl ?? "mcp://tool/file_case";
    const plaintiff = i.plaintiff as Address;
    if (!proof) {
      const params = await courtParams(ctx);
      const stake = stakeOf(i.stake, params);
      const accepts = requirements(ctx, params, plaintiff, i.defendant, stake, resource);
      const message = "filing a case requires paying the filing fee first: see accepts[0]";
      return new Answer(paymentRequiredBody(accepts, { code: "PAYMENT_REQUIRED", message }), { status: 402 });
    }
    const facts = await readPayment(ctx.court, proof, plaintiff);
    const stake = stakeOf(i.stake, facts.params);
    const failure = judgePayment(facts, plaintiff);
    const network = networkOf(ctx.court.chainId);
    if (failure?.code === "PAYMENT_ALREADY_USED") throw new DocketError(failure.code, failure.message, failure.details);
    if (failure) {
      const accepts = requirements(ctx, facts.params, plaintiff, i.defendant, stake, resource);
      const settlement = { success: false, errorReason: failure.code.toLowerCase(), transaction: "", network };
      return new Answer(paymentRequiredBody(accepts, failure), {
        status: 402,
        headers: {
          "X-PAYMENT-RESPONSE": encodePaymentResponse({
            ...settlement,
            payer: facts.fee?.payer ?? (facts.tx ? getAddress(facts.tx.from) : plaintiff),
          }),
        },
      });
    }
    const tx = await buildUnsignedTx(ctx.court, {
      to: ctx.court.factory,
      abi: caseFactoryAbi,
      functionName: "fileCase",
      args: [i.defendant, i.claimDescription, i.evidenceIpfsHash, (facts.fee as { paymentRef: Hex }).paymentRef],
      value: stake,
      action: `Files the case against ${i.defendant} with a stake of ${stake} wei, as ${plaintiff} (sign with that account: the contract takes the signer as the plaintiff and the payment proof is the plaintiff's)`,
    });
    const fee = facts.fee as NonNullable<typeof facts.fee>;
    const payment = { txHash: proof, payer: plaintiff, amount: fee.amount.toString(), paymentRef: fee.paymentRef };
    const settlement = { success: true, transaction: proof, network, payer: plaintiff };
    return new Answer(
      { ...tx, payment },
      { headers: { "X-PAYMENT-RESPONSE": encodePaymentResponse(settlement) }, invalidate: filingKeys() },
    );
  },
});

/** The proof, if any: the X-PAYMENT header wins over the `payment_tx_hash` argument. */
function paymentProof(arg: string | undefined, req: RequestInfo, chainId: number): Hex | undefined {
  const header = req.headers["x-payment"];
  if (header !== undefined) return decodePaymentHeader(header, chainId).txHash;
  return arg?.toLowerCase() as Hex | undefined;
}

/** The stake the filing carries: as asked, or the minimum; below the minimum is 422 before anyone pays. */
function stakeOf(raw: string | undefined, params: CourtParamsView): bigint {
  const min = params.terms.minPartyStake;
  const stake = raw === undefined ? min : BigInt(raw);
  if (stake < min) {
    throw new DocketError("STAKE_BELOW_MINIMUM", `stake ${stake} is below the minimum party stake ${min}`, {
      minimum: min.toString(),
      given: stake.toString(),
    });
  }
  return stake;
}

function requirements(
  ctx: Ctx,
  p: CourtParamsView,
  payer: Address,
  defendant: string,
  stake: bigint,
  resource: string,
) {
  return buildRequirements(ctx.court, {
    payTo: ctx.court.factory,
    paymentRef: randomBytes32(),
    filingFee: p.filingFee,
    payer,
    stake,
    resource,
    description: `Filing fee for a docket case by ${payer} against ${defendant}`,
  });
}
