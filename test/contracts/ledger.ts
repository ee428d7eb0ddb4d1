import type { Address, TransactionReceipt } from "viem";
import type { Actor } from "../../src/devnet/actor.js";
import { balance, type CourtDeployment, gasCost, readJudge, readOverview } from "./helpers.js";

/**
 * Snapshots wallets, judge stakes, the treasury and the registry's balance, and adds up the gas
 * each address spends through `tx`, so that every change can be asserted to the wei.
 */
export class Ledger {
  private gas = new Map<Address, bigint>();
  private wallets = new Map<Address, bigint>();
  private stakes = new Map<Address, bigint>();
  private treasury = 0n;
  private registryHeld = 0n;

  static async open(c: CourtDeployment, who: Actor[]): Promise<Ledger> {
    const l = new Ledger(c);
    await l.snapshot(who);
    return l;
  }

  private constructor(private c: CourtDeployment) {}

  private async snapshot(who: Actor[]): Promise<void> {
    for (const a of who) {
      this.wallets.set(a.address, await balance(this.c, a.address));
      this.stakes.set(a.address, (await readJudge(this.c, a.address)).stake);
    }
    this.treasury = (await readOverview(this.c)).treasury;
    this.registryHeld = await balance(this.c, this.c.registry);
  }

  async tx(who: Actor, sent: Promise<TransactionReceipt>): Promise<TransactionReceipt> {
    const r = await sent;
    this.gas.set(who.address, (this.gas.get(who.address) ?? 0n) + gasCost(r));
    return r;
  }

  stakeBefore(who: Actor): bigint {
    const s = this.stakes.get(who.address);
    if (s === undefined) throw new Error(`${who.address} not in the ledger`);
    return s;
  }

  /** Change in the wallet, gas excluded: what the contracts paid it minus what it paid them. */
  async wallet(who: Actor): Promise<bigint> {
    const before = this.wallets.get(who.address);
    if (before === undefined) throw new Error(`${who.address} not in the ledger`);
    return (await balance(this.c, who.address)) - before + (this.gas.get(who.address) ?? 0n);
  }

  async stake(who: Actor): Promise<bigint> {
    return (await readJudge(this.c, who.address)).stake - this.stakeBefore(who);
  }

  async treasuryDelta(): Promise<bigint> {
    return (await readOverview(this.c)).treasury - this.treasury;
  }

  async registryDelta(): Promise<bigint> {
    return (await balance(this.c, this.c.registry)) - this.registryHeld;
  }
}
