/**
 * Item 9 (run on its own: `npx tsx bench/items/statusGas.ts`): what the inbox and keeper views cost
 * (issue #14), and what keeping their index costs the writes. Gas, not time, so the figures do not
 * depend on the machine.
 *
 * - Views: on a chain of its own, the bench world grows to 1,000 open cases between 7 parties (so
 *   each party takes part in ~285 cases; of every 10 cases 1 Deliberating with a drawn panel, 1
 *   Active); eth_estimateGas of `getCaseStatuses(0,100)` and `getInvolvedCases(who,0,100)` for a
 *   party and for the busiest judge, and whether a plain eth_call of each succeeds.
 * - Writes: on other chains (public votes, then a General court that hides them), a fixed script of
 *   cases: gasUsed of `fileCase`, `respond`, `assignJudges`, `assignJudgesRandom`, `submitEvidence`,
 *   `vote` or `commitVote`/`revealVote`, `appeal` and of every transition that closes a case. Run it
 *   (`--writes-only`) against the contracts of an earlier commit to get the difference.
 */
import {
  type Address,
  encodeFunctionData,
  type Hex,
  keccak256,
  parseEther,
  type TransactionReceipt,
  toHex,
} from "viem";
import { caseFactoryAbi, courtRegistryAbi, disputeCaseAbi } from "../../src/chain/abi/generated.js";
import { voteCommitment } from "../../src/chain/votes.js";
import { devParams, devPublicParams } from "../../src/deploy/terms.js";
import { Actor } from "../../src/devnet/actor.js";
import { startDevnet } from "../../src/devnet/devnet.js";
import { advanceTime } from "../../src/devnet/seed.js";
import { rpc } from "../lib/rpc.js";
import { median } from "../lib/stats.js";
import { agentAddress, World } from "../lib/world.js";

const ALLOWANCE = "0x3b9aca00"; // 1,000,000,000 gas: the figure is known even past the cap

async function viewGas(url: string, to: Address, data: Hex): Promise<{ gas: number; callOk: boolean }> {
  const gas = Number(BigInt(await rpc<Hex>(url, "eth_estimateGas", [{ to, data, gas: ALLOWANCE }])));
  const callOk = await rpc(url, "eth_call", [{ to, data }, "latest"]).then(
    () => true,
    () => false,
  );
  return { gas, callOk };
}

export async function measureViews(openCases = 1000, parties = 7): Promise<Record<string, unknown>> {
  const devnet = await startDevnet({ seed: false, params: devPublicParams });
  try {
    const world = await World.on(devnet);
    await world.grow(openCases, world.agentJudges + parties);
    const f = world.factory;
    const involved = (who: Address) =>
      encodeFunctionData({ abi: caseFactoryAbi, functionName: "getInvolvedCases", args: [who, 0n, 100n] });
    const count = (who: Address) =>
      devnet.reader.readContract({ address: f, abi: caseFactoryAbi, functionName: "involvedCount", args: [who] });
    const party = agentAddress(world.agentJudges);
    const judges = Array.from({ length: world.agentJudges }, (_, i) => agentAddress(i));
    const counts = (await Promise.all(judges.map(count))).map(Number);
    const busiest = counts.indexOf(Math.max(...counts));
    return {
      openCases,
      "getCaseStatuses(0,100)": await viewGas(
        devnet.nodeUrl,
        f,
        encodeFunctionData({ abi: caseFactoryAbi, functionName: "getCaseStatuses", args: [0n, 100n] }),
      ),
      [`getInvolvedCases(party in ${await count(party)},0,100)`]: await viewGas(devnet.nodeUrl, f, involved(party)),
      [`getInvolvedCases(judge in ${counts[busiest]},0,100)`]: await viewGas(
        devnet.nodeUrl,
        f,
        involved(judges[busiest] as Address),
      ),
      "getDeliberatingCases(0,100) (for comparison)": await viewGas(
        devnet.nodeUrl,
        f,
        encodeFunctionData({ abi: caseFactoryAbi, functionName: "getDeliberatingCases", args: [0n, 100n] }),
      ),
    };
  } finally {
    await devnet.stop();
  }
}

/**
 * The gas of each case write, on a fixed script of cases: with public votes (`vote`), or with
 * `hidden` votes (`commitVote`, `revealVote`) in a General court that hides them.
 */
export async function measureWrites(hidden = false): Promise<Record<string, number[]>> {
  const P = hidden ? devParams : devPublicParams;
  const devnet = await startDevnet({ seed: false, params: P });
  const out: Record<string, number[]> = {};
  const note = (what: string, r: TransactionReceipt) => {
    out[what] = [...(out[what] ?? []), Number(r.gasUsed)];
    return r;
  };
  try {
    const a = devnet.accounts.map((x) => new Actor(x.account, devnet.chain, devnet.reader));
    const at = (i: number) => a[i] as Actor;
    const { factory, registry } = devnet.deployment;
    const send = async (
      by: Actor,
      to: Address,
      abi: typeof caseFactoryAbi | typeof disputeCaseAbi | typeof courtRegistryAbi,
      functionName: string,
      args: unknown[] = [],
      value = 0n,
    ) => {
      const req = { address: to, abi, functionName, args, value, account: by.account } as never;
      const gas = await devnet.reader.estimateContractGas(req);
      // biome-ignore lint/suspicious/noExplicitAny: one sender for several ABIs
      return by.mined(await by.wallet.writeContract({ ...(req as any), gas: gas * 2n }));
    };
    const judges = [7, 8, 9, 10, 11, 12, 13, 14].map(at);
    for (const j of judges) await send(j, registry, courtRegistryAbi, "stakeAsJudge", [1n], parseEther("1"));
    let ref = 0;
    const file = async (p: Actor, d: Actor) => {
      ref += 1;
      const paymentRef = `0x${ref.toString(16).padStart(64, "0")}` as Hex;
      await send(p, factory, caseFactoryAbi, "payFilingFee", [paymentRef], P.filingFee);
      note(
        "fileCase",
        await send(
          p,
          factory,
          caseFactoryAbi,
          "fileCase",
          [1n, d.address, "A claim of a usual length for the bench.", "bafkreibench", paymentRef],
          P.minPartyStake,
        ),
      );
      return (
        await devnet.reader.readContract({
          address: factory,
          abi: caseFactoryAbi,
          functionName: "getCases",
          args: [BigInt(ref - 1), 1n],
        })
      )[1][0] as Address;
    };
    const respond = (k: Address, d: Actor) =>
      send(d, k, disputeCaseAbi, "respond", [], P.minPartyStake).then((r) => note("respond", r));
    const salt = keccak256(toHex("bench"));
    /** Casts a vote: public, or the reveal of what `commitAll` committed. */
    const vote = (k: Address, j: Actor, yes: boolean) =>
      hidden ? send(j, k, disputeCaseAbi, "revealVote", [yes, salt, ""]) : send(j, k, disputeCaseAbi, "vote", [yes]);
    const commitAll = async (k: Address, js: Actor[], round: number) => {
      if (!hidden) return;
      for (const j of js) {
        const c = voteCommitment({ caseAddress: k, judge: j.address, round, plaintiffWins: true, salt });
        note("commitVote", await send(j, k, disputeCaseAbi, "commitVote", [c]));
      }
    };
    const kind = hidden ? "revealVote" : "vote";
    const seat = (k: Address, js: Actor[]) =>
      send(at(0), factory, caseFactoryAbi, "assignJudges", [k, js.map((j) => j.address)]).then((r) =>
        note("assignJudges", r),
      );

    const [p, d] = [at(1), at(2)];
    const settleCase = await file(p, d);
    const dismissCase = await file(p, d);
    const appealCase = await file(p, d);
    const drawn = [
      await file(at(3), at(4)),
      await file(at(3), at(4)),
      await file(at(5), at(6)),
      await file(at(5), at(6)),
    ];
    const defaultCase = await file(at(3), at(5));
    for (const k of [settleCase, dismissCase, appealCase]) await respond(k, d);
    for (const k of drawn.slice(0, 2)) await respond(k, at(4));
    for (const k of drawn.slice(2)) await respond(k, at(6));
    await rpc(devnet.nodeUrl, "anvil_mine", ["0x1", "0x1"]);
    for (const k of drawn)
      note("assignJudgesRandom", await send(at(15), factory, caseFactoryAbi, "assignJudgesRandom", [k]));
    await seat(settleCase, judges.slice(0, 3));
    await seat(dismissCase, judges.slice(3, 6));
    await seat(appealCase, judges.slice(0, 3));
    note("submitEvidence", await send(p, settleCase, disputeCaseAbi, "submitEvidence", ["bafkreibenchevidence"]));
    await commitAll(settleCase, judges.slice(0, 3), 1);
    await commitAll(appealCase, judges.slice(0, 3), 1);
    if (hidden) await commitAll(dismissCase, judges.slice(3, 4), 1);
    note(`${kind}, not deciding`, await vote(settleCase, at(7), true));
    if (hidden) note(`${kind}, not deciding`, await vote(settleCase, at(8), true));
    note(`${kind} deciding round 1`, await vote(settleCase, at(hidden ? 9 : 8), true));
    if (!hidden) await vote(dismissCase, at(10), true);
    await vote(appealCase, at(7), true);
    await vote(appealCase, at(8), true);
    if (hidden) await vote(appealCase, at(9), true);
    note("appeal", await send(d, appealCase, disputeCaseAbi, "appeal", [], P.appealBond));
    await seat(appealCase, judges.slice(3, 8));
    await commitAll(appealCase, judges.slice(3, 8), 2);
    for (const j of [10, 11, 12, 13].slice(0, hidden ? 4 : 2)) await vote(appealCase, at(j), true);
    note(
      `${kind} deciding on appeal (closes: 2 parties, 3 + 5 judges)`,
      await vote(appealCase, at(hidden ? 14 : 12), true),
    );
    await advanceTime(devnet.reader, (hidden ? P.commitPeriod + P.revealPeriod : P.deliberationPeriod) + 1n);
    note("triggerDefault (closes: 2 parties)", await send(at(16), defaultCase, disputeCaseAbi, "triggerDefault"));
    note(
      "resolveAfterDeadline, dismissal (closes: 2 parties, 3 judges)",
      await send(at(16), dismissCase, disputeCaseAbi, "resolveAfterDeadline"),
    );
    note("settle (closes: 2 parties, 3 judges)", await send(at(16), settleCase, disputeCaseAbi, "settle"));
    return out;
  } finally {
    await devnet.stop();
  }
}

if (process.argv[1]?.endsWith("statusGas.ts")) {
  for (const hidden of [false, true]) {
    process.stdout.write(hidden ? "hidden votes:\n" : "public votes:\n");
    for (const [what, gas] of Object.entries(await measureWrites(hidden))) {
      process.stdout.write(`  ${what}: median ${median(gas)} (${gas.join(", ")})\n`);
    }
  }
  if (!process.argv.includes("--writes-only")) {
    process.stdout.write(`${JSON.stringify(await measureViews(), null, 2)}\n`);
  }
  process.exit(0);
}
