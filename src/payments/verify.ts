import {
  type Address,
  type GetTransactionReturnType,
  getAddress,
  type Hex,
  isAddressEqual,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
  zeroAddress,
} from "viem";
import { caseFactoryAbi } from "../chain/abi/generated.js";
import type { Court } from "../chain/court.js";
import type { CourtParamsView } from "../chain/reads.js";
import type { ErrorCode } from "../errors/errors.js";

/**
 * Checking a payment on chain: one transaction's lookup (shared with verify_transaction) and the
 * filing-fee proof check of file_case. Reads are few and fixed: a proof costs 3 JSON-RPC requests
 * (the transaction, its receipt, and one Multicall3 call for the court parameters and the proof's
 * record), whatever the outcome.
 */

/** A transaction as the node knows it: `tx` once it is known, `receipt` once it is mined. */
export interface TxLookup {
  tx?: GetTransactionReturnType;
  receipt?: TransactionReceipt;
}

/** The transaction and its receipt, in parallel: 2 JSON-RPC requests. Unknown is not an error here. */
export async function lookupTransaction(court: Court, hash: Hex): Promise<TxLookup> {
  const [tx, receipt] = await Promise.all([
    court.reader.getTransaction({ hash }).catch(absent(TransactionNotFoundError)),
    court.reader.getTransactionReceipt({ hash }).catch(absent(TransactionReceiptNotFoundError)),
  ]);
  return { tx, receipt };
}

function absent(kind: new (...args: never[]) => Error) {
  return (err: unknown): undefined => {
    if (err instanceof kind) return undefined;
    throw err;
  };
}

/** Everything a proof check needs, read at once. */
export interface PaymentFacts extends TxLookup {
  txHash: Hex;
  params: CourtParamsView;
  /** The case that already used this hash as its paymentRef, if any. */
  usedBy?: Address;
}

/**
 * Reads what judging a fee payment needs, in parallel: the transaction, its receipt, and the court
 * parameters with `paymentRefUsedBy(txHash, plaintiff)` in one multicall. 3 JSON-RPC requests.
 */
export async function readPayment(court: Court, txHash: Hex, plaintiff: Address): Promise<PaymentFacts> {
  const [lookup, [params, usedBy]] = await Promise.all([
    lookupTransaction(court, txHash),
    court.reader.multicall({
      allowFailure: false,
      contracts: [
        { address: court.factory, abi: caseFactoryAbi, functionName: "getParams" },
        { address: court.factory, abi: caseFactoryAbi, functionName: "paymentRefUsedBy", args: [txHash, plaintiff] },
      ],
    }),
  ]);
  return { ...lookup, txHash, params, usedBy: usedBy === zeroAddress ? undefined : usedBy };
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
 * Judges a filing-fee proof: the payment was mined and succeeded, came from `payer`, paid the fee
 * recipient directly at least the filing fee, and no case has used its hash yet. The first check that
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
  const from = getAddress(tx.from);
  const to = tx.to ? getAddress(tx.to) : null;
  if (!isAddressEqual(from, payer)) {
    return {
      code: "PAYMENT_WRONG_PAYER",
      message: `payment ${txHash} was sent by ${from}, not by the plaintiff ${payer}`,
      details: { txHash, expected: payer, actual: from },
    };
  }
  if (!to || !isAddressEqual(to, params.feeRecipient)) {
    return {
      code: "PAYMENT_WRONG_RECIPIENT",
      message: `payment ${txHash} went to ${to ?? "a contract creation"}, not to the fee recipient ${params.feeRecipient}`,
      details: { txHash, expected: params.feeRecipient, actual: to },
    };
  }
  if (tx.value < params.filingFee) {
    return {
      code: "PAYMENT_INSUFFICIENT",
      message: `payment ${txHash} paid ${tx.value} wei; the filing fee is ${params.filingFee} wei`,
      details: { txHash, required: params.filingFee.toString(), paid: tx.value.toString() },
    };
  }
  if (f.usedBy) {
    return {
      code: "PAYMENT_ALREADY_USED",
      message: `payment ${txHash} has already filed case ${f.usedBy}; each payment files one case`,
      details: { txHash, caseAddress: f.usedBy },
    };
  }
  return undefined;
}
