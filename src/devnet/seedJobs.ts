import { createHash } from "node:crypto";
import { type Address, erc20Abi, type Hex, type PublicClient, parseEventLogs } from "viem";
import {
  agenticCommerceAbi,
  courtEvaluatorAbi,
  disputeCaseAbi,
  docketArbitratorAbi,
  testUSDAbi,
} from "../chain/abi/generated.js";
import type { Deployment } from "../chain/deployments.js";
import { DEV_CHALLENGE_WINDOW, devParams, jobLife } from "../deploy/terms.js";
import { publishEvidence } from "../evidence/document.js";
import type { EvidencePublisher } from "../evidence/store.js";
import type { Actor } from "./actor.js";

/**
 * The seeded ERC-8183 jobs (docs/arbitration.md, docs/dev-chain.md): one in every step, between a
 * client (account 20) and a provider (account 21), accounts of their own so that the free ones (15-19) stay fresh, paid in the dev stablecoin (TestUSD, minted here), each with its description, deliverable and the
 * client's statement readable in docket's evidence store. The seed (seed.ts) opens the two that
 * need time to pass before its one jump in time and ends them after it; the live ones come last.
 */

export const JOB_CLIENT = 20;
export const JOB_PROVIDER = 21;
/** 25 dUSD (six decimals). */
const BUDGET = 25_000_000n;
/** What create_job gives by default: the challenge window, the dev courts' worst case and a week's work. */
const LIFE = jobLife(devParams, DEV_CHALLENGE_WINDOW);

export interface SeededJob {
  label: string;
  id: number;
  /** The case its dispute opened, if disputed. */
  case?: Address;
}

export interface JobSeedCtx {
  reader: PublicClient;
  actors: Actor[];
  d: Deployment;
  evidence: EvidencePublisher;
}

/** What each seeded job is about: its brief, the provider's deliverable and the client's complaint. */
const STORIES: Record<string, { brief: string; deliverable: string; complaint?: string }> = {
  open: {
    brief: "Translate the 12-page carrier contract (EN to DE), keeping clause numbering.",
    deliverable: "",
  },
  funded: {
    brief: "Label 2,000 warehouse photos with pallet counts; CSV with one row per photo.",
    deliverable: "",
  },
  submitted: {
    brief: "Summarize Q3 shipping logs: shipments, late deliveries, top three causes of delay.",
    deliverable: "Q3 summary: 412 shipments, 3 late (weather, customs, one mislabel).",
  },
  judged: {
    brief: "Backtest the momentum strategy on 2023 BTC/USD hourly data; report Sharpe and max drawdown.",
    deliverable: "Backtest report: Sharpe 1.4, max drawdown 18%, 2023 hourly data.",
    complaint: "The backtest used 2022 data, not 2023 as the job asked; the figures are for the wrong year.",
  },
  provider: {
    brief: "Write a 500-word product description for the solar charger, in a neutral tone.",
    deliverable: "A 512-word product description of the solar charger, neutral tone, specs table at the end.",
    complaint: "The description is too long: I asked for 500 words.",
  },
  client: {
    brief: "Deliver the cleaned customer dataset (deduplicated, emails validated) as CSV.",
    deliverable: "customers.csv: 9,812 rows.",
    complaint: "The file still holds 1,204 duplicate customers and invalid emails; nothing was cleaned.",
  },
};

const at = (s: JobSeedCtx, i: number) => s.actors[i] as Actor;

/** Publishes text as its own raw block and returns the bytes32 a deliverable is (its sha2-256). */
async function deliverable(s: JobSeedCtx, text: string): Promise<Hex> {
  await s.evidence.publish(Buffer.from(text, "utf8"), "text/plain");
  return `0x${createHash("sha256").update(text, "utf8").digest("hex")}`;
}

/** A job of `story` in `court`'s evaluator, carried to `until`: open (budget set), funded, submitted, or disputed. */
async function job(
  s: JobSeedCtx,
  story: keyof typeof STORIES,
  court: number,
  until: "open" | "funded" | "submitted" | "disputed",
): Promise<SeededJob & { evaluator: Address }> {
  const a = s.d.arbitration;
  if (!a) throw new Error("the dev chain deployed no arbitration contracts");
  const evaluator = a.evaluators.find((e) => e.courtId === court)?.address as Address;
  const client = at(s, JOB_CLIENT);
  const provider = at(s, JOB_PROVIDER);
  const { brief, deliverable: work, complaint } = STORIES[story] as (typeof STORIES)[string];
  const now = (await s.reader.getBlock({ blockTag: "latest" })).timestamp;
  const created = await client.write({
    address: a.commerce,
    abi: agenticCommerceAbi,
    functionName: "createJob",
    args: [provider.address, evaluator, now + LIFE, brief, "0x0000000000000000000000000000000000000000"],
  });
  const [event] = parseEventLogs({ abi: agenticCommerceAbi, eventName: "JobCreated", logs: created.logs });
  const id = event?.args.jobId as bigint;
  await client.write({
    address: a.commerce,
    abi: agenticCommerceAbi,
    functionName: "setBudget",
    args: [id, BUDGET, "0x"],
  });
  const out = { label: "", id: Number(id), evaluator };
  if (until === "open") return out;
  await at(s, 0).write({
    address: a.token,
    abi: testUSDAbi,
    functionName: "mint",
    args: [client.address, BUDGET],
  });
  await client.write({ address: a.token, abi: erc20Abi, functionName: "approve", args: [a.commerce, BUDGET] });
  await client.write({ address: a.commerce, abi: agenticCommerceAbi, functionName: "fund", args: [id, BUDGET, "0x"] });
  if (until === "funded") return out;
  const digest = await deliverable(s, work);
  await provider.write({
    address: a.commerce,
    abi: agenticCommerceAbi,
    functionName: "submit",
    args: [id, digest, "0x"],
  });
  if (until === "submitted") return out;
  const statement = await publishEvidence(s.evidence, Buffer.from(complaint ?? "", "utf8"), "text/plain", {
    name: `The client's statement on job ${id}`,
    description: `Why the client of ERC-8183 job ${id} disputes the provider's work`,
  });
  // Both parties let the evaluator name them, so the job's case goes on their records (issue #31).
  for (const party of [client, provider]) {
    await party.write({
      address: a.arbitrator,
      abi: docketArbitratorAbi,
      functionName: "setConsent",
      args: [evaluator, true],
    });
  }
  const cost = await s.reader.readContract({
    address: evaluator,
    abi: courtEvaluatorAbi,
    functionName: "arbitrationCost",
  });
  const disputed = await client.write({
    address: evaluator,
    abi: courtEvaluatorAbi,
    functionName: "disputeJob",
    args: [id, statement.document.cid],
    value: cost,
  });
  const [d] = parseEventLogs({ abi: courtEvaluatorAbi, eventName: "JobDisputed", logs: disputed.logs });
  return { ...out, case: d?.args.caseAddr };
}

/** The provider answers a job's case (its parties stake nothing). */
export async function answer(s: JobSeedCtx, caseAddr: Address): Promise<void> {
  await at(s, JOB_PROVIDER).write({ address: caseAddr, abi: disputeCaseAbi, functionName: "respond", value: 0n });
}

/**
 * The disputes that need time to pass, opened before the seed's jump in time: one the provider
 * never answers (it defaults: the client wins, refunded) and one a General-court panel decides for
 * the provider (the seed draws and votes it, and settles it after the jump: the provider is paid).
 */
export async function openDisputedJobs(s: JobSeedCtx) {
  const forClient = await job(s, "client", 1, "disputed");
  const forProvider = await job(s, "provider", 1, "disputed");
  await answer(s, forProvider.case as Address);
  return { forClient, forProvider };
}

/** After the jump: the unanswered case defaults and the decided one is settled; their rulings reach the jobs. */
export async function endDisputedJobs(
  s: JobSeedCtx,
  opened: Awaited<ReturnType<typeof openDisputedJobs>>,
): Promise<SeededJob[]> {
  const keeper = at(s, 0);
  await keeper.write({
    address: opened.forClient.case as Address,
    abi: disputeCaseAbi,
    functionName: "triggerDefault",
  });
  await keeper.write({ address: opened.forProvider.case as Address, abi: disputeCaseAbi, functionName: "settle" });
  return [
    {
      label: "job: ruled for the client (the provider never answered the case)",
      id: opened.forClient.id,
      case: opened.forClient.case,
    },
    {
      label: "job: ruled for the provider (a General-court panel)",
      id: opened.forProvider.id,
      case: opened.forProvider.case,
    },
  ];
}

/** The live jobs, seeded last (no time passes after them): disputed and being judged, submitted in the window, funded, open. */
export async function seedLiveJobs(s: JobSeedCtx): Promise<SeededJob[]> {
  const judged = await job(s, "judged", 2, "disputed");
  await answer(s, judged.case as Address);
  const submitted = await job(s, "submitted", 1, "submitted");
  const funded = await job(s, "funded", 1, "funded");
  const open = await job(s, "open", 2, "open");
  return [
    {
      label: "job: disputed, being judged (Agentic Commerce, the provider answered, a panel to be drawn)",
      id: judged.id,
      case: judged.case,
    },
    { label: "job: submitted, challenge window open", id: submitted.id },
    { label: "job: funded, work awaited", id: funded.id },
    { label: "job: open, budget set", id: open.id },
  ];
}
