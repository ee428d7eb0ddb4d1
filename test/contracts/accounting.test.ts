import { type Address, parseEther, parseEventLogs, type TransactionReceipt } from "viem";
import { describe, expect, it } from "vitest";
import type { Actor } from "../../src/devnet/actor.js";
import * as kit from "./helpers.js";
import { Ledger } from "./ledger.js";

let c: kit.CourtDeployment;
let judges: Actor[];
const j = (i: number) => judges[i] as Actor;

const { party } = kit.courtOfFile(async (court) => {
  c = court;
  judges = c.actors.slice(7, 20);
  // Odd, distinct stakes so every slash is a floor division with a remainder.
  await Promise.all(
    judges.map((x, i) =>
      x.write({
        address: c.registry,
        abi: kit.courtRegistryAbi,
        functionName: "stakeAsJudge",
        args: [0n],
        value: parseEther("1") + 1_234_567n * BigInt(i + 1),
      }),
    ),
  );
});

const feeOf = (pot: bigint) => (pot * BigInt(kit.P.courtFeeBps)) / kit.BPS;
const rewardPoolOf = (pot: bigint) => (feeOf(pot) * BigInt(kit.P.judgeRewardBps)) / kit.BPS;
const slashOf = (stake: bigint) => kit.slashOf(stake, kit.P);

interface Round1 {
  caseAddr: Address;
  ledger: Ledger;
}

/** Files, answers and seats a round-1 panel, every transaction on the ledger. */
async function openCase(
  plaintiff: Actor,
  defendant: Actor,
  panel: Actor[],
  pStake: bigint,
  dStake: bigint,
  watch: Actor[] = [],
): Promise<Round1> {
  const ledger = await Ledger.open(c, [plaintiff, defendant, ...panel, ...watch]);
  // The filing fee leaves the plaintiff's wallet for the fee recipient (the owner), not the pot.
  const ref = kit.freshRef();
  await ledger.tx(plaintiff, kit.payFee(c, plaintiff, ref));
  const filed = await ledger.tx(
    plaintiff,
    plaintiff.write({
      address: c.factory,
      abi: kit.caseFactoryAbi,
      functionName: "fileCase",
      args: [0n, defendant.address, "Unpaid invoice", "bafkreiinvoice", ref],
      value: pStake,
    }),
  );
  const [ev] = parseEventLogs({
    abi: kit.caseFactoryAbi,
    eventName: "CaseFiled",
    logs: filed.logs,
  });
  const caseAddr = ev?.args.caseAddr as Address;
  expect(await kit.balance(c, caseAddr)).toBe(pStake);
  await ledger.tx(
    defendant,
    defendant.write({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "respond", value: dStake }),
  );
  expect(await kit.balance(c, caseAddr)).toBe(pStake + dStake);
  await kit.seat(c, caseAddr, panel);
  return { caseAddr, ledger };
}

function appealAs(l: Ledger, caseAddr: Address, who: Actor) {
  return l.tx(
    who,
    who.write({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "appeal", value: kit.P.appealBond }),
  );
}

/** The case is empty, the treasury and the registry moved by what is expected, and the registry's books balance. */
async function expectBooks(l: Ledger, caseAddr: Address, delta: { treasury: bigint; registry: bigint }) {
  expect(await l.treasuryDelta()).toBe(delta.treasury);
  expect(await l.registryDelta()).toBe(delta.registry);
  expect(await kit.balance(c, caseAddr)).toBe(0n);
  await kit.expectRegistryBalanced(c);
}

function castVote(l: Ledger, caseAddr: Address, judge: Actor, plaintiffWins: boolean) {
  return l.tx(
    judge,
    judge.write({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "vote", args: [plaintiffWins] }),
  );
}

/** `judges` vote in order, each for the plaintiff or not as `plaintiffWins` says, each through the ledger. */
async function castVotes(l: Ledger, caseAddr: Address, judges: Actor[], plaintiffWins: boolean[]) {
  for (const [i, judge] of judges.entries()) await castVote(l, caseAddr, judge, plaintiffWins[i] as boolean);
}

describe("stake accounting", () => {
  it("round-one verdict, settled: pot less fee to the winner, reward split, minority slashed, rest to treasury", async () => {
    const pStake = 12_345_678_901_234_567n;
    const dStake = 10_000_000_000_000_014n;
    const [p, d] = [party(1), party(2)];
    const { caseAddr, ledger } = await openCase(p, d, [j(0), j(1), j(2)], pStake, dStake);
    await castVotes(ledger, caseAddr, [j(0), j(1), j(2)], [true, false, true]);
    // Nobody is scored at a verdict that can still be appealed: the minority is slashed at settle,
    // when the outcome is final. The money stays in the case until then.
    const minoritySlash = slashOf(ledger.stakeBefore(j(1)));
    expect(await ledger.stake(j(1))).toBe(0n);
    expect(await ledger.treasuryDelta()).toBe(0n);
    expect(await kit.balance(c, caseAddr)).toBe(pStake + dStake);

    await kit.advance(c, kit.P.appealWindow + 1n);
    const r = await settle(ledger, caseAddr, c.owner);

    // The same figures worked out by hand, so the formulas below are not just the contract's.
    const pot = pStake + dStake;
    expect(feeOf(pot)).toBe(1_117_283_945_061_729n);
    expect(rewardPoolOf(pot)).toBe(670_370_367_037_037n);
    const fee = 1_117_283_945_061_729n;
    const each = 335_185_183_518_518n; // floor(670_370_367_037_037 / 2)
    const payout = 21_228_394_956_172_852n;
    expect(pot - fee).toBe(payout);

    const [ev] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Settled", logs: r.logs });
    expect(ev?.args).toEqual({ winner: p.address, payout, courtFee: fee, judgeRewards: 2n * each });
    expect(await ledger.wallet(p)).toBe(payout - pStake - kit.P.filingFee);
    expect(await ledger.wallet(d)).toBe(-dStake);
    expect(await ledger.stake(j(0))).toBe(each);
    expect(await ledger.stake(j(2))).toBe(each);
    expect(await ledger.stake(j(1))).toBe(-minoritySlash);
    for (const judge of [j(0), j(1), j(2)]) expect(await ledger.wallet(judge)).toBe(0n);
    expect(await ledger.treasuryDelta()).toBe(fee - 2n * each + minoritySlash);
    expect(await ledger.registryDelta()).toBe(fee);
    expect(await kit.balance(c, caseAddr)).toBe(0n);
    const j0 = await kit.readJudge(c, j(0).address);
    expect(j0.rewards).toBe(each);
    expect((await kit.readJudge(c, j(1).address)).slashed).toBe(minoritySlash);
    await kit.expectRegistryBalanced(c);
  });

  it("defendant verdict, settled: the judge who had not voted is neither paid nor slashed", async () => {
    const pStake = kit.P.minPartyStake + 999n;
    const dStake = 3n * kit.P.minPartyStake + 1n;
    const [p, d] = [party(3), party(4)];
    const { caseAddr, ledger } = await openCase(p, d, [j(3), j(4), j(5)], pStake, dStake);
    await castVotes(ledger, caseAddr, [j(4), j(5)], [false, false]);
    await kit.advance(c, kit.P.appealWindow + 1n);
    await settle(ledger, caseAddr, p);
    const pot = pStake + dStake;
    const fee = feeOf(pot);
    const each = rewardPoolOf(pot) / 2n;
    expect(await ledger.wallet(d)).toBe(pot - fee - dStake);
    expect(await ledger.wallet(p)).toBe(-pStake - kit.P.filingFee);
    expect(await ledger.stake(j(3))).toBe(0n);
    expect(await ledger.stake(j(4))).toBe(each);
    expect(await ledger.stake(j(5))).toBe(each);
    await expectBooks(ledger, caseAddr, { treasury: fee - 2n * each, registry: fee });
  });

  it("appeal reversed: bond in the pot, three round-two judges share the reward, the deciding vote pays the winner", async () => {
    const pStake = 11_111_111_111_111_111n;
    const dStake = 13_131_313_131_313_131n;
    const [p, d] = [party(5), party(6)];
    const panel2 = [j(3), j(4), j(5), j(6), j(7)];
    const { caseAddr, ledger } = await openCase(p, d, [j(0), j(1), j(2)], pStake, dStake, panel2);
    await castVotes(ledger, caseAddr, [j(0), j(1)], [true, true]);
    await appealAs(ledger, caseAddr, d);
    expect(await kit.balance(c, caseAddr)).toBe(pStake + dStake + kit.P.appealBond);
    await kit.seat(c, caseAddr, panel2);
    await castVotes(ledger, caseAddr, [j(3), j(4), j(5)], [false, true, false]);
    const r = await castVote(ledger, caseAddr, j(6), false);

    const pot = pStake + dStake + kit.P.appealBond;
    const fee = feeOf(pot);
    const pool = rewardPoolOf(pot);
    expect(pool % 3n).not.toBe(0n); // the floor matters here
    const each = pool / 3n;
    const [ev] = parseEventLogs({ abi: kit.disputeCaseAbi, eventName: "Settled", logs: r.logs });
    expect(ev?.args).toEqual({ winner: d.address, payout: pot - fee, courtFee: fee, judgeRewards: 3n * each });
    const minoritySlash = slashOf(ledger.stakeBefore(j(4)));
    // Round one's majority voted against the final outcome: scored against it (the minority of the
    // case), so slashed at the appeal verdict, and not rewarded. Round one's silent judge is unscored.
    const round1Slash = slashOf(ledger.stakeBefore(j(0))) + slashOf(ledger.stakeBefore(j(1)));
    expect(await ledger.wallet(d)).toBe(pot - fee - dStake - kit.P.appealBond);
    expect(await ledger.wallet(p)).toBe(-pStake - kit.P.filingFee);
    for (const judge of [j(0), j(1)]) expect(await ledger.stake(judge)).toBe(-slashOf(ledger.stakeBefore(judge)));
    expect(await ledger.stake(j(2))).toBe(0n);
    for (const judge of [j(3), j(5), j(6)]) expect(await ledger.stake(judge)).toBe(each);
    expect(await ledger.stake(j(4))).toBe(-minoritySlash);
    expect(await ledger.stake(j(7))).toBe(0n);
    await expectBooks(ledger, caseAddr, { treasury: fee - 3n * each + minoritySlash + round1Slash, registry: fee });
  });

  it("appeal upheld: the appellant loses its bond, matching judges of both rounds share the reward", async () => {
    const pStake = 20_000_000_000_000_001n;
    const dStake = 10_000_000_000_000_007n;
    const [p, d] = [party(1), party(3)];
    const panel2 = [j(8), j(9), j(10), j(11), j(12)];
    const { caseAddr, ledger } = await openCase(p, d, [j(0), j(1), j(2)], pStake, dStake, panel2);
    await castVotes(ledger, caseAddr, [j(0), j(1), j(2)], [true, false, true]);
    const round1Slash = slashOf(ledger.stakeBefore(j(1)));
    await appealAs(ledger, caseAddr, d);
    await kit.seat(c, caseAddr, panel2);
    await castVotes(ledger, caseAddr, [j(8), j(9), j(10)], [true, true, true]);
    const pot = pStake + dStake + kit.P.appealBond;
    const fee = feeOf(pot);
    const each = rewardPoolOf(pot) / 5n;
    expect(await ledger.wallet(p)).toBe(pot - fee - pStake - kit.P.filingFee);
    expect(await ledger.wallet(d)).toBe(-dStake - kit.P.appealBond);
    for (const judge of [j(0), j(2), j(8), j(9), j(10)]) expect(await ledger.stake(judge)).toBe(each);
    expect(await ledger.stake(j(1))).toBe(-round1Slash);
    for (const judge of [j(11), j(12)]) expect(await ledger.stake(judge)).toBe(0n);
    await expectBooks(ledger, caseAddr, { treasury: fee - 5n * each + round1Slash, registry: fee });
  });

  it("default: the plaintiff gets its whole stake back and the court takes no fee", async () => {
    const pStake = kit.P.minPartyStake * 7n + 5n;
    const [p, d] = [party(2), party(4)];
    const ledger = await Ledger.open(c, [p, d]);
    const ref = kit.freshRef();
    await ledger.tx(p, kit.payFee(c, p, ref));
    const { caseAddr, receipt } = await kit.fileCase(c, p, d.address, { stake: pStake, paymentRef: ref, pay: false });
    await ledger.tx(p, Promise.resolve(receipt));
    await kit.advance(c, kit.P.responseWindow + 1n);
    await c.owner.write({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "triggerDefault" });
    // The whole stake comes back; the filing fee was the court's to keep.
    expect(await ledger.wallet(p)).toBe(-kit.P.filingFee);
    expect(await ledger.wallet(d)).toBe(0n);
    await expectBooks(ledger, caseAddr, { treasury: 0n, registry: 0n });
  });

  it("dismissal: both stakes refunded in full, the two no-shows slashed into the treasury", async () => {
    const pStake = kit.P.minPartyStake + 17n;
    const dStake = kit.P.minPartyStake * 2n + 3n;
    const [p, d] = [party(5), party(6)];
    const { caseAddr, ledger } = await openCase(p, d, [j(0), j(1), j(2)], pStake, dStake);
    await castVote(ledger, caseAddr, j(1), false);
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await c.owner.write({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "resolveAfterDeadline" });
    const slash0 = slashOf(ledger.stakeBefore(j(0)));
    const slash2 = slashOf(ledger.stakeBefore(j(2)));
    expect(slash0).toBeGreaterThan(0n);
    expect(await ledger.wallet(p)).toBe(-kit.P.filingFee);
    expect(await ledger.wallet(d)).toBe(0n);
    expect(await ledger.stake(j(0))).toBe(-slash0);
    expect(await ledger.stake(j(1))).toBe(0n);
    expect(await ledger.stake(j(2))).toBe(-slash2);
    await expectBooks(ledger, caseAddr, { treasury: slash0 + slash2, registry: 0n });
  });

  it("an appeal without a verdict: the first verdict stands, the bond joins the winner's pot, round-two no-shows slashed", async () => {
    const pStake = kit.P.minPartyStake + 1n;
    const dStake = kit.P.minPartyStake + 2n;
    const [p, d] = [party(1), party(2)];
    const panel2 = [j(8), j(9), j(10), j(11), j(12)];
    const { caseAddr, ledger } = await openCase(p, d, [j(3), j(4), j(5)], pStake, dStake, panel2);
    await castVotes(ledger, caseAddr, [j(3), j(4), j(5)], [false, true, false]);
    await appealAs(ledger, caseAddr, p);
    await kit.seat(c, caseAddr, panel2);
    await castVotes(ledger, caseAddr, [j(8), j(9)], [true, false]);
    await kit.advance(c, kit.P.deliberationPeriod + 1n);
    await c.owner.write({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "resolveAfterDeadline" });
    // The defendant's round-one win is final: it takes the pot, the appellant's bond included.
    const pot = pStake + dStake + kit.P.appealBond;
    const fee = feeOf(pot);
    const each = rewardPoolOf(pot) / 3n;
    expect(await ledger.wallet(p)).toBe(-pStake - kit.P.appealBond - kit.P.filingFee);
    expect(await ledger.wallet(d)).toBe(pot - fee - dStake);
    // Voters for the defendant in either round share the reward; those against it are slashed.
    for (const judge of [j(3), j(5), j(9)]) expect(await ledger.stake(judge)).toBe(each);
    const slashed = [j(4), j(8), j(10), j(11), j(12)];
    for (const judge of slashed) expect(await ledger.stake(judge)).toBe(-slashOf(ledger.stakeBefore(judge)));
    const slashSum = slashed.reduce((sum, x) => sum + slashOf(ledger.stakeBefore(x)), 0n);
    await expectBooks(ledger, caseAddr, { treasury: fee - 3n * each + slashSum, registry: fee });
  });

  it("staking, topping up, unstaking and a treasury withdrawal move exactly the amounts", async () => {
    const judge = party(6);
    const ledger = await Ledger.open(c, [judge, party(5)]);
    const first = parseEther("0.1") + 11n;
    const topUp = 7n;
    const overview0 = await kit.readOverview(c);
    const stake = (value: bigint) =>
      ledger.tx(
        judge,
        judge.write({
          address: c.registry,
          abi: kit.courtRegistryAbi,
          functionName: "stakeAsJudge",
          args: [0n],
          value,
        }),
      );
    await stake(first);
    await stake(topUp);
    expect(await ledger.stake(judge)).toBe(first + topUp);
    expect(await ledger.wallet(judge)).toBe(-(first + topUp));
    expect((await kit.readOverview(c)).totalJudgeStake).toBe(overview0.totalJudgeStake + first + topUp);
    await kit.expectRegistryBalanced(c);
    await ledger.tx(judge, judge.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "unstake" }));
    expect(await ledger.wallet(judge)).toBe(0n);
    expect(await ledger.stake(judge)).toBe(0n);
    expect((await kit.readOverview(c)).totalJudgeStake).toBe(overview0.totalJudgeStake);
    await kit.expectRegistryBalanced(c);

    const treasury = overview0.treasury;
    expect(treasury).toBeGreaterThan(0n);
    const amount = treasury / 3n;
    await c.owner.write({
      address: c.registry,
      abi: kit.courtRegistryAbi,
      functionName: "withdrawTreasury",
      args: [party(5).address, amount],
    });
    expect(await ledger.wallet(party(5))).toBe(amount);
    expect(await ledger.treasuryDelta()).toBe(-amount);
    expect(await ledger.registryDelta()).toBe(-amount);
    await kit.expectRegistryBalanced(c);
  });

  it("a judge cannot leave the pool during the appeal window; after settle it withdraws its stake and reward", async () => {
    const [p, d] = [party(3), party(4)];
    const leaver = j(6);
    const { caseAddr, ledger } = await openCase(p, d, [leaver, j(7), j(8)], kit.P.minPartyStake, kit.P.minPartyStake);
    await castVote(ledger, caseAddr, leaver, true);
    await castVote(ledger, caseAddr, j(7), true);
    const staked = ledger.stakeBefore(leaver);
    // Round one is not final yet: the judge is still bound to the case (it could yet be slashed).
    await kit.expectRevert(
      leaver.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "unstake" }),
      "JudgeServingOnOpenCase",
      [1n],
    );
    await kit.advance(c, kit.P.appealWindow + 1n);
    await settle(ledger, caseAddr, c.owner);
    const each = rewardPoolOf(2n * kit.P.minPartyStake) / 2n;
    const after = await kit.readJudge(c, leaver.address);
    expect([after.stake, after.activeCases, after.eligible]).toEqual([staked + each, 0, true]);
    await kit.expectRegistryBalanced(c);
    await ledger.tx(leaver, leaver.write({ address: c.registry, abi: kit.courtRegistryAbi, functionName: "unstake" }));
    expect(await ledger.wallet(leaver)).toBe(staked + each);
    expect((await kit.readJudge(c, leaver.address)).stake).toBe(0n);
    await kit.expectRegistryBalanced(c);
  });
});

function settle(l: Ledger, caseAddr: Address, by: Actor): Promise<TransactionReceipt> {
  return l.tx(by, by.write({ address: caseAddr, abi: kit.disputeCaseAbi, functionName: "settle" }));
}
