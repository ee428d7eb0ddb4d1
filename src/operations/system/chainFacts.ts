import { type Address, erc20Abi, isAddressEqual, zeroAddress } from "viem";
import { caseFactoryAbi } from "../../chain/abi/generated.js";
import { readChainTime } from "../../chain/reads/core.js";
import type { Ctx } from "../kernel/operation.js";

/**
 * Facts of the chain the explorer shows beside the operations' answers, as a person reads them: the
 * chain's clock now (never cached: a dev chain's clock jumps), an ERC-20's symbol and decimals, and
 * the court's filing fee in its fee token (what x402 charges).
 */

/** An ERC-20 as amounts are shown in it. */
export interface Token {
  address: string;
  symbol: string;
  decimals: number;
}

/** The latest block's timestamp (unix seconds). */
export async function chainTime(ctx: Ctx): Promise<number> {
  return Number(await readChainTime(ctx.chain));
}

/** A token's symbol and decimals; a contract that answers neither shows its amounts as plain units. */
export async function tokenOf(ctx: Ctx, address: string): Promise<Token> {
  const a = address as Address;
  try {
    const [symbol, decimals] = await Promise.all([
      ctx.chain.reader.readContract({ address: a, abi: erc20Abi, functionName: "symbol" }),
      ctx.chain.reader.readContract({ address: a, abi: erc20Abi, functionName: "decimals" }),
    ]);
    return { address, symbol, decimals };
  } catch {
    return { address, symbol: "token units", decimals: 0 };
  }
}

/** The court's fee token and its filing fee in it (smallest units), or null when it takes none. */
export async function tokenFilingFee(ctx: Ctx): Promise<{ token: string; amount: bigint } | null> {
  const p = await ctx.chain.reader.readContract({
    address: ctx.chain.factory,
    abi: caseFactoryAbi,
    functionName: "getParams",
  });
  return isAddressEqual(p.feeToken, zeroAddress) ? null : { token: p.feeToken, amount: p.tokenFilingFee };
}

/** The token ERC-8183 job budgets are paid in, where docket serves jobs. */
export function jobTokenAddress(ctx: Ctx): string | null {
  return ctx.chain.arbitration?.token ?? null;
}
