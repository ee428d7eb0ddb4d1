import {
  type Address,
  getAddress,
  type Hex,
  isAddressEqual,
  parseEventLogs,
  type TransactionReceipt,
  zeroAddress,
} from "viem";
import { caseFactoryAbi } from "../chain/abi/generated.js";
import type { ChainAccess } from "../chain/access.js";
import { lookupTransaction, type TxLookup } from "../chain/reads/core.js";
import type { CourtParamsView } from "../chain/reads/courts.js";
import { readFeeRecord } from "../chain/reads/payments.js";
import type { ErrorCode } from "../errors/errors.js";

/**
 * Checking a payment on chain: one transaction's lookup (shared with verify_transaction) and the
 * filing-fee proof check of file_case. The fee is paid with `CaseFactory.payFilingFee(ref)`; the
 * proof is that transaction's hash, and its FilingFeePaid log names the reference `fileCase` takes.
 * Reads are few and fixed: a proof costs 3 JSON-RPC requests (the transaction, its receipt, then one
 * Multicall3 call for the court parameters and the reference's record), whatever the outcome.
 */

/** Everything a proof check needs, read at once. */
export interface PaymentFacts extends TxLookup {
  txHash: Hex;
  /** The court's factory: the only contract a fee payment may call. */
  factory: Address;
  params: CourtParamsView;
  /** The factory's FilingFeePaid record in the receipt: who paid, under which reference, how much. */
  fee?: { payer: Address; paymentRef: Hex; amount: bigint };
  /** The case that already used the reference, if any. */
  usedBy?: Address;
}

/**
 * Reads what judging a fee payment needs: the transaction and its receipt in parallel, then the court
 * parameters with `feePayment(ref, plaintiff)` in one multicall. 3 JSON-RPC requests.
 */
export async function readPayment(chain: ChainAccess, txHash: Hex, plaintiff: Address): Promise<PaymentFacts> {
  const lookup = await lookupTransaction(chain, txHash);
  const fee = lookup.receipt ? feePaidIn(chain, lookup.receipt, plaintiff) : undefined;
  const { params, usedBy } = await readFeeRecord(chain, fee?.paymentRef ?? `0x${"00".repeat(32)}`, plaintiff);
  return {
    ...lookup,
    txHash,
    factory: chain.factory,
    params,
    fee,
    usedBy: usedBy === zeroAddress ? undefined : usedBy,
  };
}

/**
 * The FilingFeePaid log our factory emitted in this receipt: the plaintiff's when one transaction paid
 * several (a smart-account batch), else the first, so a payment for someone else is refused by name.
 */
function feePaidIn(chain: ChainAccess, receipt: TransactionReceipt, plaintiff: Address): PaymentFacts["fee"] {
  const logs = parseEventLogs({ abi: caseFactoryAbi, eventName: "FilingFeePaid", logs: receipt.logs }).filter((l) =>
    isAddressEqual(l.address, chain.factory),
  );
  const log = logs.find((l) => isAddressEqual(l.args.payer, plaintiff)) ?? logs[0];
  return log && { payer: getAddress(log.args.payer), paymentRef: log.args.paymentRef, amount: log.args.amount };
}

/** Why a proof does not hold: a docket error code, a message and the facts behind it. */
export interface PaymentFailure {
  code: Extract<
    ErrorCode,
    | "PAYMENT_NOT_FOUND"
    | "PAYMENT_FAILED"
    | "PAYMENT_WRONG_PAYER"
    | "PAYMENT_WRONG_RECIPIENT"
    | "PAYMENT_INSUFFICIENT"
    | "PAYMENT_ALREADY_USED"
  >;
  message: string;
  details: Record<string, unknown>;
}

/**
 * Judges a filing-fee proof: the payment was mined and succeeded, came from `payer`, paid the court's
 * `payFilingFee` at least the filing fee, and no case has used its reference yet. The first check that
 * fails is the answer; `undefined` means the proof holds. Pure, so the order is easy to see.
 */
export function judgePayment(f: PaymentFacts, payer: Address): PaymentFailure | undefined {
  const { txHash, tx, receipt, params } = f;
  if (!tx || !receipt) {
    const state = tx ? "is not mined yet" : "is unknown to the chain node";
    return {
      code: "PAYMENT_NOT_FOUND",
      message: `payment ${txHash} ${state}; wait for it to be mined, then retry`,
      details: { txHash, found: tx !== undefined, mined: false },
    };
  }
  if (receipt.status !== "success") {
    return {
      code: "PAYMENT_FAILED",
      message: `payment ${txHash} reverted in block ${receipt.blockNumber}; it paid nothing`,
      details: { txHash, blockNumber: Number(receipt.blockNumber) },
    };
  }
  const to = tx.to ? getAddress(tx.to) : null;
  const factory = getAddress(f.factory);
  // The factory's own record decides, so a payment made through a smart account counts too.
  if (!f.fee) {
    return {
      code: "PAYMENT_WRONG_RECIPIENT",
      message: `transaction ${txHash} is not a filing-fee payment: it must call payFilingFee on the court's factory ${factory} (it went to ${to ?? "a contract creation"})`,
      details: { txHash, expected: factory, actual: to },
    };
  }
  // The payer on record, not the transaction's sender: a smart-account plaintiff pays through a relayer.
  if (!isAddressEqual(f.fee.payer, payer)) {
    return {
      code: "PAYMENT_WRONG_PAYER",
      message: `payment ${txHash} paid the fee for ${f.fee.payer}, not for the plaintiff ${payer}`,
      details: { txHash, expected: payer, actual: f.fee.payer },
    };
  }
  if (f.fee.amount < params.filingFee) {
    return {
      code: "PAYMENT_INSUFFICIENT",
      message: `payment ${txHash} paid ${f.fee.amount} wei; the filing fee is now ${params.filingFee} wei`,
      details: { txHash, required: params.filingFee.toString(), paid: f.fee.amount.toString() },
    };
  }
  if (f.usedBy) {
    return {
      code: "PAYMENT_ALREADY_USED",
      message: `payment ${txHash} (reference ${f.fee.paymentRef}) has already filed case ${f.usedBy}; each payment files one case`,
      details: { txHash, caseAddress: f.usedBy },
    };
  }
  return undefined;
}
