/** Payment reads: a filing fee's record, what judging an EIP-3009 token fee needs, a fee token's EIP-712 domain. */
import type { Address, Hex } from "viem";
import { caseFactoryAbi, testUSDAbi } from "../abi/generated.js";
import type { ChainAccess } from "../access.js";
import { CLOCK, readAll } from "./core.js";

/** The court parameters and the record of a filing fee paid under (ref, payer): one multicall. */
export async function readFeeRecord(chain: ChainAccess, paymentRef: Hex, payer: Address) {
  const [params, [paid, amount, usedBy]] = await readAll(chain, [
    { address: chain.factory, abi: caseFactoryAbi, functionName: "getParams" },
    { address: chain.factory, abi: caseFactoryAbi, functionName: "feePayment", args: [paymentRef, payer] },
  ]);
  return { params, paid, amount, usedBy };
}

/**
 * What judging a token fee (an EIP-3009 authorization, nonce = reference) needs before the filing
 * submits it, in one multicall: the court parameters, the case that used the reference, whether the
 * token has the nonce used (or cancelled), the payer's balance, the token's EIP-712 domain (name,
 * version) and the chain time. Only what every EIP-3009 token (USDC) answers.
 */
export async function readTokenPayment(chain: ChainAccess, token: Address, nonce: Hex, payer: Address) {
  const [params, usedBy, used, balance, held, name, version, chainTime] = await readAll(chain, [
    { address: chain.factory, abi: caseFactoryAbi, functionName: "getParams" },
    { address: chain.factory, abi: caseFactoryAbi, functionName: "paymentRefUsedBy", args: [nonce, payer] },
    { address: token, abi: testUSDAbi, functionName: "authorizationState", args: [payer, nonce] },
    { address: token, abi: testUSDAbi, functionName: "balanceOf", args: [payer] },
    { address: token, abi: testUSDAbi, functionName: "balanceOf", args: [chain.factory] },
    { address: token, abi: testUSDAbi, functionName: "name" },
    { address: token, abi: testUSDAbi, functionName: "version" },
    CLOCK,
  ]);
  return { params, usedBy, used, balance, held, domain: { name, version }, chainTime: Number(chainTime) };
}

/** A fee token's EIP-712 domain name and version (what x402 "exact" puts in `extra`), and the chain time. */
export async function readTokenDomain(chain: ChainAccess, token: Address) {
  const [name, version, chainTime] = await readAll(chain, [
    { address: token, abi: testUSDAbi, functionName: "name" },
    { address: token, abi: testUSDAbi, functionName: "version" },
    CLOCK,
  ]);
  return { name, version, chainTime: Number(chainTime) };
}
