import { type Address, getAddress, type Hex } from "viem";
import type { CourtLog } from "../../src/chain/courtLogs.js";
import type { PollMeta } from "../../src/chain/follower.js";
import type { CaseFacts, CaseStatusView } from "../../src/chain/reads/cases.js";
import { STATE_NAMES } from "../../src/chain/reads/cases.js";
import type { BlockFacts, ChainFacts } from "../../src/index/writer.js";

/**
 * Court events made up, as the chain would log them, for filling the index through its real ingest
 * (rows.ts + IndexWriter.persist) far past what the dev chain builds in a bench's time. No chain: the
 * generator is its own `ChainFacts` (block hashes and times, each case's status and claim as its own
 * model of the case says after the events it made).
 *
 * The mix: each transaction moves one case a step along a realistic life (filed with its fee; answered
 * or defaulted; evidence; a panel of 3 seated; votes; a verdict; sometimes an appeal to a panel of 5,
 * its votes and verdict; settled), many cases in flight at once, so a step's events are interleaved
 * as a busy court's are. About 12 events per case on average.
 */

const STATE = Object.fromEntries(STATE_NAMES.map((s, i) => [s, i])) as Record<(typeof STATE_NAMES)[number], number>;
const word = (n: number, tag: number) =>
  `0x${tag.toString(16).padStart(8, "0")}${n.toString(16).padStart(56, "0")}` as Hex;
const addr = (n: number, tag: number): Address =>
  getAddress(`0x${tag.toString(16).padStart(8, "0")}${n.toString(16).padStart(32, "0")}`);

export const GEN_FACTORY = addr(1, 0xfac7);
const CLAIMS = [
  "shipment of 40 pallets delivered nine days late; the carrier kept the expedite fee",
  "data feed delivered with a 6-hour lag against a 5-minute SLA for a whole week",
  "model fine-tune delivered without the agreed evaluation report or eval set",
  "escrow released before the analytics report was delivered and reviewed",
];

interface Live {
  address: Address;
  plaintiff: Address;
  defendant: Address;
  courtId: number;
  state: number;
  round: number;
  judges: Address[];
  votes: number;
  /** The steps left, in order. */
  script: Step[];
  settled: boolean;
  evidence: number;
  appealUsed: boolean;
}

type Step = "respond" | "default" | "evidence" | "draw" | "vote" | "verdict" | "appeal" | "settle";

export interface GeneratorOptions {
  /** Parties (agents) the cases are filed between. */
  parties?: number;
  /** Judges the panels are drawn from. */
  judges?: number;
  /** Cases in flight at once. */
  inFlight?: number;
  /** Transactions per block. */
  txPerBlock?: number;
  /** Seed of the pseudo-random choices: the same seed makes the same events. */
  seed?: number;
}

export class CourtEventGenerator implements ChainFacts {
  readonly parties: Address[];
  readonly judges: Address[];
  private readonly live: Live[] = [];
  /** Cases by address (lower-case) while a step's facts may be asked of them. */
  private readonly byAddress = new Map<string, Live>();
  private block = 0;
  private filings = 0;
  private rand: () => number;
  /** Filed cases (lower-case addresses), in filing order, for the query bench to pick from. */
  readonly filed: string[] = [];
  private readonly opts: Required<GeneratorOptions>;
  private readonly t0 = 1_750_000_000;

  constructor(opts: GeneratorOptions = {}) {
    this.opts = { parties: 2_000, judges: 300, inFlight: 2_000, txPerBlock: 20, seed: 34, ...opts };
    this.parties = Array.from({ length: this.opts.parties }, (_, i) => addr(i + 1, 0xa9e7));
    this.judges = Array.from({ length: this.opts.judges }, (_, i) => addr(i + 1, 0x7d9e));
    // mulberry32: small, fast and seeded.
    let s = this.opts.seed >>> 0;
    this.rand = () => {
      s = (s + 0x6d2b79f5) >>> 0;
      let t = s;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }

  get casesFiled(): number {
    return this.filings;
  }

  private pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.rand() * xs.length)] as T;
  }

  private script(): Step[] {
    const r = this.rand();
    if (r < 0.15) return ["default", "settle"]; // never answered
    const ev = Array<Step>(Math.floor(this.rand() * 3)).fill("evidence");
    const round: Step[] = ["draw", "vote", "vote", "vote", "verdict"];
    const appeal = this.rand() < 0.2;
    return [
      "respond",
      ...ev,
      ...round,
      ...(appeal ? (["appeal", "draw", ...Array<Step>(5).fill("vote"), "verdict"] as Step[]) : []),
      "settle",
    ];
  }

  private file(): Live {
    const n = ++this.filings;
    const plaintiff = this.pick(this.parties);
    let defendant = this.pick(this.parties);
    if (defendant === plaintiff)
      defendant = this.parties[(this.parties.indexOf(plaintiff) + 1) % this.parties.length] as Address;
    const c: Live = {
      address: addr(n, 0xca5e),
      plaintiff,
      defendant,
      courtId: this.rand() < 0.7 ? 1 : 2,
      state: STATE.Summoned,
      round: 0,
      judges: [],
      votes: 0,
      script: this.script(),
      settled: false,
      evidence: 0,
      appealUsed: false,
    };
    this.filed.push(c.address.toLowerCase());
    return c;
  }

  /** The next `events` events or a little more (whole transactions), as one follower step, with its meta. */
  step(events: number): { logs: CourtLog[]; meta: PollMeta } {
    const logs: CourtLog[] = [];
    const fromBlock = this.block + 1;
    this.byAddress.clear();
    while (logs.length < events) {
      const number = ++this.block;
      const hash = word(number, 0xb10c);
      const timestamp = BigInt(this.t0 + number * 2);
      let logIndex = 0;
      for (let tx = 0; tx < this.opts.txPerBlock; tx++) {
        const txHash = word(number * 1000 + tx, 0x7a);
        const emit = (address: Address, eventName: string, args: Record<string, unknown>) =>
          logs.push({
            address,
            eventName,
            args,
            blockNumber: BigInt(number),
            blockHash: hash,
            logIndex: logIndex++,
            transactionHash: txHash,
            blockTimestamp: timestamp,
          });
        this.move(emit);
      }
    }
    return {
      logs,
      meta: {
        fromBlock: BigInt(fromBlock),
        toBlock: BigInt(this.block),
        toHash: word(this.block, 0xb10c),
        target: BigInt(this.block),
        catchingUp: true,
      },
    };
  }

  /** One transaction: a filing (while fewer than `inFlight` cases are open), else a step of an open case. */
  private move(emit: (address: Address, eventName: string, args: Record<string, unknown>) => void) {
    if (this.live.length < this.opts.inFlight || this.rand() < 0.1) {
      const c = this.file();
      this.live.push(c);
      this.byAddress.set(c.address.toLowerCase(), c);
      const ref = word(this.filings, 0x9e1);
      emit(GEN_FACTORY, "FilingFeePaid", { payer: c.plaintiff, paymentRef: ref, amount: 10n ** 15n });
      emit(GEN_FACTORY, "CaseFiled", {
        caseAddr: c.address,
        plaintiff: c.plaintiff,
        defendant: c.defendant,
        paymentRef: ref,
        stake: 10n ** 16n,
        courtId: BigInt(c.courtId),
      });
      emit(GEN_FACTORY, "CaseChanged", { caseAddr: c.address, state: c.state });
      return;
    }
    const i = Math.floor(this.rand() * this.live.length);
    const c = this.live[i] as Live;
    this.byAddress.set(c.address.toLowerCase(), c);
    const step = c.script.shift() as Step;
    const changed = (state: number) => {
      c.state = state;
      emit(GEN_FACTORY, "CaseChanged", { caseAddr: c.address, state });
    };
    switch (step) {
      case "respond":
        emit(c.address, "Responded", { defendant: c.defendant, stake: 10n ** 16n });
        changed(STATE.Active);
        break;
      case "default":
        emit(c.address, "Defaulted", { plaintiff: c.plaintiff });
        changed(STATE.Defaulted);
        break;
      case "evidence":
        c.evidence++;
        emit(c.address, "EvidenceSubmitted", {
          submitter: this.rand() < 0.5 ? c.plaintiff : c.defendant,
          evidenceIpfsHash: `bafybeigdyr${this.filings.toString(36)}${c.evidence}`,
        });
        break;
      case "draw": {
        c.round++;
        c.votes = 0;
        const size = c.round === 1 ? 3 : 5;
        const seated = new Set<Address>();
        while (seated.size < size) seated.add(this.pick(this.judges));
        c.judges = [...seated];
        emit(c.address, "DrawArmed", { round: c.round, ticket: BigInt(this.filings), poolBlock: BigInt(this.block) });
        emit(c.address, "JudgesAssigned", { round: c.round, judges: c.judges });
        changed(STATE.Deliberating);
        break;
      }
      case "vote":
        emit(c.address, "VoteCast", {
          judge: c.judges[c.votes++ % c.judges.length],
          plaintiffWins: this.rand() < 0.6,
          round: c.round,
        });
        break;
      case "verdict":
        emit(c.address, "Verdict", { outcome: this.rand() < 0.6 ? 1 : 2, round: c.round });
        changed(STATE.Resolved);
        break;
      case "appeal":
        c.appealUsed = true;
        emit(c.address, "Appealed", { appellant: c.defendant, bond: 2n * 10n ** 16n });
        changed(STATE.Appealed);
        break;
      case "settle":
        c.settled = true;
        emit(c.address, "Settled", {
          winner: this.rand() < 0.6 ? c.plaintiff : c.defendant,
          payout: 2n * 10n ** 16n,
          courtFee: 10n ** 15n,
          judgeRewards: 10n ** 15n,
        });
        if (c.state !== STATE.Defaulted) changed(STATE.Resolved);
        break;
    }
    if (c.script.length === 0) {
      this.live[i] = this.live[this.live.length - 1] as Live;
      this.live.pop();
    }
  }

  private status(c: Live): CaseStatusView {
    const z = 0n;
    return {
      addr: c.address,
      state: c.state,
      plaintiff: c.plaintiff,
      defendant: c.defendant,
      round: c.round,
      hiddenVotes: false,
      settled: c.settled,
      appealUsed: c.appealUsed,
      mayAppeal: c.defendant,
      responseDeadline: BigInt(this.t0 + this.block * 2 + 86_400),
      deliberationDeadline: z,
      commitDeadline: z,
      revealDeadline: z,
      appealDeadline: z,
      drawPoolBlock: z,
      drawStatus: 0,
      votesCommitted: BigInt(c.votes),
      evidenceCount: BigInt(c.evidence),
      judges: c.judges,
      votes: c.judges.map(() => 0),
      courtId: BigInt(c.courtId),
    } as unknown as CaseStatusView;
  }

  // ChainFacts: what the writer reads of "the chain" beside the logs.
  async headers(numbers: readonly bigint[]): Promise<Map<bigint, BlockFacts>> {
    return new Map(
      numbers.map((n) => [n, { hash: word(Number(n), 0xb10c), timestamp: BigInt(this.t0 + Number(n) * 2) }] as const),
    );
  }

  async cases(touched: readonly string[], filed: readonly string[]): Promise<Map<string, CaseFacts>> {
    const out = new Map<string, CaseFacts>();
    for (const a of touched) {
      const c = this.byAddress.get(a);
      if (c) out.set(a, { status: this.status(c) });
    }
    for (const a of filed) {
      const c = this.byAddress.get(a);
      const n = Number.parseInt(a.slice(-32), 16);
      if (c) out.set(a, { ...out.get(a), claim: `Case ${n}: ${CLAIMS[n % CLAIMS.length]}.` });
    }
    return out;
  }
}
