import { getAddress, type Hex, isAddressEqual } from "viem";
import { z } from "zod";
import { lookupTransaction, readBlockNumber } from "../../chain/reads/core.js";
import { defineOperation } from "../kernel/operation.js";
import { address, amount, txHash } from "../kernel/schemas.js";

const output = z.object({
  txHash: z.string(),
  found: z.boolean().describe("The chain node knows the transaction (pending or mined)"),
  mined: z.boolean().describe("It is in a block"),
  success: z.boolean().nullable().describe("Mined and did not revert; null while not mined"),
  blockNumber: z.number().int().nullable().describe("Its block; null while not mined"),
  confirmations: z.number().int().describe("Blocks from its block to the latest, its own included; 0 while not mined"),
  from: z.string().nullable().describe("Sender; null when not found"),
  to: z.string().nullable().describe("Recipient; null when not found or for a contract creation"),
  value: z.string().nullable().describe("Wei sent, decimal string; null when not found"),
  expectations: z
    .object({ from: z.boolean().optional(), to: z.boolean().optional(), value: z.boolean().optional() })
    .describe("For each expectation given, whether it holds"),
  allExpectationsMet: z
    .boolean()
    .describe("Mined, succeeded, and every expectation given holds (with none given: mined and succeeded)"),
});

export const verifyTransaction = defineOperation({
  name: "verify_transaction",
  title: "Verify a transaction",
  description:
    "Check a transaction on chain by its hash: whether it is known, mined and succeeded, its block and confirmations, its sender, recipient and value. Give `expectedFrom`, `expectedTo` and/or `expectedValue` to have each checked (value must be EQUAL to the wei given, not merely at least); `allExpectationsMet` is true only when the transaction was mined, succeeded and every expectation holds. An unknown hash is a normal answer (found: false), so this also tells you when a transaction you broadcast has landed. Always read fresh from the chain.",
  kind: "read",
  toolset: "payments",
  http: { method: "POST", path: "/cases/verify-tx" },
  input: z.object({
    txHash: txHash("The transaction hash, 0x + 64 hex digits"),
    expectedFrom: address("Optional: the sender you expect").optional(),
    expectedTo: address("Optional: the recipient you expect").optional(),
    expectedValue: amount("Optional: the exact wei value you expect (equality)").optional(),
  }),
  output,
  example: { txHash: `0x${"ab".repeat(32)}`, expectedValue: "1000000000000000" },
  handler: async (i, ctx) => {
    const hash = i.txHash.toLowerCase() as Hex;
    // Three requests, in parallel: the transaction, its receipt and the latest block.
    const [{ tx, receipt }, latest] = await Promise.all([
      lookupTransaction(ctx.chain, hash),
      readBlockNumber(ctx.chain),
    ]);
    const mined = receipt !== undefined;
    const expectations: { from?: boolean; to?: boolean; value?: boolean } = {};
    if (i.expectedFrom) expectations.from = tx !== undefined && isAddressEqual(tx.from, i.expectedFrom);
    if (i.expectedTo) expectations.to = !!tx?.to && isAddressEqual(tx.to, i.expectedTo);
    if (i.expectedValue) expectations.value = tx !== undefined && tx.value === BigInt(i.expectedValue);
    const success = receipt ? receipt.status === "success" : null;
    return {
      txHash: hash,
      found: tx !== undefined || mined,
      mined,
      success,
      blockNumber: receipt ? Number(receipt.blockNumber) : null,
      confirmations: receipt && latest >= receipt.blockNumber ? Number(latest - receipt.blockNumber) + 1 : 0,
      from: tx ? getAddress(tx.from) : null,
      to: tx?.to ? getAddress(tx.to) : null,
      value: tx ? tx.value.toString() : null,
      expectations,
      allExpectationsMet: success === true && Object.values(expectations).every(Boolean),
    };
  },
});
