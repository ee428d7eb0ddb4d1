import { type Address, type Chain, keccak256, type PublicClient, parseEther, parseEventLogs, toHex } from "viem";
import { caseFactoryAbi, courtRegistryAbi, disputeCaseAbi } from "./abi/generated.js";
import { Actor } from "./actor.js";
import type { Deployment } from "./deploy.js";
import { type DevAccount, devAccounts } from "./devAccounts.js";

export interface SeededCase {
  label: string;
  address: Address;
  state: string;
}

export interface SeedSummary {
  agents: number;
  judges: number;
  cases: SeededCase[];
}

interface Ctx {
  reader: PublicClient;
  chain: Chain;
  d: Deployment;
  actors: Actor[];
  accounts: DevAccount[];
}

/** Moves chain time forward and mines a block (anvil only). */
export async function advanceTime(reader: PublicClient, seconds: bigint | number): Promise<void> {
  // biome-ignore lint/suspicious/noExplicitAny: anvil methods are not in viem's public schema
  const request = reader.request as any;
  // An explicit next timestamp: the dev chain mines at a fixed interval, which evm_increaseTime does not move.
  const latest = await reader.getBlock({ blockTag: "latest" });
  await request({ method: "evm_setNextBlockTimestamp", params: [toHex(latest.timestamp + BigInt(seconds))] });
  await request({ method: "evm_mine", params: [] });
}

/**
 * Fills a fresh deployment with the demo world: 14 registered agents, 8 staked judges and a case
 * in every state (Summoned, Active, Deliberating with one vote, Resolved with the appeal window
 * open, Resolved and settled, Appealed, Defaulted, Dismissed). Every actor is a mnemonic account.
 */
export async function seedDemo(reader: PublicClient, chain: Chain, d: Deployment): Promise<SeedSummary> {
  const accounts = devAccounts();
  const actors = accounts.map((a) => new Actor(a.account, chain, reader));
  const ctx: Ctx = { reader, chain, d, actors, accounts };
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
  const judges = accounts.filter((a) => a.role === "judge");
  for (const [i, a] of judges.entries()) {
    await at(a.index).write({
      address: d.registry,
      abi: courtRegistryAbi,
      functionName: "stakeAsJudge",
      value: parseEther("0.1") + parseEther("0.05") * BigInt(i),
    });
  }

  // Cases that need time to pass are built first, then one jump in time ends them all.
  const defaulted = await fileCase(ctx, 1, 2, "Shipment of 40 pallets never picked up; carrier kept the deposit.");
  const dismissed = await fileCase(ctx, 3, 4, "Trading bot executed orders outside the agreed risk limits.");
  const settled = await fileCase(ctx, 5, 6, "Escrow released before the analytics report was delivered.");
  for (const [c, defendant] of [
    [dismissed, 4],
    [settled, 6],
  ] as const) {
    await respond(ctx, c, defendant);
    await draw(ctx, c);
  }
  await votes(ctx, dismissed, [true]);
  await votes(ctx, settled, [true, true]);
  const params = await reader.readContract({ address: d.factory, abi: caseFactoryAbi, functionName: "getParams" });
  const t = params.terms;
  let longest = t.responseWindow;
  for (const w of [t.deliberationPeriod, t.appealWindow]) if (w > longest) longest = w;
  await advanceTime(reader, longest + 1n);
  await at(0).write({ address: defaulted, abi: disputeCaseAbi, functionName: "triggerDefault" });
  await at(0).write({ address: dismissed, abi: disputeCaseAbi, functionName: "resolveAfterDeadline" });
  await at(0).write({ address: settled, abi: disputeCaseAbi, functionName: "settle" });

  // Cases that are live now.
  const appealed = await fileCase(ctx, 2, 3, "Data feed delivered with a 6-hour lag against a 5-minute SLA.");
  await respond(ctx, appealed, 3);
  await draw(ctx, appealed);
  await votes(ctx, appealed, [false, false]);
  await at(2).write({ address: appealed, abi: disputeCaseAbi, functionName: "appeal", value: t.appealBond });

  const resolved = await fileCase(ctx, 1, 3, "Invoice for 12 GPU-hours disputed as double-billed.");
  await respond(ctx, resolved, 3);
  await draw(ctx, resolved);
  await votes(ctx, resolved, [false, false]);

  const deliberating = await fileCase(ctx, 2, 5, "Model fine-tune delivered without the agreed evaluation report.");
  await respond(ctx, deliberating, 5);
  await draw(ctx, deliberating);
  await votes(ctx, deliberating, [true]);

  const active = await fileCase(ctx, 4, 6, "Freight insurance claim refused on a technicality.");
  await respond(ctx, active, 6);
  await at(4).write({
    address: active,
    abi: disputeCaseAbi,
    functionName: "submitEvidence",
    args: ["bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi"],
  });

  const summoned = await fileCase(ctx, 6, 1, "Escrow agent withheld funds after both sides confirmed delivery.");

  const cases: SeededCase[] = [
    { label: "defaulted", address: defaulted, state: "Defaulted" },
    { label: "dismissed", address: dismissed, state: "Dismissed" },
    { label: "resolved, settled", address: settled, state: "Resolved" },
    { label: "appealed", address: appealed, state: "Appealed" },
    { label: "resolved, appeal window open", address: resolved, state: "Resolved" },
    { label: "deliberating, one vote cast", address: deliberating, state: "Deliberating" },
    { label: "active", address: active, state: "Active" },
    { label: "summoned", address: summoned, state: "Summoned" },
  ];
  return { agents: registered.length, judges: judges.length, cases };
}

/** Pays the filing fee, then files with that payment's hash as the single-use reference. */
async function fileCase(ctx: Ctx, plaintiff: number, defendant: number, claim: string): Promise<Address> {
  const { reader, d } = ctx;
  const p = ctx.actors[plaintiff] as Actor;
  const params = await reader.readContract({ address: d.factory, abi: caseFactoryAbi, functionName: "getParams" });
  const payment = await p.send({ to: params.feeRecipient, value: params.filingFee });
  const receipt = await p.write({
    address: d.factory,
    abi: caseFactoryAbi,
    functionName: "fileCase",
    args: [
      (ctx.accounts[defendant] as DevAccount).address,
      claim,
      `bafkrei${keccak256(toHex(claim)).slice(2, 54)}`,
      payment.transactionHash,
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
    args: [c, BigInt(keccak256(c))],
  });
}

/** The first judges of the current panel vote in order. */
async function votes(ctx: Ctx, c: Address, plaintiffWins: boolean[]): Promise<void> {
  const view = await ctx.reader.readContract({ address: c, abi: disputeCaseAbi, functionName: "getCase" });
  for (const [i, v] of plaintiffWins.entries()) {
    const judge = view.judges[i] as Address;
    const acct = ctx.accounts.find((a) => a.address === judge);
    if (!acct) throw new Error(`judge ${judge} is not a dev account`);
    await (ctx.actors[acct.index] as Actor).write({ address: c, abi: disputeCaseAbi, functionName: "vote", args: [v] });
  }
}
