import {
  type Address,
  encodeFunctionData,
  getAddress,
  type Hex,
  keccak256,
  parseEther,
  parseEventLogs,
  toHex,
} from "viem";
import { caseFactoryAbi, courtRegistryAbi, disputeCaseAbi } from "../../src/chain/abi/generated.js";
import { voteCommitment } from "../../src/chain/votes.js";
import type { Devnet } from "../../src/devnet/devnet.js";
import { rpc } from "./rpc.js";
import { gasUsed, type Receipt, type Tx, TxRounds } from "./txRounds.js";

/**
 * Builds a large court world on the dev chain quickly, straight on chain (never through docket),
 * with TxRounds: impersonated, funded addresses, rounds of batched transactions, blocks mined by hand.
 * A round costs a few blocks, so chain time barely moves and no window closes during the build.
 *
 * Shape: the first `agentJudges` agents also stake as judges; cases are filed between the other
 * agents; of every 10 cases filed, 1 is Deliberating (answered, panel drawn), 1 Active (answered),
 * the rest Summoned. Every case stays open, the worst case for the views that loop over open cases.
 * The draw-gas item adds a pool of judges who are not agents (`stakeJudges`), has panels vote
 * (`decide`) and losers appeal (`appeal`).
 */

export const JUDGES = 5;

export interface GrowReport {
  seconds: number;
  transactions: number;
  blocks: number;
  /** gasUsed of each transaction of the step that is measured (draws, stakes), in order. */
  gasUsed: number[];
}

interface Filing {
  index: number;
  plaintiff: Address;
  defendant: Address;
  address: Address;
}

/** Claims about as long as the demo seed's, so case bodies have a realistic size. */
const CLAIMS = [
  "Case #: shipment of 40 pallets delivered nine days late; the carrier kept the expedite fee.",
  "Case #: data feed delivered with a 6-hour lag against a 5-minute SLA for a whole week.",
  "Case #: model fine-tune delivered without the agreed evaluation report or eval set.",
  "Case #: escrow released before the analytics report was delivered and reviewed.",
];

const labelled = (label: string): Address => getAddress(`0x${keccak256(toHex(label)).slice(-40)}`);
export const agentAddress = (i: number): Address => labelled(`docket-bench-agent-${i}`);
export const judgeAddress = (i: number): Address => labelled(`docket-bench-judge-${i}`);
const paymentRef = (j: number): Hex => keccak256(toHex(`docket-bench-payment-${j}`));

export class World {
  readonly agents: Address[] = [];
  readonly cases: Address[] = [];
  readonly deliberating: Address[] = [];
  readonly active: Address[] = [];
  /** Judges staked by `stakeJudges`: not agents, never parties. */
  readonly poolJudges: Address[] = [];
  private readonly tx: TxRounds;
  private readonly filings = new Map<Address, Filing>();
  /** Each drawn case's current panel and its round. */
  private readonly panels = new Map<Address, { round: number; judges: Address[] }>();
  private readonly losers = new Map<Address, Address>();
  private minPartyStake = 0n;
  private minJudgeStake = 0n;
  private filingFee = 0n;
  private appealBond = 0n;
  private hiddenVotes = false;

  constructor(
    readonly rpcUrl: string,
    readonly factory: Address,
    readonly registry: Address,
    readonly agentJudges = JUDGES,
    /** The court cases are filed in and judges stake in (0: the General court). */
    readonly court = 0n,
  ) {
    this.tx = new TxRounds(rpcUrl);
  }

  static async on(devnet: Devnet, opts: { agentJudges?: number; court?: bigint } = {}): Promise<World> {
    const d = devnet.deployment;
    const court = opts.court ?? 0n;
    const w = new World(devnet.nodeUrl, d.factory, d.registry, opts.agentJudges ?? JUDGES, court);
    const params = await devnet.reader.readContract({
      address: w.factory,
      abi: caseFactoryAbi,
      functionName: "getParams",
    });
    const [, courtView] = await devnet.reader.readContract({
      address: w.registry,
      abi: courtRegistryAbi,
      functionName: "getCourt",
      args: [court === 0n ? 1n : court],
    });
    const terms = courtView.config.terms;
    w.minPartyStake = terms.minPartyStake;
    w.appealBond = terms.appealBond;
    w.hiddenVotes = terms.hiddenVotes;
    w.filingFee = params.filingFee;
    w.minJudgeStake = courtView.config.minJudgeStake;
    return w;
  }

  /** Whether this court's judges commit and reveal (true) or vote in the open. */
  get votesHidden(): boolean {
    return this.hiddenVotes;
  }

  /** Grows the world to `cases` cases and `agents` registered agents (totals, not additions). */
  async grow(cases: number, agents: number): Promise<GrowReport> {
    if (agents < this.agentJudges + 2) throw new Error(`need at least ${this.agentJudges + 2} agents`);
    return this.measured(async () => {
      // Round 1: new agents register (the first agentJudges also stake); each new case's plaintiff
      // pays its filing fee. fileCase takes only a paid reference, and its gas is estimated against
      // a paid one, so the filings are the next round.
      const fresh = Array.from({ length: Math.max(0, agents - this.agents.length) }, (_, k) =>
        agentAddress(this.agents.length + k),
      );
      await this.tx.fund(fresh);
      const round1: Tx[] = [];
      for (const [k, a] of fresh.entries()) {
        const i = this.agents.length + k;
        const name = `bench-agent-${String(i).padStart(4, "0")}`;
        const args = [name, `https://agents.example.org/${name}.json`] as const;
        round1.push(await this.call("selfRegister", a, this.registry, courtRegistryAbi, "selfRegister", args));
        if (i < this.agentJudges) {
          const stake = this.minJudgeStake + parseEther("0.05") * BigInt(i);
          round1.push(await this.stakeCall(a, stake));
        }
      }
      this.agents.push(...fresh);
      const parties = this.agents.slice(this.agentJudges);
      const planned = Array.from({ length: Math.max(0, cases - this.cases.length) }, (_, k) => {
        const index = this.cases.length + k;
        return {
          index,
          plaintiff: parties[index % parties.length] as Address,
          defendant: parties[(index + 1) % parties.length] as Address,
        };
      });
      for (const f of planned) {
        const args = [paymentRef(f.index)] as const;
        round1.push(
          await this.call(
            "payFilingFee",
            f.plaintiff,
            this.factory,
            caseFactoryAbi,
            "payFilingFee",
            args,
            this.filingFee,
          ),
        );
      }
      const r1 = await this.tx.round(round1);

      // Round 2: the cases are filed, each with the reference its plaintiff paid.
      const round2: Tx[] = [];
      for (const f of planned) {
        const claim = CLAIMS[f.index % CLAIMS.length]?.replace("#", String(f.index)) as string;
        const args = [
          this.court,
          f.defendant,
          claim,
          `bafkrei${keccak256(toHex(claim)).slice(2, 54)}`,
          paymentRef(f.index),
        ] as const;
        round2.push(
          await this.call("fileCase", f.plaintiff, this.factory, caseFactoryAbi, "fileCase", args, this.minPartyStake),
        );
      }
      const r2 = await this.tx.round(round2);
      const filed = new Map<Hex, Address>();
      for (const rc of r2.receipts) {
        for (const ev of parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: rc.logs })) {
          filed.set(ev.args.paymentRef, ev.args.caseAddr);
        }
      }
      const newCases: Filing[] = planned.map((f) => {
        const address = filed.get(paymentRef(f.index));
        if (!address) throw new Error(`case ${f.index} was not filed`);
        return { ...f, address };
      });
      for (const c of newCases) this.filings.set(c.address, c);
      this.cases.push(...newCases.map((c) => c.address));

      // Round 3: 2 of every 10 new cases are answered by their defendant, which arms their draw.
      const answered = newCases.filter((c) => c.index % 10 === 0 || c.index % 10 === 5);
      const round3: Tx[] = [];
      for (const c of answered) {
        round3.push(
          await this.call("respond", c.defendant, c.address, disputeCaseAbi, "respond", [], this.minPartyStake),
        );
      }
      const r3 = await this.tx.round(round3);

      // Round 4, in later blocks than the responses (a draw needs the hash of the block that armed
      // it): half of those get a panel drawn.
      const drawn = answered.filter((c) => c.index % 10 === 0).map((c) => c.address);
      const r4 = await this.draw(drawn);
      this.deliberating.push(...drawn);
      this.active.push(...answered.filter((c) => c.index % 10 === 5).map((c) => c.address));
      return { rounds: [r1, r2, r3, r4], measured: r4.receipts };
    });
  }

  /**
   * Grows the pool of judges who are not agents to `total`, judge i staking between the minimum and
   * 10x it (spread by i, so the tree's weights differ). All in one round; one new judge is one
   * transaction mined in a block of its own, what a judge joining a live court pays.
   */
  async stakeJudges(total: number): Promise<GrowReport> {
    return this.measured(async () => {
      const fresh = Array.from({ length: Math.max(0, total - this.poolJudges.length) }, (_, k) =>
        judgeAddress(this.poolJudges.length + k),
      );
      await this.tx.fund(fresh);
      const txs: Tx[] = [];
      for (const [k, a] of fresh.entries()) {
        const i = this.poolJudges.length + k;
        const stake = this.minJudgeStake + (this.minJudgeStake * 9n * BigInt((i * 7919) % 1000)) / 999n;
        txs.push(await this.stakeCall(a, stake));
      }
      const r = await this.tx.round(txs);
      this.poolJudges.push(...fresh);
      return { rounds: [r], measured: r.receipts };
    });
  }

  /**
   * The current panel of each case (drawn by this world) finds for the plaintiff, in the court's
   * vote mode: public, a majority votes; hidden, every judge commits, then every judge reveals (a
   * hidden-vote round is decided only once every committed vote is revealed).
   */
  async decide(cases: Address[]): Promise<GrowReport> {
    return this.measured(async () => {
      const rounds = [];
      const panels = cases.map((c) => {
        const p = this.panels.get(c);
        if (!p) throw new Error(`no panel drawn by the bench on ${c}`);
        const voters = this.hiddenVotes ? p.judges : p.judges.slice(0, Math.floor(p.judges.length / 2) + 1);
        return { c, ...p, voters };
      });
      const salt = (c: Address, j: Address) => keccak256(toHex(`docket-bench-salt:${c}:${j}`));
      if (this.hiddenVotes) {
        const commits: Tx[] = [];
        for (const p of panels) {
          for (const judge of p.judges) {
            const commitment = voteCommitment({
              caseAddress: p.c,
              judge,
              round: p.round,
              plaintiffWins: true,
              salt: salt(p.c, judge),
            });
            commits.push(await this.call("commitVote", judge, p.c, disputeCaseAbi, "commitVote", [commitment]));
          }
        }
        rounds.push(await this.tx.round(commits));
      }
      // One round per place among the voters: the vote that decides costs more (the verdict), and
      // its gas is estimated with the votes before it mined.
      const places = Math.max(0, ...panels.map((p) => p.voters.length));
      for (let k = 0; k < places; k++) {
        const votes: Tx[] = [];
        for (const p of panels) {
          const judge = p.voters[k];
          if (!judge) continue;
          votes.push(
            this.hiddenVotes
              ? await this.call(`revealVote:${k}`, judge, p.c, disputeCaseAbi, "revealVote", [
                  true,
                  salt(p.c, judge),
                  "bench",
                ])
              : await this.call(`vote:${k}`, judge, p.c, disputeCaseAbi, "vote", [true]),
          );
        }
        rounds.push(await this.tx.round(votes));
      }
      for (const p of panels) {
        this.losers.set(p.c, (this.filings.get(p.c) as Filing).defendant);
        this.dropDeliberating(p.c);
      }
      return { rounds, measured: [] };
    });
  }

  /** The losers of the decided `cases` appeal; in the next round the 5-judge appeal panels are drawn. */
  async appeal(cases: Address[]): Promise<GrowReport> {
    return this.measured(async () => {
      const appeals: Tx[] = [];
      for (const c of cases) {
        const loser = this.losers.get(c);
        if (!loser) throw new Error(`case ${c} was not decided by the bench`);
        appeals.push(await this.call("appeal", loser, c, disputeCaseAbi, "appeal", [], this.appealBond));
      }
      const r1 = await this.tx.round(appeals);
      const r2 = await this.draw(cases);
      this.deliberating.push(...cases);
      return { rounds: [r1, r2], measured: r2.receipts };
    });
  }

  /** Executes the armed draws of `cases` (a keeper's call; here each plaintiff makes it). */
  private async draw(cases: Address[]) {
    const txs: Tx[] = [];
    // A draw's cost depends on the pool and the round: one estimate for each.
    const kind = (c: Address) => `draw:${this.panels.has(c) ? 2 : 1}:${this.poolJudges.length}`;
    for (const c of cases) {
      const from = (this.filings.get(c) as Filing).plaintiff;
      txs.push(await this.call(kind(c), from, this.factory, caseFactoryAbi, "assignJudgesRandom", [c]));
    }
    const r = await this.tx.round(txs);
    for (const rc of r.receipts) {
      for (const ev of parseEventLogs({ abi: disputeCaseAbi, eventName: "JudgesAssigned", logs: rc.logs })) {
        this.panels.set(getAddress(ev.address), { round: ev.args.round, judges: [...ev.args.judges] });
      }
    }
    return r;
  }

  /** Who filed `c` and against whom (a case this world filed). */
  partiesOf(c: Address): { plaintiff: Address; defendant: Address } {
    const f = this.filings.get(c);
    if (!f) throw new Error(`case ${c} was not filed by the bench`);
    return { plaintiff: f.plaintiff, defendant: f.defendant };
  }

  /** The panel this world drew for `c` last (undefined: none drawn). */
  panelOf(c: Address): readonly Address[] | undefined {
    return this.panels.get(c)?.judges;
  }

  private dropDeliberating(c: Address): void {
    const i = this.deliberating.indexOf(c);
    if (i >= 0) this.deliberating.splice(i, 1);
  }

  /** One transaction calling `fn`, its gas estimated once per `kind`. */
  /**
   * A judge's stake. Its gas grows with the court's tree and with each court above it, and the
   * transactions of a round are all built before any is mined (an estimate would see the pool as
   * it was before the round), so it gets a fixed allowance that covers the tallest tree: 2M gas per
   * tree it writes (the General court's, and the court's own below it). Receipts report what it used.
   */
  private async stakeCall(judge: Address, value: bigint): Promise<Tx> {
    const data = encodeFunctionData({ abi: courtRegistryAbi, functionName: "stakeAsJudge", args: [this.court] });
    const trees = this.court === 0n || this.court === 1n ? 1n : 2n;
    return { from: judge, to: this.registry, data, value, gas: 2_000_000n * trees };
  }

  private async call(
    kind: string,
    from: Address,
    to: Address,
    // biome-ignore lint/suspicious/noExplicitAny: one helper for the three contracts' ABIs
    abi: any,
    functionName: string,
    args: readonly unknown[],
    value?: bigint,
  ): Promise<Tx> {
    const data = encodeFunctionData({ abi, functionName, args });
    return { from, to, data, value, gas: await this.tx.gasFor(kind, from, to, data, value) };
  }

  /** Runs a step with the chain in batch mode; times it and counts its transactions and blocks. */
  private async measured(
    step: () => Promise<{ rounds: { receipts: Receipt[]; blocks: number }[]; measured: Receipt[] }>,
  ): Promise<GrowReport> {
    const t0 = performance.now();
    const startBlock = BigInt(await rpc<Hex>(this.rpcUrl, "eth_blockNumber"));
    const out = await this.tx.batched(step);
    const endBlock = BigInt(await rpc<Hex>(this.rpcUrl, "eth_blockNumber"));
    return {
      seconds: (performance.now() - t0) / 1000,
      transactions: out.rounds.reduce((n, r) => n + r.receipts.length, 0),
      blocks: Math.max(
        out.rounds.reduce((n, r) => n + r.blocks, 0),
        Number(endBlock - startBlock),
      ),
      gasUsed: gasUsed(out.measured),
    };
  }
}
