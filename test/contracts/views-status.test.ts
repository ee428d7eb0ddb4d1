/**
 * The status views behind an agent's inbox and the keeper view: `DisputeCase.getStatus` field by
 * field through every state (summoned, a draw pending, ready, expired and re-armed, deliberating in
 * public and in the commit and reveal phases of a hidden-vote court, resolved with the appeal
 * window, appealed, a final verdict on appeal, settled, defaulted, dismissed), and the factory's
 * index of the open cases each address takes part in: plaintiff, defendant, the judges of both
 * rounds, nobody else, and nobody at all once the case closes. Every expectation is a whole
 * CaseStatus, so a field the step does not mention is checked to keep its value.
 */
import { type Address, maxUint256, type TransactionReceipt } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Actor } from "../../src/devnet/actor.js";
import {
  actor,
  advance,
  appeal,
  bootCourt,
  Cast,
  type Court,
  caseFactoryAbi,
  commitVote,
  disputeCaseAbi,
  drawJudges,
  fileCase,
  HP,
  mineBlocks,
  readPanel,
  resolveAfterDeadline,
  respond,
  revealVote,
  State,
  seat,
  settle,
  stakeJudges,
  triggerDefault,
  vote,
  ZERO,
} from "./helpers.js";

/** IDrawEntropy.Status, and what getStatus says when no draw is awaited. */
const Draw = { Pending: 0, Ready: 1, Expired: 2, None: 255 } as const;

type Status = Awaited<ReturnType<typeof readStatus>>;

/** The actors of a court whose involvement is tracked: every dev account. */
const TRACKED = 20;

/** What the index should hold on one court: each case's participants while it is open. */
class Involvement {
  readonly open = new Map<Address, Set<Address>>();
  constructor(readonly court: Court) {}

  add(caseAddr: Address, who: readonly Address[]): void {
    const set = this.open.get(caseAddr) ?? new Set<Address>();
    for (const w of who) set.add(w);
    this.open.set(caseAddr, set);
  }

  close(caseAddr: Address): void {
    this.open.delete(caseAddr);
  }

  of(who: Address): Address[] {
    return [...this.open].filter(([, ps]) => ps.has(who)).map(([addr]) => addr);
  }

  /** Every tracked account's index, and the open list, as modelled; each entry its case's own status. */
  async check(): Promise<void> {
    const k = this.court;
    const blockNumber = await k.reader.getBlockNumber();
    const { timestamp } = await k.reader.getBlock({ blockNumber });
    for (let i = 0; i < TRACKED; i++) {
      const who = actor(k, i).address;
      const [total, chainTime, page] = await involvedPage(k, who, 0n, maxUint256, blockNumber);
      expect(sorted(page.map((s) => s.addr)), `index of account ${i}`).toEqual(sorted(this.of(who)));
      expect(total).toBe(BigInt(page.length));
      expect(chainTime).toBe(timestamp);
      expect(await count(k, who, blockNumber)).toBe(total);
      for (const s of page) expect(s).toEqual(await readStatus(k, s.addr, blockNumber));
    }
    const [total, chainTime, page] = await statusPage(k, 0n, maxUint256, blockNumber);
    expect(sorted(page.map((s) => s.addr))).toEqual(sorted([...this.open.keys()]));
    expect([total, chainTime]).toEqual([BigInt(this.open.size), timestamp]);
    for (const s of page) expect(s).toEqual(await readStatus(k, s.addr, blockNumber));
  }
}

let c: Court;
let h: Court;
let ci: Involvement;
let hi: Involvement;
const party = (k: Court, i: number) => actor(k, i);
/** Judges are accounts 7..16. */
const judge = (k: Court, i: number) => actor(k, 7 + i);

beforeAll(async () => {
  [c, h] = await Promise.all([bootCourt(), bootCourt(HP)]);
  ci = new Involvement(c);
  hi = new Involvement(h);
  await Promise.all([
    stakeJudges(
      c,
      Array.from({ length: 10 }, (_, i) => judge(c, i)),
    ),
    stakeJudges(
      h,
      Array.from({ length: 3 }, (_, i) => judge(h, i)),
    ),
  ]);
});

afterAll(async () => {
  await Promise.all([c?.stop(), h?.stop()]);
});

describe("getStatus and the involved-cases index", () => {
  it("a case drawn at random, through an expired draw, a verdict, an appeal and the final verdict", async () => {
    const p = party(c, 1);
    const d = party(c, 2);
    const filed = await fileCase(c, p, d.address);
    const A = filed.caseAddr;
    let want = fresh(c, A, p, d, (await timeOf(c, filed.receipt)) + c.params.responseWindow);
    await expectStatus(c, want);
    ci.add(A, [p.address, d.address]);
    await ci.check();

    // Answered: the draw is armed in this block; its entropy is the hash of this very block.
    const answered = await respond(A, d);
    want = {
      ...want,
      state: State.Active,
      deliberationDeadline: (await timeOf(c, answered)) + c.params.deliberationPeriod,
      drawPoolBlock: answered.blockNumber,
      drawStatus: Draw.Pending,
    };
    await expectStatus(c, want, answered.blockNumber);
    await mineBlocks(c, 1);
    await expectStatus(c, { ...want, drawStatus: Draw.Ready });
    // 257 blocks on, the block hash is gone: the draw expired, and executing it re-arms it.
    await mineBlocks(c, 256);
    await expectStatus(c, { ...want, drawStatus: Draw.Expired });
    const rearmed = await drawJudges(c, A, party(c, 5));
    want = { ...want, drawPoolBlock: rearmed.blockNumber, drawStatus: Draw.Pending };
    await expectStatus(c, want, rearmed.blockNumber);
    await ci.check();

    await mineBlocks(c, 1);
    const drawn = await drawJudges(c, A, party(c, 5));
    const [panel1] = await readPanel(c, A, 1);
    expect(panel1).toHaveLength(3);
    want = {
      ...want,
      state: State.Deliberating,
      deliberationDeadline: (await timeOf(c, drawn)) + c.params.deliberationPeriod,
      drawStatus: Draw.None,
      judges: panel1,
      votes: [Cast.None, Cast.None, Cast.None],
    };
    await expectStatus(c, want);
    ci.add(A, panel1);
    await ci.check();

    const [j1, , j3] = panel1.map((a) => byAddress(c, a)) as [Actor, Actor, Actor];
    await p.write({ address: A, abi: disputeCaseAbi, functionName: "submitEvidence", args: ["bafy-a"] });
    await vote(A, j1, false);
    want = { ...want, evidenceCount: 1n, votes: [Cast.Defendant, Cast.None, Cast.None] };
    await expectStatus(c, want);
    const decided = await vote(A, j3, false);
    want = {
      ...want,
      state: State.Resolved,
      mayAppeal: p.address,
      appealDeadline: (await timeOf(c, decided)) + c.params.appealWindow,
      votes: [Cast.Defendant, Cast.None, Cast.Defendant],
    };
    await expectStatus(c, want);
    // The judge who never voted stays in the index: bound to the case until its outcome is final.
    await ci.check();

    const appealed = await appeal(A, p);
    want = {
      ...want,
      state: State.Appealed,
      round: 2,
      appealUsed: true,
      mayAppeal: ZERO,
      deliberationDeadline: (await timeOf(c, appealed)) + c.params.deliberationPeriod,
      drawPoolBlock: appealed.blockNumber,
      drawStatus: Draw.Pending,
      judges: [],
      votes: [],
    };
    await expectStatus(c, want, appealed.blockNumber);
    await mineBlocks(c, 1);
    await expectStatus(c, { ...want, drawStatus: Draw.Ready });
    await ci.check();

    const panel2 = Array.from({ length: 10 }, (_, i) => judge(c, i))
      .filter((j) => !panel1.includes(j.address))
      .slice(0, 5);
    const seated = await seat(c, A, panel2);
    want = {
      ...want,
      state: State.Deliberating,
      deliberationDeadline: (await timeOf(c, seated)) + c.params.deliberationPeriod,
      drawStatus: Draw.None,
      judges: panel2.map((j) => j.address),
      votes: [0, 0, 0, 0, 0],
    };
    await expectStatus(c, want);
    ci.add(
      A,
      panel2.map((j) => j.address),
    );
    await ci.check();

    for (const j of panel2.slice(0, 2)) await vote(A, j, true);
    await vote(A, panel2[4] as Actor, false);
    want = { ...want, votes: [Cast.Plaintiff, Cast.Plaintiff, 0, 0, Cast.Defendant] };
    await expectStatus(c, want);
    // The final verdict on appeal settles the case: it leaves every participant's index.
    await vote(A, panel2[3] as Actor, true);
    want = { ...want, state: State.Resolved, settled: true, votes: [1, 1, 0, 1, 2] };
    await expectStatus(c, want);
    ci.close(A);
    await ci.check();
  });

  it("defaulted, dismissed and settled cases leave the index; the others stay", async () => {
    const [p1, p2, p3, p4] = [1, 2, 3, 4].map((i) => party(c, i)) as [Actor, Actor, Actor, Actor];
    const summons = await fileCase(c, p3, p4.address);
    const B = summons.caseAddr;
    ci.add(B, [p3.address, p4.address]);

    const C = (await fileCase(c, p1, p3.address)).caseAddr;
    await respond(C, p3);
    const cPanel = [judge(c, 0), judge(c, 1), judge(c, 2)];
    await seat(c, C, cPanel);
    await vote(C, judge(c, 1), true);
    ci.add(C, [p1.address, p3.address, ...cPanel.map((j) => j.address)]);

    const D = (await fileCase(c, p2, p4.address)).caseAddr;
    await respond(D, p4);
    const dPanel = [judge(c, 3), judge(c, 4), judge(c, 5)];
    await seat(c, D, dPanel);
    await vote(D, judge(c, 3), true);
    const decided = await vote(D, judge(c, 5), true);
    ci.add(D, [p2.address, p4.address, ...dPanel.map((j) => j.address)]);
    const dAppealDeadline = (await timeOf(c, decided)) + c.params.appealWindow;

    await ci.check();

    await advance(c, c.params.deliberationPeriod + 1n);
    // The appeal window closed but nobody settled yet: the loser still shows as the one who may
    // appeal; whether it still can is the reader's to judge against appealDeadline and chainTime.
    const dBefore = await readStatus(c, D);
    expect([dBefore.state, dBefore.mayAppeal, dBefore.appealDeadline, dBefore.settled]).toEqual([
      State.Resolved,
      p4.address,
      dAppealDeadline,
      false,
    ]);

    await triggerDefault(B, party(c, 6));
    await expectStatus(c, {
      ...fresh(c, B, p3, p4, (await timeOf(c, summons.receipt)) + c.params.responseWindow),
      state: State.Defaulted,
      settled: true,
    });
    ci.close(B);
    await ci.check();

    await resolveAfterDeadline(C, party(c, 6));
    const cStatus = await readStatus(c, C);
    expect([cStatus.state, cStatus.settled, cStatus.drawStatus, cStatus.votes]).toEqual([
      State.Dismissed,
      true,
      Draw.None,
      [Cast.None, Cast.Plaintiff, Cast.None],
    ]);
    ci.close(C);
    await ci.check();

    await settle(D, party(c, 6));
    const dStatus = await readStatus(c, D);
    expect([dStatus.state, dStatus.settled, dStatus.mayAppeal, dStatus.appealUsed]).toEqual([
      State.Resolved,
      true,
      ZERO,
      false,
    ]);
    ci.close(D);
    await ci.check();
  });

  it("hidden votes: the commit phase, the reveal phase and the verdict", async () => {
    const p = party(h, 1);
    const d = party(h, 2);
    const filed = await fileCase(h, p, d.address);
    const E = filed.caseAddr;
    let want = fresh(h, E, p, d, (await timeOf(h, filed.receipt)) + h.params.responseWindow);
    expect(want.hiddenVotes).toBe(true);
    await expectStatus(h, want);
    const answered = await respond(E, d);
    want = {
      ...want,
      state: State.Active,
      deliberationDeadline: (await timeOf(h, answered)) + h.params.deliberationPeriod,
      drawPoolBlock: answered.blockNumber,
      drawStatus: Draw.Pending,
    };
    await expectStatus(h, want, answered.blockNumber);
    hi.add(E, [p.address, d.address]);
    await hi.check();

    const panel = [judge(h, 0), judge(h, 1), judge(h, 2)];
    const seated = await seat(h, E, panel);
    const t = await timeOf(h, seated);
    const commitDeadline = t + h.params.commitPeriod;
    const revealDeadline = commitDeadline + h.params.revealPeriod;
    want = {
      ...want,
      state: State.Deliberating,
      commitDeadline,
      revealDeadline,
      deliberationDeadline: revealDeadline,
      drawStatus: Draw.None,
      judges: panel.map((j) => j.address),
      votes: [0, 0, 0],
    };
    await expectStatus(h, want);
    hi.add(
      E,
      panel.map((j) => j.address),
    );
    await hi.check();

    // Commit phase: a commitment shows as code 3, never as the vote behind it.
    await commitVote(E, panel[1] as Actor, true);
    want = { ...want, votesCommitted: 1n, votes: [0, Cast.Committed, 0] };
    await expectStatus(h, want);
    await commitVote(E, panel[0] as Actor, false);
    await commitVote(E, panel[2] as Actor, false);
    want = { ...want, votesCommitted: 3n, votes: [Cast.Committed, Cast.Committed, Cast.Committed] };
    await expectStatus(h, want);

    // Reveal phase (open early: every judge committed).
    await revealVote(E, panel[1] as Actor, true);
    await d.write({ address: E, abi: disputeCaseAbi, functionName: "submitEvidence", args: ["bafy-e"] });
    want = { ...want, evidenceCount: 1n, votes: [Cast.Committed, Cast.Plaintiff, Cast.Committed] };
    await expectStatus(h, want);
    await revealVote(E, panel[0] as Actor, false);
    const decided = await revealVote(E, panel[2] as Actor, false);
    want = {
      ...want,
      state: State.Resolved,
      mayAppeal: p.address,
      appealDeadline: (await timeOf(h, decided)) + h.params.appealWindow,
      votes: [Cast.Defendant, Cast.Plaintiff, Cast.Defendant],
    };
    await expectStatus(h, want);
    await hi.check();
  });

  it("pages: offset and limit edges, a huge limit, pages that add up to the whole", async () => {
    // Account 6 files five cases on the public court, against accounts 1..5.
    const p = party(c, 6);
    for (let i = 1; i <= 5; i++) {
      const d = party(c, i);
      ci.add((await fileCase(c, p, d.address)).caseAddr, [p.address, d.address]);
    }
    await ci.check();
    const who = p.address;
    const [n, , all] = await involvedPage(c, who, 0n, 100n);
    expect(n).toBe(5n);
    const addrs = all.map((s) => s.addr);
    const walk: Address[] = [];
    for (let offset = 0n; offset < n; offset += 2n) {
      const [total, , page] = await involvedPage(c, who, offset, 2n);
      expect(total).toBe(n);
      expect(page).toHaveLength(Number(n - offset < 2n ? n - offset : 2n));
      walk.push(...page.map((s) => s.addr));
    }
    expect(walk).toEqual(addrs);
    expect((await involvedPage(c, who, n, 5n))[2]).toEqual([]);
    expect((await involvedPage(c, who, n + 10n, 5n))[2]).toEqual([]);
    expect((await involvedPage(c, who, 2n, 0n))[2]).toEqual([]);
    expect((await involvedPage(c, who, n - 1n, 10n))[2].map((s) => s.addr)).toEqual(addrs.slice(-1));
    expect((await involvedPage(c, who, 1n, maxUint256))[2].map((s) => s.addr)).toEqual(addrs.slice(1));
    expect(await involvedPage(c, who, maxUint256, maxUint256)).toEqual([n, expect.any(BigInt), []]);

    const [open, , every] = await statusPage(c, 0n, maxUint256);
    expect(open).toBe(BigInt(ci.open.size));
    const openAddrs = every.map((s) => s.addr);
    const halves = [...(await statusPage(c, 0n, 3n))[2], ...(await statusPage(c, 3n, maxUint256))[2]];
    expect(halves.map((s) => s.addr)).toEqual(openAddrs);
    expect((await statusPage(c, open, 1n))[2]).toEqual([]);
    expect((await statusPage(c, maxUint256, 1n))[2]).toEqual([]);
    expect((await statusPage(c, 0n, 0n))[2]).toEqual([]);

    // A stranger (account 19 never took part in anything) has an empty index.
    const stranger = actor(c, 19).address;
    expect(await involvedPage(c, stranger, 0n, maxUint256)).toEqual([0n, expect.any(BigInt), []]);
    expect(await count(c, stranger)).toBe(0n);

    // A case that closes is swapped out: the others stay, in a changed order.
    const first = addrs[0] as Address;
    await advance(c, c.params.responseWindow + 1n);
    await triggerDefault(first, p);
    ci.close(first);
    const [left, , rest] = await involvedPage(c, who, 0n, 100n);
    expect(left).toBe(4n);
    expect(rest.map((s) => s.addr)).toEqual([addrs[4], ...addrs.slice(1, 4)]);
    await ci.check();
  });
});

// ---------------------------------------------------------------- reading

function readStatus(k: Court, addr: Address, blockNumber?: bigint) {
  return k.reader.readContract({
    address: addr,
    abi: disputeCaseAbi,
    functionName: "getStatus",
    ...(blockNumber === undefined ? {} : { blockNumber }),
  });
}

function involvedPage(k: Court, who: Address, offset: bigint, limit: bigint, blockNumber?: bigint) {
  return k.reader.readContract({
    address: k.factory,
    abi: caseFactoryAbi,
    functionName: "getInvolvedCases",
    args: [who, offset, limit],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  });
}

function statusPage(k: Court, offset: bigint, limit: bigint, blockNumber?: bigint) {
  return k.reader.readContract({
    address: k.factory,
    abi: caseFactoryAbi,
    functionName: "getCaseStatuses",
    args: [offset, limit],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  });
}

function count(k: Court, who: Address, blockNumber?: bigint) {
  return k.reader.readContract({
    address: k.factory,
    abi: caseFactoryAbi,
    functionName: "involvedCount",
    args: [who],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  });
}

/** The status of a case just filed; each step spreads its changes over the last expectation. */
function fresh(k: Court, addr: Address, p: Actor, d: Actor, responseDeadline: bigint): Status {
  return {
    addr,
    state: State.Summoned,
    plaintiff: p.address,
    defendant: d.address,
    round: 1,
    hiddenVotes: k.params.hiddenVotes,
    settled: false,
    appealUsed: false,
    mayAppeal: ZERO,
    responseDeadline,
    deliberationDeadline: 0n,
    commitDeadline: 0n,
    revealDeadline: 0n,
    appealDeadline: 0n,
    drawPoolBlock: 0n,
    drawStatus: Draw.None,
    votesCommitted: 0n,
    evidenceCount: 0n,
    courtId: 1n,
    judges: [],
    votes: [],
  };
}

/** The case's status (at `blockNumber`, else the latest block) is exactly `want`. */
async function expectStatus(k: Court, want: Status, blockNumber?: bigint): Promise<void> {
  expect(await readStatus(k, want.addr, blockNumber)).toEqual(want);
}

async function timeOf(k: Court, r: TransactionReceipt): Promise<bigint> {
  return (await k.reader.getBlock({ blockNumber: r.blockNumber })).timestamp;
}

function byAddress(k: Court, a: Address): Actor {
  const found = k.actors.find((x) => x.address === a);
  if (!found) throw new Error(`no dev account ${a}`);
  return found;
}

function sorted(xs: readonly Address[]): Address[] {
  return [...xs].sort();
}
