import { type Address, keccak256, parseEther, parseEventLogs, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { caseFactoryAbi, courtRegistryAbi, disputeCaseAbi } from "../../src/chain/abi/generated.js";
import { loadConfig } from "../../src/config.js";
import { Actor } from "../../src/devnet/actor.js";
import { DEV_ACCOUNT_COUNT } from "../../src/devnet/anvil.js";
import { devAccount, devAccounts } from "../../src/devnet/devAccounts.js";
import type { Devnet } from "../../src/devnet/devnet.js";
import { type Docket, startServer } from "../../src/server.js";
import { leaseChain, type RpcProxy, request, startRpcProxy, TEST_INDEX, until } from "../support/index.js";

/**
 * The RPC budget of docs/api.md (a case read costs at most 2 JSON-RPC requests cold, an aggregate 3), by counting: docket talks to the dev chain only through a counting
 * JSON-RPC proxy, and each check measures the JSON-RPC requests one HTTP request costs.
 * Cold means a key this server has not cached yet: a fresh address or page, or a fresh server.
 */

const BUDGET = { case: 2, page: 2, aggregate: 3, write: 3 } as const;
const AGGREGATES = [
  "/validate/pending",
  "/stats/overview",
  "/agent/discover",
  "/agent/discover?limit=100",
  "/judges/pool",
  // The inbox of dev account 1 (a party to several seeded cases) and the keeper view: one eth_call each.
  "/agent/0x70997970C51812dc3A010C7d01b50e0d17dc79C8/inbox",
  "/keeper/actions",
  // The courts: the tree in one eth_call; a court's judge pool adds each judge's stakes per court.
  "/courts",
  "/courts/2",
  "/judges/pool?court=2",
];

let devnet: Devnet;
let proxy: RpcProxy;
let docket: Docket;
const servers: Docket[] = [];
/** The most each kind of request cost, and on what, for the summary printed at the end. */
const measured = new Map<string, { rpc: number; methods: Record<string, number> }>();

function record(key: string, rpc: number, methods: Record<string, number>): void {
  if ((measured.get(key)?.rpc ?? -1) < rpc) measured.set(key, { rpc, methods });
}

async function boot(opts: { follow?: boolean } = {}): Promise<Docket> {
  const follow = opts.follow ?? true;
  const d = await startServer(
    loadConfig({
      ...TEST_INDEX,
      PORT: "0",
      LOG_LEVEL: "silent",
      RPC_URL: proxy.url,
      CHAIN_ID: "31337",
      FACTORY_ADDRESS: devnet.deployment.factory,
      REGISTRY_ADDRESS: devnet.deployment.registry,
      RATE_LIMIT_PER_MINUTE: "0",
      // A follower polled by this suite only (an hour between polls): it fills the index the
      // validation queue answers from, then stays out of the requests counted.
      EVENT_POLL_MS: follow ? "3600000" : "0",
    }),
  );
  servers.push(d);
  if (!follow) return d;
  const head = Number(await devnet.reader.getBlockNumber());
  await until(
    "the index at the head",
    async () => {
      await d.follower?.poll().catch(() => {});
      return ((await d.ctx.index?.cursor())?.block ?? -1) >= head;
    },
    60_000,
  );
  return d;
}

interface Cost {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
  body: any;
  rpc: number;
  methods: Record<string, number>;
  xCache: string | null;
}

/** One HTTP request to `server`, and the JSON-RPC requests it caused. */
async function cost(server: Docket, path: string, post?: unknown, label?: string): Promise<Cost> {
  proxy.reset();
  const res = await request(server, path, post);
  const c = {
    status: res.status,
    body: res.body,
    rpc: proxy.count,
    methods: proxy.byMethod,
    xCache: res.headers.get("x-cache"),
  };
  if (label !== "") record(label ?? `${post === undefined ? "GET" : "POST"} ${path}`, c.rpc, c.methods);
  return c;
}

function within(c: Cost, max: number, what: string): void {
  expect(c.rpc, `${what} cost ${c.rpc} JSON-RPC requests: ${JSON.stringify(c.methods)}`).toBeLessThanOrEqual(max);
}

/** Seeded cases by label, as the seed filed them. */
function seeded(label: string): Address {
  const c = devnet.seed?.cases.find((x) => x.label.startsWith(label));
  if (!c) throw new Error(`no seeded case "${label}"`);
  return c.address;
}

beforeAll(async () => {
  // A seeded chain of the run, lent to this file alone: every request the proxy counts is this file's.
  devnet = (await leaseChain()).devnet;
  proxy = await startRpcProxy(devnet.rpcUrl);
  docket = await boot();
});

afterAll(async () => {
  for (const s of servers) await s.close();
  await proxy?.close();
  await devnet?.stop();
  if (measured.size > 0) {
    const rows = [...measured].map(
      ([request, m]) => `  ${String(m.rpc).padStart(4)}  ${request.padEnd(58)} ${JSON.stringify(m.methods)}`,
    );
    console.log(`JSON-RPC requests per HTTP request (max seen):\n${rows.join("\n")}`);
  }
});

describe("RPC budget (docs/api.md), counted at a JSON-RPC proxy", () => {
  it("the proxy counts JSON-RPC requests, each element of a batch, per method", async () => {
    proxy.reset();
    const call = (method: string, id: number) => ({ jsonrpc: "2.0", id, method, params: [] });
    const post = (body: unknown) =>
      fetch(proxy.url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const res = await post([call("eth_chainId", 1), call("eth_blockNumber", 2), call("eth_chainId", 3)]);
    const batch = (await res.json()) as { id: number; result: string }[];
    expect(batch.map((r) => r.id)).toEqual([1, 2, 3]);
    expect(batch[0]?.result).toBe("0x7a69");
    await post(call("eth_blockNumber", 4));
    expect(proxy.count).toBe(4);
    expect(proxy.httpRequests).toBe(2);
    expect(proxy.byMethod).toEqual({ eth_chainId: 2, eth_blockNumber: 2 });
    proxy.reset();
    expect(proxy.count).toBe(0);
  });

  it("starting docket against an RPC_URL with CHAIN_ID costs two requests: the chain id check and the Multicall3 probe", async () => {
    proxy.reset();
    // Without a follower: the follower's anchoring (and the index's backfill) are the follower's cost.
    const d = await boot({ follow: false });
    expect(proxy.byMethod).toEqual({ eth_chainId: 1, eth_getCode: 1 });
    expect(d.dev).toBeUndefined();
  });

  it(`GET /cases/{address}, cold: <= ${BUDGET.case} for every seeded case; cached: 0`, async () => {
    const cases = devnet.seed?.cases ?? [];
    expect(cases.length).toBeGreaterThanOrEqual(8);
    for (const c of cases) {
      const cold = await cost(docket, `/cases/${c.address}`, undefined, "GET /cases/{address} cold");
      expect(cold.status).toBe(200);
      expect(cold.body.case.state).toBe(c.state);
      expect(cold.xCache).toBe("MISS");
      within(cold, BUDGET.case, `GET /cases/${c.address} (${c.label})`);
      const warm = await cost(docket, `/cases/${c.address}`, undefined, "GET /cases/{address} cached");
      expect(warm.xCache).toBe("HIT");
      expect(warm.body).toEqual(cold.body);
      expect(warm.rpc).toBe(0);
    }
  });

  it(`GET /cases/{address} for an unknown case: 404 CASE_NOT_FOUND for <= ${BUDGET.case}`, async () => {
    const c = await cost(
      docket,
      "/cases/0x00000000000000000000000000000000DeaDBeef",
      undefined,
      "GET /cases/{unknown}",
    );
    expect(c.status).toBe(404);
    expect(c.body.error.code).toBe("CASE_NOT_FOUND");
    within(c, BUDGET.case, "GET /cases/{unknown}");
  });

  it(`GET /cases, any page, cold: <= ${BUDGET.page}; cached: 0`, async () => {
    const seen: string[] = [];
    for (const [offset, limit] of [
      [0, 3],
      [3, 3],
      [6, 3],
      [9, 3],
      [12, 3],
      [0, 100],
      [50, 10],
    ] as const) {
      const c = await cost(docket, `/cases?offset=${offset}&limit=${limit}`, undefined, "GET /cases?offset&limit cold");
      expect(c.status).toBe(200);
      within(c, BUDGET.page, `GET /cases?offset=${offset}&limit=${limit}`);
      if (limit === 3) seen.push(...c.body.cases);
    }
    expect(new Set(seen).size).toBe(devnet.seed?.cases.length);
    const warm = await cost(docket, "/cases?offset=0&limit=3", undefined, "GET /cases?offset&limit cached");
    expect(warm.xCache).toBe("HIT");
    expect(warm.rpc).toBe(0);
  });

  it(`pending, stats, discovery and judge pool, cold: <= ${BUDGET.aggregate} each; cached: 0`, async () => {
    for (const path of AGGREGATES) {
      const cold = await cost(docket, path, undefined, `GET ${path} cold (seeded world)`);
      expect(cold.status, path).toBe(200);
      expect(cold.xCache).toBe("MISS");
      within(cold, BUDGET.aggregate, `GET ${path}`);
      const warm = await cost(docket, path, undefined, `GET ${path} cached`);
      expect(warm.xCache).toBe("HIT");
      expect(warm.rpc).toBe(0);
    }
  });

  it(`writes: <= ${BUDGET.write} each, with or without \`from\`, accepted or refused`, async () => {
    // The dev chain hides votes: a vote is a commit, which binds the judge (so `from` is needed).
    const deliberating = seeded("deliberating, commit phase");
    const { body } = await cost(docket, `/cases/${deliberating}`, undefined, "");
    const [voted, judge] = body.case.judges as Address[];
    const salt = `0x${"42".repeat(32)}`;
    const free1 = devAccount(15).address;
    const free2 = devAccount(16).address;
    const writes: [string, string, unknown, number, string?][] = [
      [
        "vote (commit), from a seated judge",
        `/cases/${deliberating}/vote`,
        { plaintiff_wins: false, from: judge },
        200,
      ],
      ["vote, no from", `/cases/${deliberating}/vote`, { plaintiff_wins: true }, 400, "MISSING_FIELD"],
      ["reveal, no from", `/cases/${deliberating}/reveal`, { plaintiff_wins: true, salt }, 200],
      [
        "reveal, from a judge before the reveal phase",
        `/cases/${deliberating}/reveal`,
        { plaintiff_wins: true, salt, from: voted },
        500,
        "CONTRACT_REVERT",
      ],
      [
        "vote, from a judge who committed",
        `/cases/${deliberating}/vote`,
        { plaintiff_wins: true, from: voted },
        500,
        "CONTRACT_REVERT",
      ],
      [
        "vote, from a non-judge",
        `/cases/${deliberating}/vote`,
        { plaintiff_wins: true, from: free1 },
        500,
        "CONTRACT_REVERT",
      ],
      ["vote, unknown case", "/cases/0x00000000000000000000000000000000DeaDBeef/vote", { plaintiff_wins: true }, 404],
      ["stake as judge", "/judges/stake", { address: free1, amount: parseEther("0.1").toString() }, 200],
      ["stake below the minimum", "/judges/stake", { address: free1, amount: "1" }, 422, "STAKE_BELOW_MINIMUM"],
      ["self-register", "/agent/self-register", { address: free2, name: "budget-agent" }, 200],
      ["unstake (not a judge)", "/judges/unstake", { address: free2 }, 500, "CONTRACT_REVERT"],
      ["respond, from the defendant", `/cases/${seeded("summoned")}/respond`, { from: devAccount(1).address }, 200],
    ];
    for (const [what, path, post, status, code] of writes) {
      const c = await cost(docket, path, post, `POST ${what}`);
      expect(c.status, `${what}: ${JSON.stringify(c.body)}`).toBe(status);
      if (status === 200) expect(c.body.unsigned_tx.data).toMatch(/^0x[0-9a-f]+$/);
      if (code) expect(c.body.error.code).toBe(code);
      within(c, BUDGET.write, `POST ${path} (${what})`);
    }
  });

  it("1,000 concurrent identical cold GET /cases/{address} cost what one does (single-flight)", async () => {
    const d = await boot();
    const [one, many] = [seeded("active"), seeded("appealed")];
    const single = await cost(d, `/cases/${one}`, undefined, "GET /cases/{address} cold (fresh server)");
    expect(single.status).toBe(200);
    // 300 ms at the node, so every request arrives while the first one's chain read is in flight.
    proxy.setLatency(300);
    try {
      proxy.reset();
      const responses = await Promise.all(
        Array.from({ length: 1000 }, async () => {
          const res = await fetch(`${d.url}/cases/${many}`);
          const body = (await res.json()) as { case?: { state: string } };
          return { status: res.status, xCache: res.headers.get("x-cache"), state: body.case?.state };
        }),
      );
      const rpc = proxy.count;
      record("1,000 x GET /cases/{address} concurrent, cold", rpc, proxy.byMethod);
      expect(responses.every((r) => r.status === 200 && r.state === "Appealed")).toBe(true);
      expect(rpc, JSON.stringify(proxy.byMethod)).toBe(single.rpc);
      // Several were answered by the one shared read, not from the cache it filled afterwards (how many
      // depends on the machine's load; the unit test of Cache proves 1,000 concurrent loads make one).
      expect(responses.filter((r) => r.xCache === "MISS").length).toBeGreaterThan(1);
    } finally {
      proxy.setLatency(0);
    }
  });

  describe("after 25 more cases and 25 more agents", () => {
    let before: Record<string, Cost>;
    let newCases: Address[];

    beforeAll(async () => {
      // The seeded-world figures, from a fresh (cold) server, to compare totals with.
      const d0 = await boot();
      before = {};
      for (const path of AGGREGATES) before[path] = await cost(d0, path, undefined, `GET ${path} cold (seeded world)`);
      newCases = await growWorld(25, 10);
    });

    it(`pending, stats, discovery and judge pool still cost <= ${BUDGET.aggregate} each`, async () => {
      const d = await boot();
      for (const path of AGGREGATES) {
        const c = await cost(d, path, undefined, `GET ${path} cold (+25 cases, +25 agents)`);
        expect(c.status, path).toBe(200);
        within(c, BUDGET.aggregate, `GET ${path} with 25 more cases and agents`);
        const was = before[path]?.body;
        if (path === "/stats/overview") {
          expect(c.body.totalCases).toBe(was.totalCases + 25);
          expect(c.body.agents).toBe(was.agents + 25);
        }
        if (path === "/validate/pending") expect(c.body.total).toBe(was.total + 10);
        if (path === "/agent/discover?limit=100") expect(c.body.agents.length).toBe(was.agents.length + 25);
      }
    });

    it(`GET /cases and GET /cases/{address} still cost <= ${BUDGET.page}`, async () => {
      const d = await boot();
      const page = await cost(d, "/cases?limit=100", undefined, "GET /cases?offset&limit cold");
      expect(page.body.total).toBe((devnet.seed?.cases.length ?? 0) + 25);
      within(page, BUDGET.page, "GET /cases?limit=100 with 25 more cases");
      for (const a of newCases.slice(0, 12)) {
        const c = await cost(d, `/cases/${a}`, undefined, "GET /cases/{address} cold");
        expect(c.status).toBe(200);
        within(c, BUDGET.case, `GET /cases/${a}`);
      }
    });
  });
});

/**
 * Files `cases` more cases and registers as many new agents straight on chain (not through the
 * proxy), with mnemonic accounts past the 20 anvil funds; the first `drawn` cases get a defendant's
 * answer and a panel, so they are Deliberating. Accounts work in parallel, each in order.
 */
async function growWorld(cases: number, drawn: number): Promise<Address[]> {
  const { reader, chain, deployment: d } = devnet;
  // Accounts past the dev chain's own (which the seed may use): new to the court.
  const fresh = devAccounts(DEV_ACCOUNT_COUNT + cases).slice(DEV_ACCOUNT_COUNT);
  const actors = fresh.map((a) => new Actor(a.account, chain, reader));
  for (const a of fresh) {
    // biome-ignore lint/suspicious/noExplicitAny: anvil methods are not in viem's public schema
    await (reader.request as any)({ method: "anvil_setBalance", params: [a.address, toHex(parseEther("10"))] });
  }
  const { terms, filingFee: fee } = await reader.readContract({
    address: d.factory,
    abi: caseFactoryAbi,
    functionName: "getParams",
  });
  // One write at a time: a write estimated while another changes the same contract's storage can be
  // priced too low for the state it lands in (out of gas on a loaded machine).
  const filed: Address[] = [];
  for (const [i, p] of actors.entries()) {
    await p.write({
      address: d.registry,
      abi: courtRegistryAbi,
      functionName: "selfRegister",
      args: [`load-agent-${i}`, ""],
    });
    const claim = `Load case ${i}: delivery disputed.`;
    const ref = keccak256(toHex(`load-payment-${i}`));
    await p.write({ address: d.factory, abi: caseFactoryAbi, functionName: "payFilingFee", args: [ref], value: fee });
    const receipt = await p.write({
      address: d.factory,
      abi: caseFactoryAbi,
      functionName: "fileCase",
      args: [
        0n,
        (fresh[(i + 1) % fresh.length] as { address: Address }).address,
        claim,
        `bafkrei${keccak256(toHex(claim)).slice(2, 54)}`,
        ref,
      ],
      value: terms.minPartyStake,
    });
    const [ev] = parseEventLogs({ abi: caseFactoryAbi, eventName: "CaseFiled", logs: receipt.logs });
    if (!ev) throw new Error("fileCase emitted no CaseFiled");
    filed.push(ev.args.caseAddr);
  }
  for (const [i, c] of filed.slice(0, drawn).entries()) {
    await (actors[(i + 1) % actors.length] as Actor).write({
      address: c,
      abi: disputeCaseAbi,
      functionName: "respond",
      value: terms.minPartyStake,
    });
  }
  const keeper = new Actor(devAccount(0).account, chain, reader);
  for (const c of filed.slice(0, drawn)) {
    await keeper.write({
      address: d.factory,
      abi: caseFactoryAbi,
      functionName: "assignJudgesRandom",
      args: [c],
    });
  }
  return filed;
}
