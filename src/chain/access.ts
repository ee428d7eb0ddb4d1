import type { Address, Chain, PublicClient } from "viem";
import type { RpcLimits } from "./transport.js";

/*
 * What docket reaches on one chain, as types only: the chain access every read and write is handed
 * (connect.ts makes it), and its two optional parts. Nothing here imports back from the modules
 * that read through it (jobs.ts, erc8004.ts, reads/), so the chain layer has no import circle.
 */

/** Everything docket needs to reach the court contracts on one chain. */
export interface ChainAccess {
  definition: Chain;
  chainId: number;
  reader: PublicClient;
  /** What the JSON-RPC provider allows (batch size, log range, retry budget): every client of this chain keeps to it. */
  limits: RpcLimits;
  factory: Address;
  registry: Address;
  /** Whether Multicall3 is deployed: reads are batched into one eth_call only when it is. */
  hasMulticall3: boolean;
  /** ERC-8004 identity and reputation: the registries and the court's reporter, or why they are off. */
  erc8004: Erc8004;
  /** The arbitrator, the ERC-8183 job contract and docket's evaluators (docs/arbitration.md); absent when not deployed. */
  arbitration?: Arbitration;
  /** JSON-RPC URL wallets can broadcast to; reported only for the embedded dev chain. */
  publicRpcUrl?: string;
  close(): Promise<void>;
}

/** Whether docket speaks ERC-8004 on this chain, and where; or why not (shown by /health). */
export type Erc8004 =
  | { enabled: true; identity: Address; reputation: Address; reporter: Address }
  | { enabled: false; reason: string };

/**
 * The arbitration side of the court (docs/arbitration.md): the arbitrator (Kleros' IArbitratorV2
 * shape), an ERC-8183 job contract and docket's court-backed evaluators of its jobs, one per court.
 */
export interface Arbitration {
  arbitrator: Address;
  /** The ERC-8183 job contract (AgenticCommerce). */
  commerce: Address;
  /** The ERC-20 every job of `commerce` is paid in. */
  token: Address;
  /** docket's evaluators: each files its disputes in one court (1 is the General court). */
  evaluators: readonly { address: Address; courtId: number }[];
}
