import { LRUCache } from "lru-cache";
import { type Address, getAddress, type Hex, isAddress, isAddressEqual, zeroAddress } from "viem";
import { z } from "zod";
import { caseFactoryAbi } from "../chain/abi/generated.js";
import { type CourtParamsView, readTokenDomain, readTokenPayment } from "../chain/reads.js";
import { randomBytes32 } from "../chain/votes.js";
import { DocketError, type ErrorCode } from "../errors/errors.js";
import {
  checkAuthorization,
  judgeAuthorization,
  SETTLED_IN_FILING,
  usedToFile,
  verifyThrough,
} from "../payments/tokenFee.js";
import { judgePayment, readPayment } from "../payments/verify.js";
import {
  buildRequirements,
  decodePaymentHeader,
  encodePaymentResponse,
  networkOf,
  paymentRequiredBody,
  x402Terms,
} from "../payments/x402.js";
import {
  caip2,
  decodePaymentSignature,
  encodePaymentRequired,
  encodeSettleResponse,
  type ProofV2,
  paymentRequiredV2,
  readProofV2,
  requirementsV2,
  type TokenFee,
} from "../payments/x402v2.js";
import { buildUnsignedTx } from "../tx/unsignedTx.js";
import { courtParams } from "./cases.shared.js";
import { courtInput, courtsOf, findCourt, GENERAL_COURT } from "./courts.shared.js";
import { filingKeys } from "./keys.js";
import { Answer, type Ctx, defineOperation, type RequestInfo } from "./operation.js";
import { address, amount, evidenceRef, txHash, unsignedTxResponse } from "./schemas.js";

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
  example: {
    plaintiff: "0x2546BcD3c84621e976D8185a91A922aE77ECEc30",
    defendant: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
    claimDescription: "Paid for a dataset that was never delivered.",
    evidenceIpfsHash: "bafkreifzjut3te2nhyekklss27nh3k72ysco7y32koao5eei66wof36n5e",
  },
  handler: async (i, ctx, req) => {
    const proof = paymentProof(i.payment_tx_hash, req, ctx.court.chainId);
    const terms: Terms = {
      plaintiff: i.plaintiff as Address,
      defendant: i.defendant,
      resource: req.resourceUrl ?? "mcp://tool/file_case",
    };
    if (!proof) {
      const params = await courtParams(ctx);
      const message = "filing a case requires paying the filing fee first: see accepts";
      const stake = await stakeOf(ctx, i);
      return required(ctx, req, { ...terms, params, stake }, { code: "PAYMENT_REQUIRED", message });
    }
    if (proof.kind === "authorization") return fileWithAuthorization(i, ctx, req, terms, proof);
    const facts = await readPayment(ctx.court, proof.txHash, terms.plaintiff);
    const stake = await stakeOf(ctx, i);
    const failure = judgePayment(facts, terms.plaintiff);
    if (failure?.code === "PAYMENT_ALREADY_USED") throw new DocketError(failure.code, failure.message, failure.details);
    if (failure) {
      const payer = facts.fee?.payer ?? (facts.tx ? getAddress(facts.tx.from) : terms.plaintiff);
      const settlement = { success: false, errorReason: failure.code.toLowerCase(), transaction: "", payer };
      return required(ctx, req, { ...terms, params: facts.params, stake }, failure, { v: proof.v, ...settlement });
    }
    const fee = facts.fee as NonNullable<typeof facts.fee>;
    const tx = await fileTx(ctx, i, terms.plaintiff, stake, fee.paymentRef);
    const payment = {
      txHash: proof.txHash,
      payer: terms.plaintiff,
      amount: fee.amount.toString(),
      paymentRef: fee.paymentRef,
    };
    const settlement = { success: true, transaction: proof.txHash, payer: terms.plaintiff };
    return new Answer(
      { ...tx, payment },
      { headers: settlementHeader(proof.v, settlement, ctx.court.chainId), invalidate: filingKeys() },
    );
  },
});

/** Who files against whom, and the resource the payment is for. */
interface Terms {
  plaintiff: Address;
  defendant: string;
  resource: string;
}

type FileInput = z.infer<typeof input>;

/** The unsigned fileCase transaction under the paid reference. */
function fileTx(ctx: Ctx, i: FileInput, plaintiff: Address, stake: bigint, paymentRef: Hex) {
  return buildUnsignedTx(ctx.court, {
    to: ctx.court.factory,
    abi: caseFactoryAbi,
    functionName: "fileCase",
    args: [BigInt(i.court ?? GENERAL_COURT), i.defendant, i.claimDescription, i.evidenceIpfsHash, paymentRef],
    value: stake,
    action: `Files the case against ${i.defendant} with a stake of ${stake} wei, as ${plaintiff} (sign with that account: the contract takes the signer as the plaintiff and the payment proof is the plaintiff's)`,
  });
}

type AuthorizationProof = Extract<ProofV2, { kind: "authorization" }>;

/**
 * A token fee paid x402's way: the plaintiff's EIP-3009 authorization of the fee to the factory,
 * checked here (payer, recipient, amount, not used to file yet; then what the token will check:
 * nonce unused, validity window, balance, signature; and the facilitator's `/verify` when one is
 * configured), and answered with the unsigned `fileCaseWithAuthorization` that carries it. Nothing is
 * settled here: the factory submits the authorization to the token inside the filing, so a payment
 * is never made without its case. A retry before the filing is mined gets the same answer.
 */
async function fileWithAuthorization(
  i: FileInput,
  ctx: Ctx,
  req: RequestInfo,
  t: Terms,
  proof: AuthorizationProof,
): Promise<Answer<unknown>> {
  const params = await courtParams(ctx);
  const token = params.feeToken;
  if (isAddressEqual(token, zeroAddress)) {
    throw new DocketError("PAYMENT_MALFORMED", "this court takes no token payments: pay as accepts says", {
      reason: "no fee token",
    });
  }
  const { accepted } = proof.payload;
  const a = proof.authorization;
  if (!isAddress(accepted.asset, { strict: false }) || !isAddressEqual(accepted.asset, token)) {
    throw new DocketError("PAYMENT_MALFORMED", `accepted.asset is not the court's fee token ${token}`, {
      reason: "accepted.asset",
    });
  }
  const facts = await readTokenPayment(ctx.court, token, a.nonce, t.plaintiff);
  const stake = await stakeOf(ctx, i);
  const fee = facts.params.tokenFilingFee;
  const failure =
    judgeAuthorization(a, accepted.payTo, { payer: t.plaintiff, payTo: ctx.court.factory, fee }) ??
    usedToFile(facts.usedBy, a.nonce) ??
    (await checkAuthorization(a, proof.signature, { ...facts, token, chainId: ctx.court.chainId })) ??
    (ctx.facilitator ? await verifyThrough(ctx.facilitator, proof.payload) : undefined);
  if (failure?.code === "PAYMENT_ALREADY_USED") throw new DocketError(failure.code, failure.message, failure.details);
  if (failure) {
    return required(ctx, req, { ...t, params: facts.params, stake }, failure, {
      v: 2,
      success: false,
      errorReason: failure.code.toLowerCase(),
      transaction: "",
      payer: a.from,
    });
  }
  const tx = await buildUnsignedTx(ctx.court, {
    to: ctx.court.factory,
    abi: caseFactoryAbi,
    functionName: "fileCaseWithAuthorization",
    args: [
      BigInt(i.court ?? GENERAL_COURT),
      i.defendant as Address,
      i.claimDescription,
      i.evidenceIpfsHash,
      {
        value: a.value,
        validAfter: a.validAfter,
        validBefore: a.validBefore,
        nonce: a.nonce,
        signature: proof.signature,
      },
    ],
    value: stake,
    action: `Files the case against ${i.defendant} with a stake of ${stake} wei, as ${t.plaintiff}, paying the filing fee of ${a.value} in ${token} with the plaintiff's authorization in this same transaction (sign with that account: the contract takes the signer as the plaintiff and the payer; sign and send before ${a.validBefore}, when the authorization expires)`,
  });
  const payment = { txHash: "", payer: t.plaintiff, amount: a.value.toString(), paymentRef: a.nonce, asset: token };
  const settlement = {
    success: true,
    transaction: "",
    payer: t.plaintiff,
    amount: a.value.toString(),
    extra: SETTLED_IN_FILING,
  };
  return new Answer(
    { ...tx, payment },
    { headers: settlementHeader(2, settlement, ctx.court.chainId), invalidate: filingKeys() },
  );
}

/** A proof of payment: a transaction's hash (v1, or v2's native-tx), or a v2 EIP-3009 authorization. */
type Proof = { kind: "tx"; v: 1 | 2; txHash: Hex } | AuthorizationProof;

/**
 * The proof, if any, in order of precedence: PAYMENT-SIGNATURE (x402 v2), MCP `_meta["x402/payment"]`
 * (the v2 PaymentPayload as an object), X-PAYMENT (v1), then the `payment_tx_hash` argument.
 */
function paymentProof(arg: string | undefined, req: RequestInfo, chainId: number): Proof | undefined {
  const v2 = req.headers["payment-signature"];
  if (v2 !== undefined || req.payment !== undefined) {
    const p = v2 !== undefined ? decodePaymentSignature(v2, chainId) : readProofV2(req.payment, chainId);
    return p.kind === "tx" ? { kind: "tx", v: 2, txHash: p.txHash } : p;
  }
  const header = req.headers["x-payment"];
  if (header !== undefined) return { kind: "tx", v: 1, txHash: decodePaymentHeader(header, chainId).txHash };
  return arg === undefined ? undefined : { kind: "tx", v: 1, txHash: arg.toLowerCase() as Hex };
}

/** The settlement header of the version the proof came in. */
function settlementHeader(
  v: 1 | 2,
  s: {
    success: boolean;
    errorReason?: string;
    transaction: string;
    payer: string;
    amount?: string;
    extra?: Record<string, unknown>;
  },
  chainId: number,
): Record<string, string> {
  if (v === 2) return { "PAYMENT-RESPONSE": encodeSettleResponse({ ...s, network: caip2(chainId) }) };
  const { amount: _amount, extra: _extra, ...v1 } = s;
  return { "X-PAYMENT-RESPONSE": encodePaymentResponse({ ...v1, network: networkOf(chainId) }) };
}

/**
 * A 402: fresh requirements in both versions (v1 in the body with docket's error envelope, v2 in
 * PAYMENT-REQUIRED), and the settlement of a refused proof in its version's header. Over MCP, the
 * x402 binding: the v2 PaymentRequired is the (error) result itself.
 */
async function required(
  ctx: Ctx,
  req: RequestInfo,
  t: Terms & { params: CourtParamsView; stake: bigint },
  why: { code: ErrorCode; message: string; details?: Record<string, unknown> },
  settlement?: { v: 1 | 2; success: boolean; errorReason?: string; transaction: string; payer: string },
): Promise<Answer<unknown>> {
  const v1 = requirements(ctx, t.params, t.plaintiff, t.defendant, t.stake, t.resource);
  const token = await tokenFee(ctx, t.params);
  const accepts = requirementsV2({
    chainId: ctx.court.chainId,
    payTo: ctx.court.factory,
    filingFee: t.params.filingFee,
    token: token?.fee,
    chainAheadSeconds: token ? token.chainTime - Math.floor(Date.now() / 1000) : 0,
    nativeExtra: v1.extra,
  });
  const v2 = paymentRequiredV2(accepts, { url: t.resource, description: v1.description }, why.code);
  const settled = settlement ? settlementHeader(settlement.v, settlement, ctx.court.chainId) : {};
  if (req.transport === "mcp") return new Answer(v2, { status: 402, headers: settled });
  return new Answer(paymentRequiredBody(v1, why), {
    status: 402,
    headers: { "PAYMENT-REQUIRED": encodePaymentRequired(v2), ...settled },
  });
}

/**
 * A fee token's EIP-712 domain (name, version: fixed for a deployed token) and how far the chain's
 * clock is from the wall clock, read together and remembered for 30 s, so a 402 built
 * from cached court parameters costs no request, and a refused proof stays within the write budget.
 * The clock offset only widens `maxTimeoutSeconds`; half a minute of drift in it is harmless.
 */
const domains = new LRUCache<string, { name: string; version: string; offset: number }>({
  max: 100,
  ttl: 30_000,
});

/** The court's token fee, when it takes one, with the chain time. */
async function tokenFee(ctx: Ctx, p: CourtParamsView): Promise<{ fee: TokenFee; chainTime: number } | undefined> {
  if (isAddressEqual(p.feeToken, zeroAddress)) return undefined;
  const key = `${ctx.court.chainId}:${p.feeToken}`;
  const now = () => Math.floor(Date.now() / 1000);
  let d = domains.get(key);
  if (!d) {
    const read = await readTokenDomain(ctx.court, p.feeToken);
    d = { name: read.name, version: read.version, offset: read.chainTime - now() };
    domains.set(key, d);
  }
  return {
    fee: { token: p.feeToken, fee: p.tokenFilingFee, name: d.name, version: d.version },
    chainTime: now() + d.offset,
  };
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
