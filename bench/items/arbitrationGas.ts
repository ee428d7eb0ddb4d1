/**
 * Item 12 (issue #23): the gas of the arbitration path, from receipts, on a dev chain of its own
 * (public votes). An ERC-8183 job in the reference escrow, judged through the General court's
 * evaluator: `disputeJob` (the evaluator asks the arbitrator, which files the case), the `settle`
 * that ends the case, delivers the ruling to the evaluator and moves the escrowed tokens, and the
 * undisputed path's `finalize`. A ruling whose callback failed (the test arbitrable, set to fail)
 * and is then retried with `executeRuling`. Beside them a plain `fileCase` and a plain `settle` of
 * a case decided the same way, for comparison. Each figure is the median of `runs` repeats.
 */
import {
  type Abi,
  type Address,
  encodeAbiParameters,
  erc20Abi,
  type Hex,
  parseAbi,
  parseAbiParameters,
  parseEther,
  parseEventLogs,
  type TransactionReceipt,
} from "viem";
import {
  agenticCommerceAbi,
  caseFactoryAbi,
  courtEvaluatorAbi,
  courtRegistryAbi,
  disputeCaseAbi,
  docketArbitratorAbi,
  testUSDAbi,
} from "../../src/chain/abi/generated.js";
import { devPublicParams } from "../../src/deploy/terms.js";
import { Actor } from "../../src/devnet/actor.js";
import { startDevnet } from "../../src/devnet/devnet.js";
import { advanceTime } from "../../src/devnet/seed.js";
import { compileFixture } from "../../test/contracts/refuser.js";
import { median } from "../lib/stats.js";

const GENERAL = 1n;
const BUDGET = 25_000_000n;
const LIFE = 30n * 24n * 3600n;
const testArbitrableAbi = parseAbi([
  "constructor(address arbitrator)",
  "function open(uint256 choices, bytes extraData) payable returns (uint256)",
  "function setFailing(bool failing)",
]);

export interface ArbitrationGasRow {
  what: string;
  /** gasUsed of each run. */
  gas: number[];
  median: number;
}

export interface ArbitrationGasResult {
  runs: number;
  rows: ArbitrationGasRow[];
}

export async function benchArbitrationGas(runs: number, log: (line: string) => void): Promise<ArbitrationGasResult> {
  const P = devPublicParams;
  const devnet = await startDevnet({ seed: false, params: P });
  const gas = new Map<string, number[]>();
  const note = (what: string, r: TransactionReceipt) => {
    if (r.status !== "success") throw new Error(`${what} reverted`);
    gas.set(what, [...(gas.get(what) ?? []), Number(r.gasUsed)]);
    return r;
  };
  try {
    const a = devnet.accounts.map((x) => new Actor(x.account, devnet.chain, devnet.reader));
    const at = (i: number) => a[i] as Actor;
    const { factory, registry } = devnet.deployment;
    const arb = devnet.deployment.arbitration;
    if (!arb) throw new Error("the dev chain deployed no arbitration contracts");
    const evaluator = arb.evaluators.find((e) => BigInt(e.courtId) === GENERAL)?.address as Address;
    const [owner, client, provider, keeper] = [at(0), at(1), at(2), at(5)];
    // Sent with headroom over the estimate, as a wallet would (the figure is the receipt's gasUsed).
    const send = async (by: Actor, to: Address, abi: Abi, functionName: string, args: unknown[] = [], value = 0n) => {
      const req = { address: to, abi, functionName, args, value, account: by.account } as never;
      const estimate = await devnet.reader.estimateContractGas(req);
      // biome-ignore lint/suspicious/noExplicitAny: one sender for several ABIs
      return by.mined(await by.wallet.writeContract({ ...(req as any), gas: estimate * 2n }));
    };
    const judges = [7, 8, 9, 10, 11, 12, 13, 14].map(at);
    for (const j of judges) await send(j, registry, courtRegistryAbi, "stakeAsJudge", [GENERAL], parseEther("1"));
    const panel = judges.slice(0, 3);
    await send(owner, arb.token, testUSDAbi, "mint", [client.address, BigInt(runs) * 10n * BUDGET]);
    await send(client, arb.token, erc20Abi, "approve", [arb.commerce, BigInt(runs) * 10n * BUDGET]);
    const now = async () => (await devnet.reader.getBlock({ blockTag: "latest" })).timestamp;

    /** A funded and submitted job with the General court's evaluator. */
    const submitted = async (): Promise<bigint> => {
      const r = await send(client, arb.commerce, agenticCommerceAbi, "createJob", [
        provider.address,
        evaluator,
        (await now()) + LIFE,
        "Summarize Q3 shipping logs: shipments, late deliveries, top three causes of delay.",
        "0x0000000000000000000000000000000000000000",
      ]);
      const [created] = parseEventLogs({ abi: agenticCommerceAbi, eventName: "JobCreated", logs: r.logs });
      const id = created?.args.jobId as bigint;
      await send(client, arb.commerce, agenticCommerceAbi, "setBudget", [id, BUDGET, "0x"]);
      await send(client, arb.commerce, agenticCommerceAbi, "fund", [id, BUDGET, "0x"]);
      await send(provider, arb.commerce, agenticCommerceAbi, "submit", [id, `0x${"ab".repeat(32)}`, "0x"]);
      return id;
    };
    /** The provider answers, three judges are seated and two decide for the provider. */
    const decide = async (caseAddr: Address, answer: bigint) => {
      await send(provider, caseAddr, disputeCaseAbi, "respond", [], answer);
      await send(owner, factory, caseFactoryAbi, "assignJudges", [caseAddr, panel.map((j) => j.address)]);
      for (const j of panel.slice(0, 2)) await send(j, caseAddr, disputeCaseAbi, "vote", [false]);
    };

    // The test arbitrable (a fixture), whose rule() can be set to fail.
    const { bytecode } = compileFixture("TestArbitrable");
    const deployed = await keeper.mined(
      await keeper.wallet.deployContract({
        abi: testArbitrableAbi,
        bytecode,
        args: [arb.arbitrator],
        account: keeper.account,
        chain: keeper.chain,
      }),
    );
    const arbitrable = deployed.contractAddress as Address;
    // docket's full extraData: Kleros' (court, minJurors, disputeKit) and the parties, claim and evidence.
    const arbitrableData = encodeAbiParameters(
      parseAbiParameters("uint256, uint256, uint256, address, address, string, string"),
      [0n, 0n, 1n, client.address, provider.address, "The escrowed work was not delivered as agreed.", "bafkreibench"],
    );

    let ref = 0;
    for (let run = 0; run < runs; run++) {
      log(`  run ${run + 1} of ${runs}`);
      // The undisputed path: the window passes and anyone finalizes (the provider is paid).
      const quiet = await submitted();
      const e = await devnet.reader.readContract({
        address: evaluator,
        abi: courtEvaluatorAbi,
        functionName: "getEvaluation",
        args: [quiet],
      });
      // The disputed job: the client disputes through the evaluator, paying its cost.
      const disputed = await submitted();
      const cost = await devnet.reader.readContract({
        address: evaluator,
        abi: courtEvaluatorAbi,
        functionName: "arbitrationCost",
      });
      const d = note(
        "disputeJob (evaluator -> arbitrator -> factory: files the case)",
        await send(client, evaluator, courtEvaluatorAbi, "disputeJob", [disputed, "bafkreiclientsays"], cost),
      );
      const [filed] = parseEventLogs({ abi: courtEvaluatorAbi, eventName: "JobDisputed", logs: d.logs });
      const jobCase = filed?.args.caseAddr as Address;
      await decide(jobCase, 0n);
      // A plain case, filed and decided the same way, for comparison.
      ref += 1;
      const paymentRef = `0x${(0xbe00 + ref).toString(16).padStart(64, "0")}` as Hex;
      await send(client, factory, caseFactoryAbi, "payFilingFee", [paymentRef], P.filingFee);
      const f = note(
        "fileCase (plain, the fee paid before)",
        await send(
          client,
          factory,
          caseFactoryAbi,
          "fileCase",
          [
            GENERAL,
            provider.address,
            "Summarize Q3 shipping logs: shipments, late deliveries, top three causes of delay.",
            "bafkreiclientsays",
            paymentRef,
          ],
          P.minPartyStake,
        ),
      );
      const [plainFiled] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: f.logs });
      const plainCase = plainFiled?.args.caseAddr as Address;
      await decide(plainCase, P.minPartyStake);
      // A dispute from the test arbitrable whose callback fails; it defaults after the response window.
      await send(keeper, arbitrable, testArbitrableAbi, "setFailing", [true]);
      const acost = await devnet.reader.readContract({
        address: arb.arbitrator,
        abi: docketArbitratorAbi,
        functionName: "arbitrationCost",
        args: [arbitrableData],
      });
      const o = await send(keeper, arbitrable, testArbitrableAbi, "open", [2n, arbitrableData], acost);
      const [opened] = parseEventLogs({ abi: docketArbitratorAbi, eventName: "DisputeFiled", logs: o.logs });
      const failingCase = opened?.args.caseAddr as Address;
      const disputeId = opened?.args.disputeID as bigint;

      const wait = Math.max(Number(P.appealWindow), Number(P.responseWindow), Number(e.windowEndsAt - (await now())));
      await advanceTime(devnet.reader, BigInt(wait) + 1n);

      note(
        "finalize (undisputed, after the window: completes the job, pays the provider)",
        await send(keeper, evaluator, courtEvaluatorAbi, "finalize", [quiet]),
      );
      const s = note(
        "settle (job case: pays out, rules on the evaluator, completes the job and moves the escrow)",
        await send(keeper, jobCase, disputeCaseAbi, "settle"),
      );
      if (parseEventLogs({ abi: courtEvaluatorAbi, eventName: "JobRuled", logs: s.logs }).length !== 1) {
        throw new Error("the job case's settle delivered no ruling");
      }
      note("settle (plain case)", await send(keeper, plainCase, disputeCaseAbi, "settle"));
      const t = note(
        "triggerDefault (arbitrated case, callback fails: ruling left due)",
        await send(keeper, failingCase, disputeCaseAbi, "triggerDefault"),
      );
      if (parseEventLogs({ abi: docketArbitratorAbi, eventName: "RulingFailed", logs: t.logs }).length !== 1) {
        throw new Error("the failing callback was not recorded");
      }
      await send(keeper, arbitrable, testArbitrableAbi, "setFailing", [false]);
      const x = note(
        "executeRuling (retry that delivers; the test arbitrable's rule)",
        await send(keeper, arb.arbitrator, docketArbitratorAbi, "executeRuling", [disputeId]),
      );
      if (parseEventLogs({ abi: docketArbitratorAbi, eventName: "RulingDelivered", logs: x.logs }).length !== 1) {
        throw new Error("the retry delivered no ruling");
      }
    }
    const rows = [...gas].map(([what, g]) => ({ what, gas: g, median: median(g) }));
    for (const r of rows) log(`  ${r.what}: ${r.median.toLocaleString("en-US")} gas (${r.gas.join(", ")})`);
    return { runs, rows };
  } finally {
    await devnet.stop();
  }
}
