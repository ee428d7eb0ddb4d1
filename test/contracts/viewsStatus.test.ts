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
import * as kit from "./helpers.js";

/** IDrawEntropy.Status, and what getStatus says when no draw is awaited. */
const Draw = { Pending: 0, Ready: 1, Expired: 2, None: 255 } as const;

type Status = Awaited<ReturnType<typeof readStatus>>;

/** The actors of a court whose involvement is tracked: every dev account. */
const TRACKED = 20;

/** What the index should hold on one court: each case's participants while it is open. */
class Involvement {
  readonly open = new Map<Address, Set<Address>>();
  constructor(readonly court: kit.CourtDeployment) {}

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
      const who = kit.actor(k, i).address;
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

let c: kit.CourtDeployment;
let h: kit.CourtDeployment;
let ci: Involvement;
let hi: Involvement;
const party = (k: kit.CourtDeployment, i: number) => kit.actor(k, i);
/** Judges are accounts 7..16. */
const judge = (k: kit.CourtDeployment, i: number) => kit.actor(k, 7 + i);

beforeAll(async () => {
  [c, h] = await Promise.all([kit.bootCourt(), kit.bootCourt(kit.HP)]);
  ci = new Involvement(c);
  hi = new Involvement(h);
  await Promise.all([
    kit.stakeJudges(
      c,
      Array.from({ length: 10 }, (_, i) => judge(c, i)),
    ),
    kit.stakeJudges(
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
    const filed = await kit.fileCase(c, p, d.address);
    const A = filed.caseAddr;
    let want = fresh(c, A, p, d, (await timeOf(c, filed.receipt)) + c.params.responseWindow);
    await expectStatus(c, want);
    ci.add(A, [p.address, d.address]);
    await ci.check();

    // Answered: the draw is armed in this block; its entropy is the hash of this very block.
    const answered = await kit.respond(A, d);
    want = { ...want, ...(await answeredStatus(c, answered)) };
    await expectStatus(c, want, answered.blockNumber);
    await kit.mineBlocks(c, 1);
    await expectStatus(c, { ...want, drawStatus: Draw.Ready });
    // 257 blocks on, the block hash is gone: the draw expired, and executing it re-arms it.
    await kit.mineBlocks(c, 256);
    await expectStatus(c, { ...want, drawStatus: Draw.Expired });
    const rearmed = await kit.drawJudges(c, A, party(c, 5));
    want = { ...want, drawPoolBlock: rearmed.blockNumber, drawStatus: Draw.Pending };
    await expectStatus(c, want, rearmed.blockNumber);
    await ci.check();

    await kit.mineBlocks(c, 1);
    const drawn = await kit.drawJudges(c, A, party(c, 5));
    const [panel1] = await kit.readPanel(c, A, 1);
    expect(panel1).toHaveLength(3);
    want = { ...want, ...(await seatedStatus(c, drawn, panel1)) };
    await expectStatus(c, want);
    ci.add(A, panel1);
    await ci.check();

    const [j1, , j3] = panel1.map((a) => byAddress(c, a)) as [Actor, Actor, Actor];
    await p.write({ address: A, abi: kit.disputeCaseAbi, functionName: "submitEvidence", args: ["bafy-a"] });
    await kit.vote(A, j1, false);
    want = { ...want, evidenceCount: 1n, votes: [kit.Cast.Defendant, kit.Cast.None, kit.Cast.None] };
    await expectStatus(c, want);
    const decided = await kit.vote(A, j3, false);
    want = {
      ...want,
      ...(await decidedStatus(c, decided, p, [kit.Cast.Defendant, kit.Cast.None, kit.Cast.Defendant])),
    };
    await expectStatus(c, want);
    // The judge who never voted stays in the index: bound to the case until its outcome is final.
    await ci.check();

    const appealed = await kit.appeal(A, p);
    want = {
      ...want,
      state: kit.State.Appealed,
      round: 2,
      appealUsed: true,
      mayAppeal: kit.ZERO,
      deliberationDeadline: (await timeOf(c, appealed)) + c.params.deliberationPeriod,
      drawPoolBlock: appealed.blockNumber,
      drawStatus: Draw.Pending,
      judges: [],
      votes: [],
    };
    await expectStatus(c, want, appealed.blockNumber);
    await kit.mineBlocks(c, 1);
    await expectStatus(c, { ...want, drawStatus: Draw.Ready });
    await ci.check();

    const panel2 = Array.from({ length: 10 }, (_, i) => judge(c, i))
      .filter((j) => !panel1.includes(j.address))
      .slice(0, 5);
    const seated = await kit.seat(c, A, panel2);
    want = {
      ...want,
      ...(await seatedStatus(
        c,
        seated,
        panel2.map((j) => j.address),
      )),
    };
    await expectStatus(c, want);
    ci.add(
      A,
      panel2.map((j) => j.address),
    );
    await ci.check();

    for (const j of panel2.slice(0, 2)) await kit.vote(A, j, true);
    await kit.vote(A, panel2[4] as Actor, false);
    want = { ...want, votes: [kit.Cast.Plaintiff, kit.Cast.Plaintiff, 0, 0, kit.Cast.Defendant] };
    await expectStatus(c, want);
    // The final verdict on appeal settles the case: it leaves every participant's index.
    await kit.vote(A, panel2[3] as Actor, true);
    want = { ...want, state: kit.State.Resolved, settled: true, votes: [1, 1, 0, 1, 2] };
    await expectStatus(c, want);
    ci.close(A);
    await ci.check();
  });

  it("defaulted, dismissed and settled cases leave the index; the others stay", async () => {
    const [p1, p2, p3, p4] = [1, 2, 3, 4].map((i) => party(c, i)) as [Actor, Actor, Actor, Actor];
    const summons = await kit.fileCase(c, p3, p4.address);
    const B = summons.caseAddr;
    ci.add(B, [p3.address, p4.address]);

    const C = (await kit.fileCase(c, p1, p3.address)).caseAddr;
    await kit.respond(C, p3);
    const cPanel = [judge(c, 0), judge(c, 1), judge(c, 2)];
    await kit.seat(c, C, cPanel);
    await kit.vote(C, judge(c, 1), true);
    ci.add(C, [p1.address, p3.address, ...cPanel.map((j) => j.address)]);

    const D = (await kit.fileCase(c, p2, p4.address)).caseAddr;
    await kit.respond(D, p4);
    const dPanel = [judge(c, 3), judge(c, 4), judge(c, 5)];
    await kit.seat(c, D, dPanel);
    await kit.vote(D, judge(c, 3), true);
    const decided = await kit.vote(D, judge(c, 5), true);
    ci.add(D, [p2.address, p4.address, ...dPanel.map((j) => j.address)]);
    const dAppealDeadline = (await timeOf(c, decided)) + c.params.appealWindow;

    await ci.check();

    await kit.advance(c, c.params.deliberationPeriod + 1n);
    // The appeal window closed but nobody settled yet: the loser still shows as the one who may
    // appeal; whether it still can is the reader's to judge against appealDeadline and chainTime.
    const dBefore = await readStatus(c, D);
    expect([dBefore.state, dBefore.mayAppeal, dBefore.appealDeadline, dBefore.settled]).toEqual([
      kit.State.Resolved,
      p4.address,
      dAppealDeadline,
      false,
    ]);

    await kit.triggerDefault(B, party(c, 6));
    await expectStatus(c, {
      ...fresh(c, B, p3, p4, (await timeOf(c, summons.receipt)) + c.params.responseWindow),
      state: kit.State.Defaulted,
      settled: true,
    });
    ci.close(B);
    await ci.check();

    await kit.resolveAfterDeadline(C, party(c, 6));
    const cStatus = await readStatus(c, C);
    expect([cStatus.state, cStatus.settled, cStatus.drawStatus, cStatus.votes]).toEqual([
      kit.State.Dismissed,
      true,
      Draw.None,
      [kit.Cast.None, kit.Cast.Plaintiff, kit.Cast.None],
    ]);
    ci.close(C);
    await ci.check();

    await kit.settle(D, party(c, 6));
    const dStatus = await readStatus(c, D);
    expect([dStatus.state, dStatus.settled, dStatus.mayAppeal, dStatus.appealUsed]).toEqual([
      kit.State.Resolved,
      true,
      kit.ZERO,
      false,
    ]);
    ci.close(D);
    await ci.check();
  });

  it("hidden votes: the commit phase, the reveal phase and the verdict", async () => {
    const p = party(h, 1);
    const d = party(h, 2);
    const filed = await kit.fileCase(h, p, d.address);
    const E = filed.caseAddr;
    let want = fresh(h, E, p, d, (await timeOf(h, filed.receipt)) + h.params.responseWindow);
    expect(want.hiddenVotes).toBe(true);
    await expectStatus(h, want);
    const answered = await kit.respond(E, d);
    want = { ...want, ...(await answeredStatus(h, answered)) };
    await expectStatus(h, want, answered.blockNumber);
    hi.add(E, [p.address, d.address]);
    await hi.check();

    const panel = [judge(h, 0), judge(h, 1), judge(h, 2)];
    const seated = await kit.seat(h, E, panel);
    const t = await timeOf(h, seated);
    const commitDeadline = t + h.params.commitPeriod;
    const revealDeadline = commitDeadline + h.params.revealPeriod;
    want = {
      ...want,
      state: kit.State.Deliberating,
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
    await kit.commitVote(E, panel[1] as Actor, true);
    want = { ...want, votesCommitted: 1n, votes: [0, kit.Cast.Committed, 0] };
    await expectStatus(h, want);
    await kit.commitVote(E, panel[0] as Actor, false);
    await kit.commitVote(E, panel[2] as Actor, false);
    want = { ...want, votesCommitted: 3n, votes: [kit.Cast.Committed, kit.Cast.Committed, kit.Cast.Committed] };
    await expectStatus(h, want);

    // Reveal phase (open early: every judge committed).
    await kit.revealVote(E, panel[1] as Actor, true);
    await d.write({ address: E, abi: kit.disputeCaseAbi, functionName: "submitEvidence", args: ["bafy-e"] });
    want = { ...want, evidenceCount: 1n, votes: [kit.Cast.Committed, kit.Cast.Plaintiff, kit.Cast.Committed] };
    await expectStatus(h, want);
    await kit.revealVote(E, panel[0] as Actor, false);
    const decided = await kit.revealVote(E, panel[2] as Actor, false);
    want = {
      ...want,
      ...(await decidedStatus(h, decided, p, [kit.Cast.Defendant, kit.Cast.Plaintiff, kit.Cast.Defendant])),
    };
    await expectStatus(h, want);
    await hi.check();
  });

  it("pages: offset and limit edges, a huge limit, pages that add up to the whole", async () => {
    // Account 6 files five cases on the public court, against accounts 1..5.
    const p = party(c, 6);
    for (let i = 1; i <= 5; i++) {
      const d = party(c, i);
      ci.add((await kit.fileCase(c, p, d.address)).caseAddr, [p.address, d.address]);
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
    const stranger = kit.actor(c, 19).address;
    expect(await involvedPage(c, stranger, 0n, maxUint256)).toEqual([0n, expect.any(BigInt), []]);
    expect(await count(c, stranger)).toBe(0n);

    // A case that closes is swapped out: the others stay, in a changed order.
    const first = addrs[0] as Address;
    await kit.advance(c, c.params.responseWindow + 1n);
    await kit.triggerDefault(first, p);
    ci.close(first);
    const [left, , rest] = await involvedPage(c, who, 0n, 100n);
    expect(left).toBe(4n);
    expect(rest.map((s) => s.addr)).toEqual([addrs[4], ...addrs.slice(1, 4)]);
    await ci.check();
  });
});

// ---------------------------------------------------------------- reading

function readStatus(k: kit.CourtDeployment, addr: Address, blockNumber?: bigint) {
  return k.reader.readContract({
    address: addr,
    abi: kit.disputeCaseAbi,
    functionName: "getStatus",
    ...(blockNumber === undefined ? {} : { blockNumber }),
  });
}

function involvedPage(k: kit.CourtDeployment, who: Address, offset: bigint, limit: bigint, blockNumber?: bigint) {
  return k.reader.readContract({
    address: k.factory,
    abi: kit.caseFactoryAbi,
    functionName: "getInvolvedCases",
    args: [who, offset, limit],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  });
}

function statusPage(k: kit.CourtDeployment, offset: bigint, limit: bigint, blockNumber?: bigint) {
  return k.reader.readContract({
    address: k.factory,
    abi: kit.caseFactoryAbi,
    functionName: "getCaseStatuses",
    args: [offset, limit],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  });
}

function count(k: kit.CourtDeployment, who: Address, blockNumber?: bigint) {
  return k.reader.readContract({
    address: k.factory,
    abi: kit.caseFactoryAbi,
    functionName: "involvedCount",
    args: [who],
    ...(blockNumber === undefined ? {} : { blockNumber }),
  });
}

/** The status of a case just filed; each step spreads its changes over the last expectation. */
function fresh(k: kit.CourtDeployment, addr: Address, p: Actor, d: Actor, responseDeadline: bigint): Status {
  return {
    addr,
    state: kit.State.Summoned,
    plaintiff: p.address,
    defendant: d.address,
    round: 1,
    hiddenVotes: k.params.hiddenVotes,
    settled: false,
    appealUsed: false,
    mayAppeal: kit.ZERO,
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
async function expectStatus(k: kit.CourtDeployment, want: Status, blockNumber?: bigint): Promise<void> {
  expect(await readStatus(k, want.addr, blockNumber)).toEqual(want);
}

/** What the status says once the defendant's answer (`answered`) arms the draw. */
async function answeredStatus(k: kit.CourtDeployment, answered: TransactionReceipt): Promise<Partial<Status>> {
  return {
    state: kit.State.Active,
    deliberationDeadline: (await timeOf(k, answered)) + k.params.deliberationPeriod,
    drawPoolBlock: answered.blockNumber,
    drawStatus: Draw.Pending,
  };
}

/** What the status says once a public-vote panel (`judges`) is seated by `seated`: nobody has voted. */
async function seatedStatus(
  k: kit.CourtDeployment,
  seated: TransactionReceipt,
  judges: readonly Address[],
): Promise<Partial<Status>> {
  return {
    state: kit.State.Deliberating,
    deliberationDeadline: (await timeOf(k, seated)) + k.params.deliberationPeriod,
    drawStatus: Draw.None,
    judges,
    votes: judges.map(() => kit.Cast.None),
  };
}

/** What the status says once the deciding vote (`decided`) resolves the round, `loser` may appeal. */
async function decidedStatus(
  k: kit.CourtDeployment,
  decided: TransactionReceipt,
  loser: Actor,
  votes: number[],
): Promise<Partial<Status>> {
  return {
    state: kit.State.Resolved,
    mayAppeal: loser.address,
    appealDeadline: (await timeOf(k, decided)) + k.params.appealWindow,
    votes,
  };
}

async function timeOf(k: kit.CourtDeployment, r: TransactionReceipt): Promise<bigint> {
  return (await k.reader.getBlock({ blockNumber: r.blockNumber })).timestamp;
}

function byAddress(k: kit.CourtDeployment, a: Address): Actor {
  const found = k.actors.find((x) => x.address === a);
  if (!found) throw new Error(`no dev account ${a}`);
  return found;
}

function sorted(xs: readonly Address[]): Address[] {
  return [...xs].sort();
}
