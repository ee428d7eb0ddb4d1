import { type Address, type Hex, type Log, parseEther, parseGwei, toHex } from "viem";
import { rpc, rpcBatch } from "./rpc.js";

/**
 * The bench's fast way to put many transactions on the dev chain: every sender is an impersonated
 * address funded with anvil_setBalance, automine is off while a round goes out as JSON-RPC batches
 * with explicit nonces and gas, and blocks are mined by hand (base fee held at 1 gwei) until the pool
 * is empty. The world builder and the draw-gas item share it.
 */

export interface Tx {
  from: Address;
  to: Address;
  data: Hex;
  value?: bigint;
  gas: bigint;
}

export interface Receipt {
  status: Hex;
  gasUsed: Hex;
  blockNumber: Hex;
  logs: Log[];
  transactionHash: Hex;
}

export interface RoundResult {
  receipts: Receipt[];
  blocks: number;
}

const FUNDING = toHex(parseEther("10000"));
const MAX_FEE = toHex(parseGwei("1000"));
const TIP = toHex(parseGwei("1"));
const BASE_FEE = toHex(parseGwei("1"));

export class TxRounds {
  private readonly nonces = new Map<Address, number>();
  private readonly gas = new Map<string, bigint>();

  constructor(readonly rpcUrl: string) {}

  /** Gives each address 10,000 ETH (one batch per 500 addresses). */
  async fund(addresses: Address[]): Promise<void> {
    await rpcBatch(
      this.rpcUrl,
      addresses.map((a) => ({ method: "anvil_setBalance", params: [a, FUNDING] })),
    );
  }

  /**
   * Runs `fn` with every address impersonated and automine off (both restored after), so that
   * `round` can send as anyone and decide when blocks are mined.
   */
  async batched<T>(fn: () => Promise<T>): Promise<T> {
    await rpc(this.rpcUrl, "anvil_autoImpersonateAccount", [true]);
    await rpc(this.rpcUrl, "evm_setAutomine", [false]);
    try {
      return await fn();
    } finally {
      await rpc(this.rpcUrl, "evm_setAutomine", [true]);
      await rpc(this.rpcUrl, "anvil_autoImpersonateAccount", [false]);
    }
  }

  /**
   * Gas for one kind of transaction: estimated once (on the first of its kind) with a 50% margin.
   * Explicit gas keeps anvil from estimating each of a thousand transactions against a state in
   * which the earlier ones of the round are not mined yet. A kind whose cost depends on the chain
   * (a draw, on the pool) should carry what it depends on in its name.
   */
  async gasFor(kind: string, from: Address, to: Address, data: Hex, value?: bigint): Promise<bigint> {
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

  /**
   * Sends the transactions and mines them; receipts in the order given, every one checked. An
   * account's transactions go out in waves, one per account per wave (so in nonce order): anvil
   * drops a transaction that becomes ready in the middle of a full block (its predecessor mined in
   * that block), where a transaction that is ready from the start just waits for the next block.
   */
  async round(txs: Tx[]): Promise<RoundResult> {
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

  /** Next nonces of the senders, asked of the node in one batch for those not seen yet. */
  private async takeNonces(from: Address[]): Promise<number[]> {
    const unknown = [...new Set(from.filter((a) => !this.nonces.has(a)))];
    const counts = await rpcBatch<Hex>(
      this.rpcUrl,
      unknown.map((a) => ({ method: "eth_getTransactionCount", params: [a, "latest"] })),
    );
    for (const [i, a] of unknown.entries()) this.nonces.set(a, Number(BigInt(counts[i] as Hex)));
    return from.map((a) => {
      const n = this.nonces.get(a) as number;
      this.nonces.set(a, n + 1);
      return n;
    });
  }

  /** One JSON-RPC batch of transactions (at most one per account), mined until the pool is empty. */
  private async wave(txs: Tx[]): Promise<RoundResult> {
    const nonces = await this.takeNonces(txs.map((t) => t.from));
    const reqs = txs.map((t, i) => ({
      method: "eth_sendTransaction",
      params: [
        {
          from: t.from,
          to: t.to,
          data: t.data,
          value: toHex(t.value ?? 0n),
          gas: toHex(t.gas),
          nonce: toHex(nonces[i] as number),
          maxFeePerGas: MAX_FEE,
          maxPriorityFeePerGas: TIP,
        },
      ],
    }));
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

/** Gas used by each receipt, as numbers (a transaction's gas fits easily). */
export const gasUsed = (receipts: Receipt[]): number[] => receipts.map((r) => Number(BigInt(r.gasUsed)));
