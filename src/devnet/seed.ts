import {
  type Address,
  type Chain,
  type Hex,
  keccak256,
  type PublicClient,
  parseEther,
  parseEventLogs,
  stringToHex,
  toHex,
} from "viem";
import {
  caseFactoryAbi,
  courtRegistryAbi,
  disputeCaseAbi,
  identityRegistryAbi,
  testUSDAbi,
} from "../chain/abi/generated.js";
import type { Deployment } from "../chain/deployments.js";
import { registrationFile } from "../chain/erc8004.js";
import { voteCommitment } from "../chain/votes.js";
import { AGENTIC_COMMERCE_COURT, DEV_TOKEN_GRANT, GENERAL_COURT } from "../deploy/terms.js";
import { type EvidencePublisher, EvidenceStore } from "../evidence/store.js";
import { Actor } from "./actor.js";
import { type DevAccount, devAccounts } from "./devAccounts.js";
import { type CasePack, publishSeedItem, SEED_EVIDENCE } from "./evidence.js";
import { endDisputedJobs, openDisputedJobs, type SeededJob, seedLiveJobs } from "./seedJobs.js";

/** Dev accounts that are also ERC-8004 agents: the parties of the seeded default (1 v 2) and settlement (5 v 6). */
export const ERC8004_AGENTS = [1, 2, 5, 6] as const;

export interface SeededCase {
  label: string;
  address: Address;
  state: string;
  /** The court's name: General (public votes) or Agentic Commerce (hidden votes). */
  court: string;
}

export interface SeedSummary {
  agents: number;
  judges: number;
  cases: SeededCase[];
  /** ERC-8183 jobs in every step (src/devnet/seedJobs.ts). */
  jobs: SeededJob[];
}

interface Ctx {
  reader: PublicClient;
  chain: Chain;
  d: Deployment;
  actors: Actor[];
  accounts: DevAccount[];
  evidence: EvidencePublisher;
}

/** Moves chain time forward and mines a block (anvil only). */
export async function advanceTime(reader: PublicClient, seconds: bigint | number): Promise<void> {
  // biome-ignore lint/suspicious/noExplicitAny: anvil methods are not in viem's public schema
  const request = reader.request as any;
  // An explicit next timestamp: anvil itself mines at a fixed one-second interval, which ignores
  // evm_increaseTime (only the dev chain's public URL, devnet.rpcUrl, translates that call).
  const latest = await reader.getBlock({ blockTag: "latest" });
  await request({ method: "evm_setNextBlockTimestamp", params: [toHex(latest.timestamp + BigInt(seconds))] });
  await request({ method: "evm_mine", params: [] });
}

/**
 * Where each seeded judge (accounts 7 to 14) stakes, in ether: four in the General court only, three
 * in Agentic Commerce only (eligible in the General court too, as a stake counts up the tree) and one
 * in both. Totals run 0.1 to 0.45, as before courts.
 */
const JUDGE_STAKES: { general?: string; agentic?: string }[] = [
  { general: "0.1" },
  { general: "0.15" },
  { general: "0.2" },
  { general: "0.25" },
  { agentic: "0.3" },
  { agentic: "0.35" },
  { general: "0.2", agentic: "0.2" },
  { agentic: "0.45" },
];

/**
 * Fills a fresh deployment with the demo world: 14 registered agents, 8 staked judges (in the
 * General court, in Agentic Commerce below it, or both) and cases in both courts. The General court
 * (public votes) has a case in every state (Summoned, Active, Deliberating with one vote, Resolved
 * with the appeal window open, Resolved and settled, Appealed, Defaulted, Dismissed); Agentic
 * Commerce (hidden votes) one Deliberating in its commit phase and one in its reveal phase. Every
 * actor is a mnemonic account.
 * Every case's evidence is real content (./evidence.ts), published to `evidence` (docket's store;
 * one in memory when none is given) and filed by CID.
 */
export async function seedDemo(
  reader: PublicClient,
  chain: Chain,
  d: Deployment,
  evidence?: EvidencePublisher,
): Promise<SeedSummary> {
  const accounts = devAccounts();
  const actors = accounts.map((a) => new Actor(a.account, chain, reader));
  const store = evidence ?? (await EvidenceStore.open({ maxBytes: 10 * 1024 * 1024 }));
  const ctx: Ctx = { reader, chain, d, actors, accounts, evidence: store };
  const at = (i: number) => actors[i] as Actor;

  const registered = accounts.filter((a) => a.name);
  // One at a time, so agent ids follow account indexes.
  for (const a of registered) {
    await at(a.index).write({
      address: d.registry,
      abi: courtRegistryAbi,
      functionName: "selfRegister",
      args: [a.name as string, `https://agents.example.org/${a.name}.json`],
    });
  }
  // Two pairs of parties are ERC-8004 agents too, so the seeded verdicts show as their reputation.
  for (const i of ERC8004_AGENTS) {
    const { name } = accounts[i] as DevAccount;
    if (!d.erc8004 || !name) continue;
    const { agentURI } = registrationFile({ name, address: at(i).address });
    await at(i).write({
      address: d.erc8004.identity,
      abi: identityRegistryAbi,
      functionName: "register",
      args: [agentURI, [{ metadataKey: "name", metadataValue: stringToHex(name) }]],
    });
  }
  const judges = accounts.filter((a) => a.role === "judge");
  for (const [i, a] of judges.entries()) {
    const { general, agentic } = JUDGE_STAKES[i] ?? {};
    for (const [court, eth] of [
      [GENERAL_COURT, general],
      [AGENTIC_COMMERCE_COURT, agentic],
    ] as const) {
      if (!eth) continue;
      await at(a.index).write({
        address: d.registry,
        abi: courtRegistryAbi,
        functionName: "stakeAsJudge",
        args: [court],
        value: parseEther(eth),
      });
    }
  }

  // Cases that need time to pass are built first, then one jump in time ends them all.
  const defaulted = await fileCase(ctx, 1, 2, "defaulted");
  const dismissed = await fileCase(ctx, 3, 4, "dismissed");
  const settled = await fileCase(ctx, 5, 6, "resolved, settled");
  for (const [c, plaintiff, defendant, label] of [
    [dismissed, 3, 4, "dismissed"],
    [settled, 5, 6, "resolved, settled"],
  ] as const) {
    await respond(ctx, c, defendant);
    await addEvidence(ctx, c, plaintiff, defendant, label);
    await draw(ctx, c);
  }
  await votes(ctx, dismissed, [true]);
  await votes(ctx, settled, [true, true, false]);
  // Two disputed ERC-8183 jobs end with the jump too: one unanswered, one a panel decides for the provider.
  const jobSeed = { reader, actors, d, evidence: store };
  const disputedJobs = await openDisputedJobs(jobSeed);
  const judgedForProvider = disputedJobs.forProvider.case as Address;
  await draw(ctx, judgedForProvider);
  await votes(ctx, judgedForProvider, [false, false, false]);
  const params = await reader.readContract({ address: d.factory, abi: caseFactoryAbi, functionName: "getParams" });
  const t = params.terms;
  let longest = t.responseWindow;
  for (const w of [t.deliberationPeriod, t.appealWindow]) if (w > longest) longest = w;
  await advanceTime(reader, longest + 1n);
  await at(0).write({ address: defaulted, abi: disputeCaseAbi, functionName: "triggerDefault" });
  await at(0).write({ address: dismissed, abi: disputeCaseAbi, functionName: "resolveAfterDeadline" });
  await at(0).write({ address: settled, abi: disputeCaseAbi, functionName: "settle" });
  const endedJobs = await endDisputedJobs(jobSeed, disputedJobs);

  // Cases that are live now.
  const appealed = await heardCase(ctx, 2, 3, "appealed");
  await votes(ctx, appealed, [false, false, true]);
  await at(2).write({ address: appealed, abi: disputeCaseAbi, functionName: "appeal", value: t.appealBond });

  const resolved = await heardCase(ctx, 1, 3, "resolved, appeal window open");
  await votes(ctx, resolved, [false, false, true]);

  const deliberating = await heardCase(ctx, 2, 5, "deliberating");
  // Public votes: one cast.
  await votes(ctx, deliberating, [true]);

  // Agentic Commerce hides votes. Here one judge has committed: the commit phase is open.
  const committing = await heardCase(
    ctx,
    3,
    6,
    "deliberating, commit phase, one vote committed",
    AGENTIC_COMMERCE_COURT,
  );
  await votes(ctx, committing, [true]);
  // Here every judge has committed, so the reveal phase is open; one has revealed.
  const revealing = await heardCase(ctx, 5, 1, "deliberating, reveal phase, one vote revealed", AGENTIC_COMMERCE_COURT);
  await votes(ctx, revealing, [true, false, true], 1);

  const active = await fileCase(ctx, 4, 6, "active");
  await respond(ctx, active, 6);
  await addEvidence(ctx, active, 4, 6, "active");

  const summoned = await fileCase(ctx, 6, 1, "summoned");

  // In filing order (list_cases' order); the General court's Deliberating case comes first.
  const general = "General";
  const agentic = "Agentic Commerce";
  const cases: SeededCase[] = [
    { label: "defaulted", address: defaulted, state: "Defaulted", court: general },
    { label: "dismissed", address: dismissed, state: "Dismissed", court: general },
    { label: "resolved, settled", address: settled, state: "Resolved", court: general },
    ...jobCases(endedJobs, ["Defaulted", "Resolved"], general),
    { label: "appealed", address: appealed, state: "Appealed", court: general },
    { label: "resolved, appeal window open", address: resolved, state: "Resolved", court: general },
    { label: "deliberating, one vote cast", address: deliberating, state: "Deliberating", court: general },
    {
      label: "deliberating, commit phase, one vote committed",
      address: committing,
      state: "Deliberating",
      court: agentic,
    },
    {
      label: "deliberating, reveal phase, one vote revealed",
      address: revealing,
      state: "Deliberating",
      court: agentic,
    },
    { label: "active", address: active, state: "Active", court: general },
    { label: "summoned", address: summoned, state: "Summoned", court: general },
  ];
  // The live jobs last: no time passes after them (a submitted job's challenge window stays open).
  const liveJobs = await seedLiveJobs(jobSeed);
  cases.push(...jobCases(liveJobs.slice(0, 1), ["Active"], agentic));
  await grantTestUsd(ctx);
  return { agents: registered.length, judges: judges.length, cases, jobs: [...endedJobs, ...liveJobs] };
}

/** The cases seeded jobs' disputes opened, as seeded cases (in filing order, with the state each is left in). */
function jobCases(jobs: readonly SeededJob[], states: readonly string[], court: string): SeededCase[] {
  return jobs.map((j, i) => ({ label: j.label, address: j.case as Address, state: states[i] as string, court }));
}

/** The evidence pack of a seeded case (./evidence.ts). */
function packOf(label: string): CasePack {
  const pack = SEED_EVIDENCE[label];
  if (!pack) throw new Error(`no seeded evidence for ${label}`);
  return pack;
}

/** Each side adds its evidence from the case's pack, the plaintiff first, while the case is heard. */
async function addEvidence(ctx: Ctx, c: Address, plaintiff: number, defendant: number, label: string): Promise<void> {
  const pack = packOf(label);
  for (const [who, items] of [
    [plaintiff, pack.plaintiff ?? []],
    [defendant, pack.defendant ?? []],
  ] as const) {
    for (const item of items) {
      const cid = await publishSeedItem(ctx.evidence, item);
      await (ctx.actors[who] as Actor).write({
        address: c,
        abi: disputeCaseAbi,
        functionName: "submitEvidence",
        args: [cid],
      });
    }
  }
}

/** A case filed, answered by the defendant, with both sides' evidence and its panel drawn: ready for votes. */
async function heardCase(...filing: Parameters<typeof fileCase>): Promise<Address> {
  const [ctx, plaintiff, defendant, label] = filing;
  const c = await fileCase(...filing);
  await respond(ctx, c, defendant);
  await addEvidence(ctx, c, plaintiff, defendant, label);
  await draw(ctx, c);
  return c;
}

/**
 * Pays the filing fee into the factory under a fresh reference, then files with that reference in
 * `court` the claim and filing evidence of the case's pack (`label` names it).
 */
async function fileCase(ctx: Ctx, plaintiff: number, defendant: number, label: string, court = GENERAL_COURT) {
  const { reader, d } = ctx;
  const { claim, filing } = packOf(label);
  const p = ctx.actors[plaintiff] as Actor;
  const params = await reader.readContract({ address: d.factory, abi: caseFactoryAbi, functionName: "getParams" });
  const ref = keccak256(toHex(`seed:${claim}`));
  await p.write({
    address: d.factory,
    abi: caseFactoryAbi,
    functionName: "payFilingFee",
    args: [ref],
    value: params.filingFee,
  });
  const receipt = await p.write({
    address: d.factory,
    abi: caseFactoryAbi,
    functionName: "fileCase",
    args: [
      court,
      (ctx.accounts[defendant] as DevAccount).address,
      claim,
      await publishSeedItem(ctx.evidence, filing),
      ref,
    ],
    value: params.terms.minPartyStake * 2n,
  });
  const [filed] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: receipt.logs });
  if (!filed) throw new Error("fileCase emitted no CaseFiled");
  return filed.args.caseAddr;
}

async function respond(ctx: Ctx, c: Address, defendant: number): Promise<void> {
  const min = await ctx.reader.readContract({ address: c, abi: disputeCaseAbi, functionName: "terms" });
  await (ctx.actors[defendant] as Actor).write({
    address: c,
    abi: disputeCaseAbi,
    functionName: "respond",
    value: min[5] * 2n,
  });
}

async function draw(ctx: Ctx, c: Address): Promise<void> {
  await (ctx.actors[0] as Actor).write({
    address: ctx.d.factory,
    abi: caseFactoryAbi,
    functionName: "assignJudgesRandom",
    args: [c],
  });
}

/** The salt the seed committed a judge's hidden vote with: derived, so a demo can reveal it later. */
export function seedSalt(caseAddress: Address, judge: Address): Hex {
  return keccak256(toHex(`seed-salt:${caseAddress}:${judge}`));
}

/**
 * The first judges of the current panel vote in order. With hidden votes each of them commits, and
 * the first `reveal` of them (all, unless the list is shorter than the panel) then reveal. Seeded
 * salts are derived from the case and judge: fine for a demo, guessable on a real court.
 */
async function votes(ctx: Ctx, c: Address, plaintiffWins: boolean[], reveal?: number): Promise<void> {
  const view = await ctx.reader.readContract({ address: c, abi: disputeCaseAbi, functionName: "getCase" });
  const judgeOf = (i: number) => {
    const judge = view.judges[i] as Address;
    const acct = ctx.accounts.find((a) => a.address === judge);
    if (!acct) throw new Error(`judge ${judge} is not a dev account`);
    return { judge, actor: ctx.actors[acct.index] as Actor };
  };
  const deciding = async () =>
    (await ctx.reader.readContract({ address: c, abi: disputeCaseAbi, functionName: "state" })) === 3;
  if (!view.hiddenVotes) {
    for (const [i, v] of plaintiffWins.entries()) {
      if (!(await deciding())) break; // a majority already decided it
      await judgeOf(i).actor.write({ address: c, abi: disputeCaseAbi, functionName: "vote", args: [v] });
    }
    return;
  }
  const salts = plaintiffWins.map((_, i) => seedSalt(c, judgeOf(i).judge));
  for (const [i, v] of plaintiffWins.entries()) {
    const { judge, actor } = judgeOf(i);
    const commitment = voteCommitment({
      caseAddress: c,
      judge,
      round: view.round,
      plaintiffWins: v,
      salt: salts[i] as Hex,
    });
    await actor.write({ address: c, abi: disputeCaseAbi, functionName: "commitVote", args: [commitment] });
  }
  if (plaintiffWins.length < view.judges.length) return;
  for (const [i, v] of plaintiffWins.slice(0, reveal ?? plaintiffWins.length).entries()) {
    const { actor } = judgeOf(i);
    if (!(await deciding())) break;
    await actor.write({
      address: c,
      abi: disputeCaseAbi,
      functionName: "revealVote",
      args: [
        v,
        salts[i] as Hex,
        `Seeded reasons of judge ${i + 1}: the evidence ${v ? "supports" : "does not support"} the claim.`,
      ],
    });
  }
}

/** Every dev account but the court's gets test stablecoins to pay filing fees x402's way. */
async function grantTestUsd(ctx: Ctx): Promise<void> {
  const token = ctx.d.feeToken;
  if (!token) return;
  for (const a of ctx.accounts.filter((a) => a.index !== 0)) {
    await (ctx.actors[0] as Actor).write({
      address: token,
      abi: testUSDAbi,
      functionName: "mint",
      args: [a.address, DEV_TOKEN_GRANT],
    });
  }
}
