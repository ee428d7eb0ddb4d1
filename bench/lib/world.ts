import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  type Log,
  parseEther,
  parseEventLogs,
  parseGwei,
  toHex,
} from "viem";
import { caseFactoryAbi, courtRegistryAbi, disputeCaseAbi } from "../../src/chain/abi/generated.js";
import type { Devnet } from "../../src/chain/devnet.js";
import { rpc, rpcBatch } from "./rpc.js";

/**
 * Builds a large court world on the dev chain quickly, straight on chain (never through docket):
 * every agent is an impersonated address funded with anvil_setBalance, automine is off while a
 * round of transactions is sent (one JSON-RPC batch, explicit nonces, so an account may have many
 * in flight) and blocks are mined by hand until the pool is empty. A round costs a few blocks, so
 * chain time barely moves and no response or deliberation window closes during the build.
 *
 * Shape: the first `judges` agents also stake as judges; cases are filed between the other agents;
 * of every 10 cases filed, 1 is Deliberating (answered, panel drawn), 1 Active (answered), the rest
 * Summoned. Every case stays open, the worst case for the views that loop over open cases.
 */

export const JUDGES = 5;

export interface GrowReport {
  seconds: number;
  transactions: number;
  blocks: number;
}

interface Tx {
  from: Address;
  to: Address;
  data: Hex;
  value?: bigint;
  gas: bigint;
}

interface Receipt {
  status: Hex;
  gasUsed: Hex;
  blockNumber: Hex;
  logs: Log[];
  transactionHash: Hex;
}

const FUNDING = toHex(parseEther("10000"));
const MAX_FEE = toHex(parseGwei("1000"));
const TIP = toHex(parseGwei("1"));
const BASE_FEE = toHex(parseGwei("1"));

/** Claims about as long as the demo seed's, so case bodies have a realistic size. */
const CLAIMS = [
  "Case #: shipment of 40 pallets delivered nine days late; the carrier kept the expedite fee.",
  "Case #: data feed delivered with a 6-hour lag against a 5-minute SLA for a whole week.",
  "Case #: model fine-tune delivered without the agreed evaluation report or eval set.",
  "Case #: escrow released before the analytics report was delivered and reviewed.",
];

export function agentAddress(i: number): Address {
  return getAddress(`0x${keccak256(toHex(`docket-bench-agent-${i}`)).slice(-40)}`);
}

export class World {
  readonly agents: Address[] = [];
  readonly cases: Address[] = [];
  readonly deliberating: Address[] = [];
  readonly active: Address[] = [];
  private readonly nonces = new Map<Address, number>();
  private readonly gas = new Map<string, bigint>();
  private minPartyStake = 0n;
  private minJudgeStake = 0n;

  constructor(
    readonly rpcUrl: string,
    readonly factory: Address,
    readonly registry: Address,
  ) {}

  static async on(devnet: Devnet): Promise<World> {
    const w = new World(devnet.rpcUrl, devnet.deployment.factory, devnet.deployment.registry);
    const params = await devnet.reader.readContract({
      address: w.factory,
      abi: caseFactoryAbi,
      functionName: "getParams",
    });
    w.minPartyStake = params.terms.minPartyStake;
    w.minJudgeStake = await devnet.reader.readContract({
      address: w.registry,
      abi: courtRegistryAbi,
      functionName: "minJudgeStake",
    });
    return w;
  }

  /** Grows the world to `cases` cases and `agents` registered agents (totals, not additions). */
  async grow(cases: number, agents: number): Promise<GrowReport> {
    if (agents < JUDGES + 2) throw new Error(`need at least ${JUDGES + 2} agents`);
    const t0 = performance.now();
    let transactions = 0;
    let blocks = 0;
    const startBlock = BigInt(await rpc<Hex>(this.rpcUrl, "eth_blockNumber"));
    await rpc(this.rpcUrl, "anvil_autoImpersonateAccount", [true]);
    await rpc(this.rpcUrl, "evm_setAutomine", [false]);
    try {
      // Round 1: new agents register (the first JUDGES also stake), new cases are filed.
      const fresh = Array.from({ length: Math.max(0, agents - this.agents.length) }, (_, k) =>
        agentAddress(this.agents.length + k),
      );
      await rpcBatch(
        this.rpcUrl,
        fresh.map((a) => ({ method: "anvil_setBalance", params: [a, FUNDING] })),
      );
      const round1: Tx[] = [];
      for (const [k, a] of fresh.entries()) {
        const i = this.agents.length + k;
        const name = `bench-agent-${String(i).padStart(4, "0")}`;
        const data = encodeFunctionData({
          abi: courtRegistryAbi,
          functionName: "selfRegister",
          args: [name, `https://agents.example.org/${name}.json`],
        });
        round1.push({
          from: a,
          to: this.registry,
          data,
          gas: await this.gasFor("selfRegister", a, this.registry, data),
        });
        if (i < JUDGES) {
          const stake = this.minJudgeStake + parseEther("0.05") * BigInt(i);
          const s = encodeFunctionData({ abi: courtRegistryAbi, functionName: "stakeAsJudge" });
          round1.push({
            from: a,
            to: this.registry,
            data: s,
            value: stake,
            gas: await this.gasFor("stakeAsJudge", a, this.registry, s, stake),
          });
        }
      }
      this.agents.push(...fresh);
      const parties = this.agents.slice(JUDGES);
      const filings: { index: number; plaintiff: Address; defendant: Address }[] = [];
      for (let j = this.cases.length; j < cases; j++) {
        const plaintiff = parties[j % parties.length] as Address;
        const defendant = parties[(j + 1) % parties.length] as Address;
        const claim = CLAIMS[j % CLAIMS.length]?.replace("#", String(j)) as string;
        const data = encodeFunctionData({
          abi: caseFactoryAbi,
          functionName: "fileCase",
          args: [
            defendant,
            claim,
            `bafkrei${keccak256(toHex(claim)).slice(2, 54)}`,
            keccak256(toHex(`docket-bench-payment-${j}`)),
          ],
        });
        round1.push({
          from: plaintiff,
          to: this.factory,
          data,
          value: this.minPartyStake,
          gas: await this.gasFor("fileCase", plaintiff, this.factory, data, this.minPartyStake),
        });
        filings.push({ index: j, plaintiff, defendant });
      }
      const r1 = await this.round(round1);
      transactions += round1.length;
      blocks += r1.blocks;
      const filed = new Map<Hex, Address>();
      for (const rc of r1.receipts) {
        for (const ev of parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: rc.logs })) {
          filed.set(ev.args.paymentRef, ev.args.caseAddr);
        }
      }
      const newCases = filings.map((f) => {
        const c = filed.get(keccak256(toHex(`docket-bench-payment-${f.index}`)));
        if (!c) throw new Error(`case ${f.index} was not filed`);
        return { ...f, address: c };
      });
      this.cases.push(...newCases.map((c) => c.address));

      // Round 2: 2 of every 10 new cases are answered by their defendant.
      const answered = newCases.filter((c) => c.index % 10 === 0 || c.index % 10 === 5);
      const respond = encodeFunctionData({ abi: disputeCaseAbi, functionName: "respond" });
      const round2: Tx[] = [];
      for (const c of answered) {
        round2.push({
          from: c.defendant,
          to: c.address,
          data: respond,
          value: this.minPartyStake,
          gas: await this.gasFor("respond", c.defendant, c.address, respond, this.minPartyStake),
        });
      }
      const r2 = await this.round(round2);
      transactions += round2.length;
      blocks += r2.blocks;

      // Round 3: half of those get a panel drawn (a keeper's call; here the plaintiff makes it).
      const drawn = answered.filter((c) => c.index % 10 === 0);
      const round3: Tx[] = [];
      for (const c of drawn) {
        const data = encodeFunctionData({
          abi: caseFactoryAbi,
          functionName: "assignJudgesRandom",
          args: [c.address, BigInt(keccak256(c.address))],
        });
        round3.push({
          from: c.plaintiff,
          to: this.factory,
          data,
          gas: await this.gasFor("draw", c.plaintiff, this.factory, data),
        });
      }
      const r3 = await this.round(round3);
      transactions += round3.length;
      blocks += r3.blocks;
      this.deliberating.push(...drawn.map((c) => c.address));
      this.active.push(...answered.filter((c) => c.index % 10 === 5).map((c) => c.address));
    } finally {
      await rpc(this.rpcUrl, "evm_setAutomine", [true]);
      await rpc(this.rpcUrl, "anvil_autoImpersonateAccount", [false]);
    }
    const endBlock = BigInt(await rpc<Hex>(this.rpcUrl, "eth_blockNumber"));
    return {
      seconds: (performance.now() - t0) / 1000,
      transactions,
      blocks: Math.max(blocks, Number(endBlock - startBlock)),
    };
  }

  /**
   * Gas for one kind of transaction: estimated once (on the first of its kind) with a 50% margin.
   * Explicit gas keeps anvil from estimating each of a thousand transactions against a state in
   * which the earlier ones of the round are not mined yet.
   */
  private async gasFor(kind: string, from: Address, to: Address, data: Hex, value?: bigint): Promise<bigint> {
    const known = this.gas.get(kind);
    if (known !== undefined) return known;
    const est = BigInt(
      await rpc<Hex>(this.rpcUrl, "eth_estimateGas", [
        { from, to, data, ...(value === undefined ? {} : { value: toHex(value) }) },
      ]),
    );
    const gas = (est * 3n) / 2n + 50_000n;
    this.gas.set(kind, gas);
    return gas;
  }

  private async nonce(a: Address): Promise<number> {
    let n = this.nonces.get(a);
    if (n === undefined) n = Number(BigInt(await rpc<Hex>(this.rpcUrl, "eth_getTransactionCount", [a, "latest"])));
    this.nonces.set(a, n + 1);
    return n;
  }

  /**
   * Sends the transactions and mines them; receipts in the order given, every one checked. An
   * account's transactions go out in waves, one per account per wave: anvil drops a transaction that
   * becomes ready in the middle of a full block (its predecessor mined in that block), where a
   * transaction that is ready from the start just waits for the next block.
   */
  private async round(txs: Tx[]): Promise<{ receipts: Receipt[]; blocks: number }> {
    const waves: number[][] = [];
    const seen = new Map<Address, number>();
    for (const [i, t] of txs.entries()) {
      const k = seen.get(t.from) ?? 0;
      seen.set(t.from, k + 1);
      const wave = waves[k] ?? [];
      wave.push(i);
      waves[k] = wave;
    }
    const receipts: Receipt[] = new Array(txs.length);
    let blocks = 0;
    for (const wave of waves) {
      const sent = await this.wave(wave.map((i) => txs[i] as Tx));
      blocks += sent.blocks;
      for (const [j, i] of wave.entries()) receipts[i] = sent.receipts[j] as Receipt;
    }
    return { receipts, blocks };
  }

  /** One JSON-RPC batch of transactions (at most one per account), mined until the pool is empty. */
  private async wave(txs: Tx[]): Promise<{ receipts: Receipt[]; blocks: number }> {
    const reqs = [];
    const nonces: number[] = [];
    for (const t of txs) {
      const nonce = await this.nonce(t.from);
      nonces.push(nonce);
      reqs.push({
        method: "eth_sendTransaction",
        params: [
          {
            from: t.from,
            to: t.to,
            data: t.data,
            value: toHex(t.value ?? 0n),
            gas: toHex(t.gas),
            nonce: toHex(nonce),
            maxFeePerGas: MAX_FEE,
            maxPriorityFeePerGas: TIP,
          },
        ],
      });
    }
    const hashes = await rpcBatch<Hex>(this.rpcUrl, reqs);
    let blocks = 0;
    for (;;) {
      // Full blocks one after the other would raise the base fee past any max fee: hold it at 1 gwei.
      await rpc(this.rpcUrl, "anvil_setNextBlockBaseFeePerGas", [BASE_FEE]);
      await rpc(this.rpcUrl, "evm_mine");
      blocks++;
      const status = await rpc<{ pending: Hex; queued: Hex }>(this.rpcUrl, "txpool_status");
      if (BigInt(status.pending) === 0n && BigInt(status.queued) === 0n) break;
      if (blocks > 10_000) throw new Error(`transactions stuck in the pool: ${JSON.stringify(status)}`);
    }
    const receipts = await rpcBatch<Receipt | null>(
      this.rpcUrl,
      hashes.map((h) => ({ method: "eth_getTransactionReceipt", params: [h] })),
    );
    for (const [i, r] of receipts.entries()) {
      const t = txs[i] as Tx;
      if (!r) {
        const mined = Number(BigInt(await rpc<Hex>(this.rpcUrl, "eth_getTransactionCount", [t.from, "latest"])));
        throw new Error(
          `transaction ${hashes[i]} from ${t.from} (nonce ${nonces[i]}, account nonce now ${mined}) was dropped`,
        );
      }
      if (r.status !== "0x1") {
        throw new Error(
          `transaction to ${t.to} from ${t.from} reverted (gas used ${BigInt(r.gasUsed)} of ${t.gas}): ${hashes[i]}`,
        );
      }
    }
    return { receipts: receipts as Receipt[], blocks };
  }
}
