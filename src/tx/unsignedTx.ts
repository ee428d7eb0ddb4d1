import { type Abi, type Address, encodeFunctionData, type Hex } from "viem";
import type { ChainAccess } from "../chain/access.js";
import { courtErrorsAbi } from "../errors/chain.js";

export interface UnsignedTxResponse {
  unsigned_tx: { to: Address; value: string; data: Hex; chainId: number };
  instructions: string;
}

export interface TxRequest {
  to: Address;
  abi: Abi;
  functionName: string;
  args?: readonly unknown[];
  value?: bigint;
  /** Simulate as this account first, so a revert is reported before anyone spends gas. */
  from?: Address;
  /** What the transaction does, for the instructions line. */
  action: string;
  /**
   * Simulate on the pending block rather than the latest: for calls that depend on the block number
   * (a draw is ready from the block after it was armed, which is the one a transaction sent now lands in).
   */
  simulateAt?: "pending";
}

/**
 * Builds every write: encodes the call and, when the signer is known, simulates it with one
 * eth_call. docket never signs; the caller's wallet does.
 */
export async function buildUnsignedTx(chain: ChainAccess, req: TxRequest): Promise<UnsignedTxResponse> {
  const value = req.value ?? 0n;
  const data = encodeFunctionData({ abi: req.abi, functionName: req.functionName, args: req.args } as never);
  if (req.from) {
    // Any revert, ours or from a contract the call reaches, decodes against the court's errors.
    await chain.reader.simulateContract({
      address: req.to,
      abi: [...req.abi, ...courtErrorsAbi],
      functionName: req.functionName,
      args: req.args,
      value,
      account: req.from,
      ...(req.simulateAt ? { blockTag: req.simulateAt } : {}),
    } as never);
  }
  const chainId = chain.chainId;
  const signer = req.from ? `the wallet of ${req.from}` : "your own wallet";
  return {
    unsigned_tx: { to: req.to, value: value.toString(), data, chainId },
    instructions:
      `${req.action}. Sign this transaction with ${signer} and broadcast it to chain ${chainId}` +
      `${chain.publicRpcUrl ? ` (JSON-RPC ${chain.publicRpcUrl})` : ""}, e.g. viem ` +
      "walletClient.sendTransaction({ to, value: BigInt(value), data }). Your wallet sets nonce and gas; docket never signs.",
  };
}
