import { type Address, erc20Abi, parseEventLogs, zeroAddress } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agenticCommerceAbi, testUSDAbi } from "../../src/chain/abi/generated.js";
import { DEV_CHALLENGE_WINDOW } from "../../src/deploy/terms.js";
import { advanceTime } from "../../src/devnet/seed.js";
import { TestDocket } from "../support/index.js";

/**
 * Jobs from the index, past the old scan of the newest 200 (JOB_SCAN): a client (account 16) and a
 * provider (account 17) have 205 open jobs made after two older ones, a job whose window closed
 * undisputed (anyone's to finalize) and a funded job due soon (the provider's to submit), and one
 * newest funded job. The provider's oldest and newest jobs are listed, the old ones are on the first
 * page of the inbox and the keeper view, every count is over everything and the cursors walk it all.
 */
describe("jobs from the index, without a scan window", () => {
  let t: TestDocket;
  let client: Address;
  let provider: Address;
  const FILLERS = 205;
  const ids = { keeper: 0, soon: 0, newest: 0, fillers: [] as number[] };

  // biome-ignore lint/suspicious/noExplicitAny: bodies are checked field by field
  const get = async (path: string): Promise<any> => {
    const r = await t.get(path);
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    return r.body;
  };
  /** Every item of a keyset list, walked by its cursor (`param` names the input, `next` the output). */
  const walk = async (path: string, item: string, param: string, next: string) => {
    // biome-ignore lint/suspicious/noExplicitAny: entries are checked field by field
    const items: any[] = [];
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const pages: any[] = [];
    let cursor: string | null = null;
    do {
      const page = await get(`${path}${cursor === null ? "" : `&${param}=${cursor}`}`);
      pages.push(page);
      items.push(...page[item]);
      cursor = page[next];
    } while (cursor !== null);
    return { items, pages };
  };

  beforeAll(async () => {
    t = await TestDocket.shared();
    client = t.address(16);
    provider = t.address(17);
    const a = t.chain.arbitration;
    if (!a) throw new Error("no arbitration contracts on the dev chain");
    const evaluator = a.evaluators[0]?.address as Address;
    const c = t.actor(16);
    const p = t.actor(17);
    const now = (await t.chain.reader.getBlock()).timestamp;
    const create = async (expiresIn: bigint) => {
      const r = await c.write({
        address: a.commerce,
        abi: agenticCommerceAbi,
        functionName: "createJob",
        args: [provider, evaluator, now + expiresIn, "a job", zeroAddress],
      });
      return Number(parseEventLogs({ abi: agenticCommerceAbi, eventName: "JobCreated", logs: r.logs })[0]?.args.jobId);
    };
    const fund = async (id: number) => {
      await c.write({
        address: a.commerce,
        abi: agenticCommerceAbi,
        functionName: "setBudget",
        args: [BigInt(id), 1n, "0x"],
      });
      await c.write({
        address: a.commerce,
        abi: agenticCommerceAbi,
        functionName: "fund",
        args: [BigInt(id), 1n, "0x"],
      });
    };
    await t.actor(0).write({ address: a.token, abi: testUSDAbi, functionName: "mint", args: [client, 10n] });
    await c.write({ address: a.token, abi: erc20Abi, functionName: "approve", args: [a.commerce, 10n] });
    const day = 86_400n;
    ids.keeper = await create(30n * day);
    await fund(ids.keeper);
    await p.write({
      address: a.commerce,
      abi: agenticCommerceAbi,
      functionName: "submit",
      args: [BigInt(ids.keeper), `0x${"11".repeat(32)}`, "0x"],
    });
    ids.soon = await create(2n * day);
    await fund(ids.soon);
    for (let i = 0; i < FILLERS; i++) ids.fillers.push(await create(60n * day));
    ids.newest = await create(20n * day);
    await fund(ids.newest);
    // The keeper job's window closes undisputed.
    await advanceTime(t.chain.reader, DEV_CHALLENGE_WINDOW + 1);
    await t.indexed(120_000);
  }, 600_000);
  afterAll(async () => {
    await t?.close();
  });

  it("list_jobs filters over every job: the provider's oldest and newest both listed, counted in all, walked by cursor", async () => {
    const all = FILLERS + 3;
    const { items, pages } = await walk(`/jobs?provider=${provider}&limit=100`, "jobs", "cursor", "nextCursor");
    expect(pages[0].total).toBe(all);
    expect(pages.every((pg) => pg.total === all)).toBe(true);
    const listed = items.map((j) => j.id);
    expect(listed).toEqual([...listed].sort((x, y) => y - x));
    expect(new Set(listed).size).toBe(all);
    expect(listed[0]).toBe(ids.newest);
    expect(listed.at(-1)).toBe(ids.keeper);
    // Each as the chain has it now.
    expect(items.find((j) => j.id === ids.keeper)).toMatchObject({ state: "Submitted", client, provider });
    const funded = await get(`/jobs?client=${client}&state=Funded&limit=5`);
    expect(funded).toMatchObject({ total: 2, nextCursor: null });
    expect(funded.jobs.map((j: { id: number }) => j.id)).toEqual([ids.newest, ids.soon]);
  });

  it("the provider's inbox lists its jobs due soonest first (the oldest funded before the newest) and counts them all", async () => {
    const inbox = await get(`/agent/${provider}/inbox?limit=100`);
    expect(inbox.jobsTotal).toBe(3);
    expect(inbox.jobs.map((j: { job: number; operation: string }) => [j.job, j.operation])).toEqual([
      // Its window closed first: due since then.
      [ids.keeper, "finalize_job"],
      [ids.soon, "submit_job"],
      [ids.newest, "submit_job"],
    ]);
  });

  it("the client's inbox counts every job it may fund, and its cursor walks them due soonest first", async () => {
    const { items, pages } = await walk(`/agent/${client}/inbox?limit=100`, "jobs", "jobsCursor", "jobsNextCursor");
    // The fillers (fund), and the keeper job (finalize: the client may too); the funded ones are the provider's to act on.
    const total = FILLERS + 1;
    expect(pages.map((pg) => pg.jobsTotal)).toEqual(pages.map(() => total));
    expect(items).toHaveLength(total);
    expect(new Set(items.map((j) => j.job)).size).toBe(total);
    expect(items.filter((j) => j.operation === "fund_job")).toHaveLength(FILLERS);
    const deadlines = items.filter((j) => j.deadline !== null).map((j) => j.deadline);
    expect(deadlines).toEqual([...deadlines].sort((x, y) => x - y));
  });

  it("the keeper view's first page holds the job anyone may finalize, made before the newest 200", async () => {
    const view = await get("/keeper/actions?limit=100");
    expect(view.jobs).toContainEqual(
      expect.objectContaining({ job: ids.keeper, operation: "finalize_job", as: "anyone" }),
    );
    expect(view.jobsTotal).toBeGreaterThanOrEqual(1);
    expect(view.jobsTotal).toBe(view.jobs.length);
  });
});
