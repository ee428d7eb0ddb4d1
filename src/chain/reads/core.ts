/** The chain reads every domain builds on: the chain time, `(found, value)` and `(total, page)` views, a multicall that falls back to calls one by one, a transaction lookup, and amounts as the chain's coin. */
import {
  type Abi,
  type Address,
  type ContractFunctionArgs,
  type ContractFunctionName,
  type ContractFunctionParameters,
  type ContractFunctionReturnType,
  formatEther,
  type GetTransactionReturnType,
  type Hex,
  type MulticallReturnType,
  type ReadContractParameters,
  type ReadContractReturnType,
  TransactionNotFoundError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
} from "viem";
import { multicall3Abi } from "../abi/generated.js";
import type { ChainAccess } from "../access.js";
import { MULTICALL3_ADDRESS } from "../client.js";

/** The chain time: from Multicall3 (batched with the reads beside it), or the latest block without it. */
export async function readChainTime(chain: ChainAccess): Promise<bigint> {
  if (!chain.hasMulticall3) return (await chain.reader.getBlock({ blockTag: "latest" })).timestamp;
  return chain.reader.readContract({
    address: MULTICALL3_ADDRESS,
    abi: multicall3Abi,
    functionName: "getCurrentBlockTimestamp",
  });
}

/** The value of a `(found, value)` answer. */
type Found<R> = R extends readonly [boolean, infer V] ? V : never;

/** A view that answers `(found, value)` (a case, the job of a dispute): the value, or undefined when not found. */
export async function readFound<
  const A extends Abi,
  F extends ContractFunctionName<A, "pure" | "view">,
  const Args extends ContractFunctionArgs<A, "pure" | "view", F>,
>(
  chain: ChainAccess,
  call: ReadContractParameters<A, F, Args>,
): Promise<Found<ReadContractReturnType<A, F, Args>> | undefined> {
  const [found, value] = (await chain.reader.readContract(call as never)) as readonly [boolean, unknown];
  return found ? (value as Found<ReadContractReturnType<A, F, Args>>) : undefined;
}

/** The page of a `(total, page)` answer. */
type Paged<R> = R extends readonly [bigint, infer P] ? P : never;

/**
 * A list view `fn(offset, limit) → (total, page)` (cases, cases in Deliberating, agents, jobs): the
 * page, and the total as a number. One eth_call.
 */
export async function readPage<const A extends Abi, F extends ContractFunctionName<A, "pure" | "view">>(
  chain: ChainAccess,
  contract: { address: Address; abi: A },
  functionName: F,
  offset: number,
  limit: number,
): Promise<{ total: number; page: Paged<ContractFunctionReturnType<A, "pure" | "view", F>> }> {
  const [total, page] = (await chain.reader.readContract({
    ...contract,
    functionName,
    args: [BigInt(offset), BigInt(limit)],
  } as never)) as readonly [bigint, Paged<ContractFunctionReturnType<A, "pure" | "view", F>>];
  return { total: Number(total), page };
}

/** The latest block number, never from viem's cache. */
export function readBlockNumber(chain: ChainAccess): Promise<bigint> {
  return chain.reader.getBlockNumber({ cacheTime: 0 });
}

/** A transaction as the node knows it: `tx` once it is known, `receipt` once it is mined. */
export interface TxLookup {
  tx?: GetTransactionReturnType;
  receipt?: TransactionReceipt;
}

/** The transaction and its receipt, in parallel: 2 JSON-RPC requests. Unknown is not an error here. */
export async function lookupTransaction(chain: ChainAccess, hash: Hex): Promise<TxLookup> {
  const [tx, receipt] = await Promise.all([
    chain.reader.getTransaction({ hash }).catch(absent(TransactionNotFoundError)),
    chain.reader.getTransactionReceipt({ hash }).catch(absent(TransactionReceiptNotFoundError)),
  ]);
  return { tx, receipt };
}

function absent(kind: new (...args: never[]) => Error) {
  return (err: unknown): undefined => {
    if (err instanceof kind) return undefined;
    throw err;
  };
}

/**
 * Several calls as one JSON-RPC request: a multicall, or, on a chain without Multicall3, call by
 * call (the transport batches them into one round trip; the clock, CLOCK, then comes from the
 * latest block). Every call must succeed. `batchSize: 0` keeps a multicall in one eth_call however long.
 */
export async function readAll<const C extends readonly ContractFunctionParameters[]>(
  chain: ChainAccess,
  contracts: C,
  opts: { batchSize?: number } = {},
): Promise<MulticallReturnType<C, false>> {
  if (chain.hasMulticall3) {
    return (await chain.reader.multicall({
      allowFailure: false,
      ...opts,
      contracts: contracts as readonly ContractFunctionParameters[],
    })) as MulticallReturnType<C, false>;
  }
  return (await Promise.all(
    contracts.map((c) => (c === CLOCK ? readChainTime(chain) : chain.reader.readContract(c as never))),
  )) as MulticallReturnType<C, false>;
}

/** The chain time as one call of a readAll. */
export const CLOCK = {
  address: MULTICALL3_ADDRESS,
  abi: multicall3Abi,
  functionName: "getCurrentBlockTimestamp",
} as const satisfies ContractFunctionParameters;

/** "0.05 ETH": display amounts carry the chain's coin symbol. */
export function displayAmount(chain: ChainAccess, wei: bigint): string {
  return `${formatEther(wei)} ${chain.definition.nativeCurrency.symbol}`;
}
