import { type Address, decodeFunctionResult, encodeFunctionData, maxUint256 } from "viem";
import { describe, expect, it } from "vitest";
import { caseTerms, DEV_TOKEN_FILING_FEE } from "../../src/deploy/terms.js";
import * as kit from "./helpers.js";
import { buildWorld, type World, type WorldCase } from "./world.js";

let c: kit.CourtDeployment;
let w: World;
let cases: WorldCase[];
const party = (i: number) => w.party(i);
const judge = (i: number) => w.judge(i);

kit.courtOfFile(async (court) => {
  c = court;
  w = await buildWorld(c);
  cases = w.cases;
});

describe("case views", () => {
  it("leaves one case in each state", () => {
    expect(cases.map((x) => x.label)).toEqual([
      "defaulted",
      "dismissed",
      "settled",
      "appeal-decided",
      "appealed",
      "resolved",
      "deliberating",
      "active",
      "summoned",
    ]);
  });

  it("factory.getCase equals case.getCase and every individual getter, in every state", async () => {
    const blockNumber = await c.reader.getBlockNumber();
    const { timestamp } = await c.reader.getBlock({ blockNumber });
    for (const { addr, state } of cases) {
      const read = (fn: GetterName) => readGetter(addr, fn, blockNumber);
      const [exists, view] = await kit.readView(c, c.factory, kit.caseFactoryAbi, "getCase", [addr], blockNumber);
      const own = await kit.readView(c, addr, kit.disputeCaseAbi, "getCase", [], blockNumber);
      expect(exists).toBe(true);
      expect(view).toEqual(own);
      expect(view.state).toBe(state);
      expect(view.addr).toBe(addr);
      expect(view.chainTime).toBe(timestamp);

      const round = await kit.readView(c, addr, kit.disputeCaseAbi, "round", [], blockNumber);
      const [panel, cast] = await kit.readView(c, addr, kit.disputeCaseAbi, "getPanel", [round], blockNumber);
      const evidence = await kit.readView(c, addr, kit.disputeCaseAbi, "getEvidence", [], blockNumber);
      const terms = await kit.readView(c, addr, kit.disputeCaseAbi, "terms", [], blockNumber);
      expect(view).toEqual({
        addr,
        state: await read("state"),
        plaintiff: await read("plaintiff"),
        defendant: await read("defendant"),
        claimDescription: await read("claimDescription"),
        plaintiffStake: await read("plaintiffStake"),
        defendantStake: await read("defendantStake"),
        evidenceIpfsHash: await read("evidenceIpfsHash"),
        judges: panel,
        votesForPlaintiff: BigInt(cast.filter((x) => x === kit.Cast.Plaintiff).length),
        votesForDefendant: BigInt(cast.filter((x) => x === kit.Cast.Defendant).length),
        filedAt: await read("filedAt"),
        resolvedAt: await read("resolvedAt"),
        outcome: await read("outcome"),
        verdictReason: await read("verdictReason"),
        appealWindowOpen: await read("appealWindowOpen"),
        appealUsed: await read("appealUsed"),
        responseDeadline: await read("responseDeadline"),
        deliberationDeadline: await read("deliberationDeadline"),
        appealDeadline: await read("appealDeadline"),
        round,
        settled: await read("settled"),
        appellant: await read("appellant"),
        appealBond: terms[6],
        evidenceCount: BigInt(evidence.length),
        chainTime: timestamp,
        hiddenVotes: terms[7],
        // Public votes: nothing is ever committed, and the commit-reveal deadlines stay unset.
        votesCommitted: 0n,
        commitDeadline: await read("commitDeadline"),
        revealDeadline: await read("revealDeadline"),
        drawTicket: await read("drawTicket"),
        drawPoolBlock: await read("drawPoolBlock"),
        votes: panel.map((judge, n) => ({ judge, vote: cast[n], justification: "" })),
        courtId: await read("courtId"),
        appealCourtId: await read("appealCourtId"),
      });
      expect([view.courtId, view.appealCourtId]).toEqual([1n, 1n]);
      expect([view.hiddenVotes, view.commitDeadline, view.revealDeadline]).toEqual([false, 0n, 0n]);
      // Armed exactly when the case was answered (and again on appeal): BlockhashEntropy's ticket
      // is the arming block, which is also the block whose pool the draw reads.
      expect(view.drawTicket).toBe(BigInt(view.drawPoolBlock));
      expect(view.drawPoolBlock === 0n).toBe(state === kit.State.Summoned || state === kit.State.Defaulted);
      for (const j of panel) {
        expect(await kit.readView(c, addr, kit.disputeCaseAbi, "isJudge", [j], blockNumber)).toBe(true);
      }
      expect(await read("factory")).toBe(c.factory);
      expect(await read("registry")).toBe(c.registry);
      expect(await read("entropy")).toBe(c.entropy);

      const summary = await kit.readView(c, addr, kit.disputeCaseAbi, "getSummary", [], blockNumber);
      expect(summary).toEqual({
        addr,
        state: view.state,
        plaintiff: view.plaintiff,
        defendant: view.defendant,
        judges: view.judges,
        votesForPlaintiff: view.votesForPlaintiff,
        votesForDefendant: view.votesForDefendant,
        filedAt: view.filedAt,
        responseDeadline: view.responseDeadline,
        deliberationDeadline: view.deliberationDeadline,
        round: view.round,
        courtId: view.courtId,
      });
    }
  });

  it("spot-checks the views of the appealed and the appeal-decided cases", async () => {
    const appealed = w.byLabel("appealed");
    const v = await kit.readCase(c, appealed);
    expect([v.round, v.appealUsed, v.appellant, v.outcome, v.judges.length]).toEqual([2, true, party(3).address, 0, 0]);
    const [round1, cast1] = await c.reader.readContract({
      address: appealed,
      abi: kit.disputeCaseAbi,
      functionName: "getPanel",
      args: [1],
    });
    expect(round1).toEqual([judge(6), judge(7), judge(8)].map((j) => j.address));
    expect(cast1).toEqual([kit.Cast.Defendant, kit.Cast.None, kit.Cast.Defendant]);
    const decided = await kit.readCase(c, w.byLabel("appeal-decided"));
    expect([decided.round, decided.votesForPlaintiff, decided.votesForDefendant, decided.settled]).toEqual([
      2,
      3n,
      0n,
      true,
    ]);
  });

  it("getCase of an address that is not a case says so, with an empty view", async () => {
    const impl = await kit.readView(c, c.factory, kit.caseFactoryAbi, "implementation", []);
    for (const addr of [party(1).address, c.registry, c.factory, impl, kit.ZERO]) {
      const [exists, view] = await kit.readView(c, c.factory, kit.caseFactoryAbi, "getCase", [addr]);
      expect(exists).toBe(false);
      expect(view.addr).toBe(kit.ZERO);
      expect(view.plaintiff).toBe(kit.ZERO);
      expect(view.judges).toEqual([]);
      expect(view.claimDescription).toBe("");
      expect(view.state).toBe(kit.State.Filed);
      expect(
        await c.reader.readContract({
          address: c.factory,
          abi: kit.caseFactoryAbi,
          functionName: "isCase",
          args: [addr],
        }),
      ).toBe(false);
    }
  });

  it("getCases pages in filing order, out-of-range pages are empty", async () => {
    const all = cases.map((x) => x.addr);
    const page = (offset: bigint, limit: bigint) =>
      kit.readView(c, c.factory, kit.caseFactoryAbi, "getCases", [offset, limit]);
    const n = BigInt(all.length);
    expect(
      await c.reader.readContract({ address: c.factory, abi: kit.caseFactoryAbi, functionName: "caseCount" }),
    ).toBe(n);
    expect(await page(0n, 100n)).toEqual([n, all]);
    const [, a] = await page(0n, 4n);
    const [, b] = await page(4n, 4n);
    const [, rest] = await page(8n, 4n);
    expect([...a, ...b, ...rest]).toEqual(all);
    expect(rest).toHaveLength(all.length - 8);
    expect(await page(n, 5n)).toEqual([n, []]);
    expect(await page(n + 10n, 5n)).toEqual([n, []]);
    expect(await page(2n, 0n)).toEqual([n, []]);
    expect(await page(n - 1n, 10n)).toEqual([n, all.slice(-1)]);
    // A caller asking for "everything" must not overflow.
    expect(await page(1n, maxUint256)).toEqual([n, all.slice(1)]);
    expect(await page(maxUint256, 1n)).toEqual([n, []]);
  });

  it("getOpenCases lists exactly the cases that can still change, and filters by state", async () => {
    const expected = await w.expectedOpen();
    const list = (filter: boolean, state: number) =>
      c.reader
        .readContract({
          address: c.factory,
          abi: kit.caseFactoryAbi,
          functionName: "getOpenCases",
          args: [filter, state, 0n, maxUint256],
        })
        .then(([total, page]) => {
          expect(total).toBe(BigInt(expected.length));
          return page;
        });
    const open = await list(false, 0);
    expect(open.map((s) => s.addr).sort()).toEqual([...expected].sort());
    for (const s of open) {
      const own = await c.reader.readContract({ address: s.addr, abi: kit.disputeCaseAbi, functionName: "getSummary" });
      expect(s).toEqual(own);
    }
    for (const state of Object.values(kit.State)) {
      const filtered = await list(true, state);
      const want = [];
      for (const addr of expected) if ((await kit.readCase(c, addr)).state === state) want.push(addr);
      expect(filtered.map((s) => s.addr).sort()).toEqual(want.sort());
    }
    expect((await list(true, kit.State.Resolved)).map((s) => s.addr)).toEqual([w.byLabel("resolved")]);
    expect(await list(true, kit.State.Defaulted)).toEqual([]);
  });

  it("getDeliberatingCases pages exactly the cases whose judges are voting, as getOpenCases filtered", async () => {
    const index = (offset: bigint, limit: bigint) =>
      kit.readView(c, c.factory, kit.caseFactoryAbi, "getDeliberatingCases", [offset, limit]);
    const [, filtered] = await kit.readView(c, c.factory, kit.caseFactoryAbi, "getOpenCases", [
      true,
      kit.State.Deliberating,
      0n,
      maxUint256,
    ]);
    const [total, all] = await index(0n, 100n);
    expect(total).toBe(BigInt(filtered.length));
    expect(total).toBeGreaterThan(0n);
    expect([...all].sort((a, b) => a.addr.localeCompare(b.addr))).toEqual(
      [...filtered].sort((a, b) => a.addr.localeCompare(b.addr)),
    );
    expect(await index(total, 10n)).toEqual([total, []]);
    expect(await index(0n, maxUint256)).toEqual([total, all]);
    const [, one] = await index(0n, 1n);
    expect(one).toEqual([all[0]]);
  });

  it("getStats counts cases by state and the open ones", async () => {
    const stats = await kit.readStats(c);
    const byState = Array.from({ length: 8 }, () => 0n);
    for (const x of cases) byState[x.state] = (byState[x.state] ?? 0n) + 1n;
    expect(byState).toEqual([0n, 1n, 1n, 1n, 3n, 1n, 1n, 1n]);
    expect(stats.byState).toEqual(byState);
    expect(stats.totalCases).toBe(BigInt(cases.length));
    expect(stats.openCases).toBe(BigInt((await w.expectedOpen()).length));
    expect(stats.openCases).toBe(5n);
  });

  it("getStats and getOpenCases follow further transitions", async () => {
    const before = await kit.readStats(c);
    const active = w.byLabel("active");
    const resolved = w.byLabel("resolved");
    await kit.seat(c, active, [judge(2), judge(3), judge(8)]);
    w.leave(active, kit.State.Deliberating);
    await kit.advance(c, kit.P.appealWindow + 1n);
    await kit.settle(resolved, party(6));
    const after = await kit.readStats(c);
    const delta = after.byState.map((n, i) => n - (before.byState[i] ?? 0n));
    expect(delta).toEqual([0n, 0n, -1n, 1n, 0n, 0n, 0n, 0n]);
    expect(after.openCases).toBe(before.openCases - 1n);
    expect(after.totalCases).toBe(before.totalCases);
    const [, open] = await kit.readView(c, c.factory, kit.caseFactoryAbi, "getOpenCases", [false, 0, 0n, maxUint256]);
    expect(open.map((s) => s.addr)).not.toContain(resolved);
    expect(open.map((s) => s.addr)).toContain(active);
    // The case whose judges were just seated joined the Deliberating index.
    const [, voting] = await kit.readView(c, c.factory, kit.caseFactoryAbi, "getDeliberatingCases", [0n, 100n]);
    expect(voting.map((s) => s.addr)).toContain(active);
  });

  it("getParams reports the deployment's terms, as each case copied them", async () => {
    const params = await c.reader.readContract({
      address: c.factory,
      abi: kit.caseFactoryAbi,
      functionName: "getParams",
    });
    expect(params).toEqual({
      owner: c.owner.address,
      registry: c.registry,
      implementation: await kit.readView(c, c.factory, kit.caseFactoryAbi, "implementation", []),
      entropy: c.entropy,
      feeRecipient: c.owner.address,
      filingFee: kit.P.filingFee,
      minJudgeStake: kit.P.minJudgeStake,
      terms: caseTerms(kit.P),
      // The dev chain also takes the fee in its test token (x402 "exact", EIP-3009).
      feeToken: c.feeToken,
      tokenFilingFee: DEV_TOKEN_FILING_FEE,
    });
    const terms = await c.reader.readContract({
      address: cases[0]?.addr as Address,
      abi: kit.disputeCaseAbi,
      functionName: "terms",
    });
    expect(terms).toEqual([
      kit.P.responseWindow,
      kit.P.deliberationPeriod,
      kit.P.appealWindow,
      kit.P.courtFeeBps,
      kit.P.judgeRewardBps,
      kit.P.minPartyStake,
      kit.P.appealBond,
      kit.P.hiddenVotes,
      kit.P.commitPeriod,
      kit.P.revealPeriod,
      kit.P.panelSize,
      kit.P.appealPanelSize,
    ]);
  });

  it("getOpenCases reads a page, not the open set: a page stays under a call gas cap the whole set passes", async () => {
    const snap = await kit.snapshot(c);
    const cap = 1_500_000n;
    const data = (filter: boolean, offset: bigint, limit: bigint) =>
      encodeFunctionData({
        abi: kit.caseFactoryAbi,
        functionName: "getOpenCases",
        args: [filter, kit.State.Summoned, offset, limit],
      });
    const read = async (filter: boolean, offset: bigint, limit: bigint) => {
      const res = await c.reader.call({ to: c.factory, gas: cap, data: data(filter, offset, limit) });
      return decodeFunctionResult({ abi: kit.caseFactoryAbi, functionName: "getOpenCases", data: res.data ?? "0x" });
    };
    const pageGas = (offset: bigint, limit: bigint) =>
      c.reader.estimateGas({ to: c.factory, data: data(false, offset, limit) });
    try {
      const before = await w.expectedOpen();
      const first = BigInt(before.length);
      const filed: Address[] = [];
      const file = async (n: number) => {
        for (let i = 0; i < n; i++) {
          const plaintiff = party(filed.length % 4);
          filed.push((await kit.fileCase(c, plaintiff, party(4 + (filed.length % 3)).address)).caseAddr);
        }
      };
      await file(20);
      // A page of 5 new cases, and the whole set, with 25 open cases.
      const small = await pageGas(first, 5n);
      const wholeSmall = await pageGas(0n, maxUint256);
      await file(60);
      const { openCases } = await kit.readStats(c);
      expect(openCases).toBeGreaterThan(80n);
      // The whole open set in one call runs out of gas under the cap (it passes with the node's
      // default gas, so the cap is what fails it); every page of 20 fits.
      await expect(read(false, 0n, maxUint256)).rejects.toThrow(/reverted|OutOfGas/);
      await expect(read(true, 0n, maxUint256)).rejects.toThrow(/reverted|OutOfGas/);
      expect(await pageGas(0n, maxUint256)).toBeGreaterThan(cap);
      const seen: Address[] = [];
      for (let offset = 0n; offset < openCases; offset += 20n) {
        const [total, page] = await read(false, offset, 20n);
        expect(total).toBe(openCases);
        expect(page.length).toBe(Number(openCases - offset < 20n ? openCases - offset : 20n));
        seen.push(...page.map((x) => x.addr));
        const [, summoned] = await read(true, offset, 20n);
        expect(summoned.every((x) => x.state === kit.State.Summoned)).toBe(true);
      }
      expect(seen.sort()).toEqual([...before, ...filed].sort());
      // With 85 open cases the same page costs the same (within 1%), and so does the last page of
      // 5, while the whole set's read has grown more than threefold.
      const near = (g: bigint) => expect(Math.abs(Number(g - small))).toBeLessThanOrEqual(Number(small) / 100);
      near(await pageGas(first, 5n));
      near(await pageGas(openCases - 5n, 5n));
      expect(await pageGas(0n, maxUint256)).toBeGreaterThan(3n * wholeSmall);
    } finally {
      await snap.revert();
    }
  });
});

/** One public getter of a case, read at a given block. */
function readGetter(address: Address, functionName: GetterName, blockNumber: bigint): Promise<unknown> {
  // biome-ignore lint/suspicious/noExplicitAny: one call for many getters of different return types
  return c.reader.readContract({ address, abi: kit.disputeCaseAbi, functionName, blockNumber } as any);
}

type GetterName =
  | "state"
  | "outcome"
  | "plaintiff"
  | "defendant"
  | "claimDescription"
  | "evidenceIpfsHash"
  | "plaintiffStake"
  | "defendantStake"
  | "filedAt"
  | "resolvedAt"
  | "responseDeadline"
  | "deliberationDeadline"
  | "appealDeadline"
  | "appealUsed"
  | "settled"
  | "appellant"
  | "verdictReason"
  | "appealWindowOpen"
  | "factory"
  | "registry"
  | "entropy"
  | "commitDeadline"
  | "revealDeadline"
  | "drawTicket"
  | "drawPoolBlock"
  | "courtId"
  | "appealCourtId";
