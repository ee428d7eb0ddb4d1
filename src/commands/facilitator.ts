import { z } from "zod";
import { ConfigError } from "../config.js";
import { runFacilitator } from "../devnet/facilitator.js";

const env = z.object({
  FACILITATOR_RPC_URL: z.string().regex(/^https?:\/\/\S+$/, "must be an http(s) URL"),
  FACILITATOR_CHAIN_ID: z.coerce.number().int().min(1),
  FACILITATOR_PRIVATE_KEY: z.string().regex(/^0x[0-9a-fA-F]{64}$/, "must be a 0x-prefixed 32-byte hex key"),
  FACILITATOR_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  FACILITATOR_HOST: z.string().min(1).default("127.0.0.1"),
  FACILITATOR_EXIT_WITH_PARENT: z.string().optional(),
});

/**
 * `docket facilitator`: an x402 facilitator (the x402 project's own, for the "exact" EVM scheme) on
 * FACILITATOR_RPC_URL, paying gas with FACILITATOR_PRIVATE_KEY. `npm start` runs one beside the dev
 * chain with a dev key; it is a process of its own so that docket never holds a key.
 */
export async function runFacilitatorCommand(): Promise<void> {
  const parsed = env.safeParse(process.env);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ConfigError(`invalid configuration: ${first?.path.join(".")}: ${first?.message}`);
  }
  const e = parsed.data;
  await runFacilitator(
    {
      rpcUrl: e.FACILITATOR_RPC_URL,
      chainId: e.FACILITATOR_CHAIN_ID,
      privateKey: e.FACILITATOR_PRIVATE_KEY as `0x${string}`,
      host: e.FACILITATOR_HOST,
      port: e.FACILITATOR_PORT,
    },
    e.FACILITATOR_EXIT_WITH_PARENT === "1",
  );
}
