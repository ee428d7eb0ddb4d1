/**
 * The one support module of the tests (and of the bench, which imports test support only from
 * here). What a suite needs to stand docket up and drive it:
 *
 * - booting: `TestDocket` (docket in this process: `TestDocket.shared` on one of the run's shared
 *   seeded dev chains, lent by `leaseChain`; `TestDocket.start` on a chain booted for it), `startReplica`
 *   (docket on an external chain, logging into memory), `startBehind` (docket behind an RPC proxy,
 *   its follower polled by hand), `spawnDocket`/`spawnNode` (a process of its own), `startRpcProxy`
 *   (the fault-injecting JSON-RPC proxy);
 * - servers: `startPostgres` (a real PostgreSQL cluster of its own, for the index's store),
 *   `launchServer` (a server binary started and watched until ready);
 * - env: `chainEnv` (the chain's KEY=value lines), `externalChainEnv` (a quiet docket on it);
 * - requests: `request` and its `Api` answer;
 * - signing and sending: `signAndSend` (an unsigned_tx as a dev account's wallet), `TestDocket.write`,
 *   `voteOnChain`, raw `rpc` and `mine`;
 * - polling: `waitFor`, `until`;
 * - load: `soak`;
 * - a suite's lifetime: `forSuite` (start before the first test, close after the last).
 */
export * from "./chain.js";
export * from "./docket.js";
export * from "./postgres.js";
export * from "./process.js";
export * from "./replica.js";
export * from "./rpcProxy.js";
export * from "./server.js";
export * from "./sharedChain.js";
export * from "./soak.js";
export * from "./suite.js";
export * from "./wait.js";
