/**
 * Item 9 (run on its own: `npx tsx bench/items/statusGas.ts`): what the inbox and keeper views cost
 * (issue #14), and what keeping their index costs the writes. Gas, not time, so the figures do not
 * depend on the machine.
 *
 * - Views: on a chain of its own, the bench world grows to 1,000 open cases between 7 parties (so
 *   each party takes part in ~285 cases; of every 10 cases 1 Deliberating with a drawn panel, 1
 *   Active); eth_estimateGas of `getCaseStatuses(0,100)` and `getInvolvedCases(who,0,100)` for a
 *   party and for the busiest judge, and whether a plain eth_call of each succeeds.
 * - Writes: on another chain (public votes), a fixed script of cases: gasUsed of `fileCase`,
 *   `assignJudges`, `assignJudgesRandom` and of every transition that closes a case. Run it against
 *   the contracts before the index (`--writes-only`) to get the difference.
 */
import { type Address, encodeFunctionData, type Hex, parseEther, type TransactionReceipt } from "viem";
import { caseFactoryAbi, courtRegistryAbi, disputeCaseAbi } from "../../src/chain/abi/generated.js";
import { devPublicParams } from "../../src/deploy/terms.js";
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

/** The gas of the writes that keep the index, on a fixed script of cases. */
export async function measureWrites(): Promise<Record<string, number[]>> {
  const P = devPublicParams;
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
    for (const j of judges) await send(j, registry, courtRegistryAbi, "stakeAsJudge", [], parseEther("1"));
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
          [d.address, "A claim of a usual length for the bench.", "bafkreibench", paymentRef],
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
    const respond = (k: Address, d: Actor) => send(d, k, disputeCaseAbi, "respond", [], P.minPartyStake);
    const vote = (k: Address, j: Actor, yes: boolean) => send(j, k, disputeCaseAbi, "vote", [yes]);
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
    await vote(settleCase, at(7), true);
    await vote(settleCase, at(8), true);
    await vote(dismissCase, at(10), true);
    await vote(appealCase, at(7), true);
    await vote(appealCase, at(8), true);
    await send(d, appealCase, disputeCaseAbi, "appeal", [], P.appealBond);
    await seat(appealCase, judges.slice(3, 8));
    await vote(appealCase, at(10), true);
    await vote(appealCase, at(11), true);
    note("vote deciding on appeal (closes: 2 parties, 3 + 5 judges)", await vote(appealCase, at(12), true));
    await advanceTime(devnet.reader, P.deliberationPeriod + 1n);
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
  const writes = await measureWrites();
  for (const [what, gas] of Object.entries(writes)) {
    process.stdout.write(`${what}: median ${median(gas)} (${gas.join(", ")})\n`);
  }
  if (!process.argv.includes("--writes-only")) {
    process.stdout.write(`${JSON.stringify(await measureViews(), null, 2)}\n`);
  }
  process.exit(0);
}
