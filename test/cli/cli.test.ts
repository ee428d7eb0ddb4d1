import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createWalletClient, http } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import {
  caseFactoryAbi,
  docketArbitratorAbi,
  identityRegistryAbi,
  identityRegistryBytecode,
  reputationRegistryAbi,
  reputationRegistryBytecode,
  testUSDAbi,
  testUSDBytecode,
} from "../../src/chain/abi/generated.js";
import { makeChain, makePublicClient } from "../../src/chain/client.js";
import { loadConfig } from "../../src/config.js";
import { deployer } from "../../src/deploy/deploy.js";
import { startAnvil } from "../../src/devnet/anvil.js";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { startServer } from "../../src/server.js";
import { TEST_INDEX, watch } from "../support/index.js";

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
});

function docket(args: string[], env: Record<string, string> = {}) {
  // The index in a directory of its own (the repo's data/index is one process's at a time).
  const index = { INDEX_DIR: mkdtempSync(join(tmpdir(), "docket-index-")) };
  return watch(process.execPath, ["bin/docket.js", ...args], {
    env: { LOG_LEVEL: "warn", ...index, ...env },
    into: children,
  });
}

const answers = async (url: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
  }).then(
    () => true,
    () => false,
  );

describe("command line", () => {
  it("deploy: deploys to RPC_URL with a key from the environment, and docket then reads that chain", async () => {
    const anvil = await startAnvil();
    const dir = mkdtempSync(join(tmpdir(), "docket-deploy-"));
    try {
      const key = devAccount(0).privateKey;
      const p = docket(["deploy"], { RPC_URL: anvil.rpcUrl, DEPLOYER_PRIVATE_KEY: key, DEPLOYMENTS_DIR: dir });
      expect(await p.exited).toBe(0);
      expect(p.output()).toMatch(
        /^RPC_URL=.*\nCHAIN_ID=31337\nFACTORY_ADDRESS=0x[0-9a-fA-F]{40}\nREGISTRY_ADDRESS=0x/m,
      );
      expect(p.output() + p.errors()).not.toContain(key.slice(2));
      const file = JSON.parse(readFileSync(join(dir, "31337.json"), "utf8"));
      expect(p.output()).toContain(`FACTORY_ADDRESS=${file.factory}`);
      // docket on that chain, with the addresses from the deployments file.
      const d = await startServer(
        loadConfig({ ...TEST_INDEX, PORT: "0", LOG_LEVEL: "silent", RPC_URL: anvil.rpcUrl, DEPLOYMENTS_DIR: dir }),
      );
      try {
        const cases = await (await fetch(`${d.url}/cases`)).json();
        expect(cases).toMatchObject({ total: 0, cases: [] });
        expect(d.ctx.chain.factory).toBe(file.factory);
        expect(d.ctx.chain.publicRpcUrl).toBeUndefined();
      } finally {
        await d.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await anvil.stop();
    }
  });

  it("deploy: with a job token and ERC-8004 registries, docket is also the arbitrator of agent escrows", async () => {
    const anvil = await startAnvil();
    const dir = mkdtempSync(join(tmpdir(), "docket-deploy-"));
    try {
      // What a real chain already has: the ERC-8004 singletons and a stablecoin (here, ours).
      const owner = devAccount(1);
      // A bare anvil has no Multicall3: reads go call by call.
      const chain = makeChain(31337, anvil.rpcUrl, { multicall3: false });
      const reader = makePublicClient(chain);
      const wallet = createWalletClient({
        account: privateKeyToAccount(owner.privateKey),
        chain,
        transport: http(anvil.rpcUrl),
      });
      const d = deployer(wallet, reader, "the chain's own contracts");
      const identity = (await d.deploy(identityRegistryAbi, identityRegistryBytecode)).address;
      const reputation = (await d.deploy(reputationRegistryAbi, reputationRegistryBytecode, [identity])).address;
      const token = (await d.deploy(testUSDAbi, testUSDBytecode)).address;
      const key = devAccount(0).privateKey;
      const p = docket(["deploy"], {
        RPC_URL: anvil.rpcUrl,
        DEPLOYER_PRIVATE_KEY: key,
        DEPLOYMENTS_DIR: dir,
        ERC8004_IDENTITY_ADDRESS: identity,
        ERC8004_REPUTATION_ADDRESS: reputation,
        JOBS_TOKEN_ADDRESS: token,
        CHALLENGE_WINDOW_SECONDS: "3600",
      });
      expect(await p.exited).toBe(0);
      const file = JSON.parse(readFileSync(join(dir, "31337.json"), "utf8"));
      expect(file.arbitration).toMatchObject({ token, evaluators: [{ courtId: 1, challengeWindow: 3600 }] });
      expect(p.output()).toContain(`ARBITRATOR_ADDRESS=${file.arbitration.arbitrator}`);
      expect(p.output()).toContain(`EVALUATORS=1:${file.arbitration.evaluators[0].address}`);
      // The arbitrator is the factory's, on chain.
      const named = await reader.readContract({
        address: file.factory,
        abi: caseFactoryAbi,
        functionName: "arbitrator",
      });
      expect(named).toBe(file.arbitration.arbitrator);
      // docket on that chain reads the arbitration contracts from the deployments file, with no other setting.
      const s = await startServer(
        loadConfig({ ...TEST_INDEX, PORT: "0", LOG_LEVEL: "silent", RPC_URL: anvil.rpcUrl, DEPLOYMENTS_DIR: dir }),
      );
      try {
        expect(s.ctx.chain.arbitration?.arbitrator).toBe(file.arbitration.arbitrator);
        const jobs = await fetch(`${s.url}/jobs`);
        expect(jobs.status).toBe(200);
        expect(await jobs.json()).toMatchObject({ total: 0 });
        // A bare anvil has no Multicall3: the arbitration reads go call by call, as every read does there.
        const cost = await fetch(`${s.url}/arbitration/cost?court=1`);
        expect(cost.status).toBe(200);
        const priced = (await cost.json()) as { cost: string; extraData: `0x${string}` };
        const onChain = await reader.readContract({
          address: file.arbitration.arbitrator,
          abi: docketArbitratorAbi,
          functionName: "arbitrationCost",
          args: [priced.extraData],
        });
        expect(BigInt(priced.cost)).toBe(onChain);
      } finally {
        await s.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await anvil.stop();
    }
  });

  it("deploy: a job token without ERC-8004 registries is refused in one line", async () => {
    const p = docket(["deploy"], {
      RPC_URL: "http://127.0.0.1:1",
      DEPLOYER_PRIVATE_KEY: devAccount(0).privateKey,
      JOBS_TOKEN_ADDRESS: devAccount(2).address,
    });
    expect(await p.exited).toBe(1);
    expect(p.errors().trim().split("\n")).toHaveLength(1);
    expect(p.errors()).toContain("ERC8004_IDENTITY_ADDRESS");
  });

  it("deploy: refuses without a key, in one line", async () => {
    const p = docket(["deploy"], { RPC_URL: "http://127.0.0.1:1", DEPLOYER_PRIVATE_KEY: "" });
    expect(await p.exited).toBe(1);
    expect(p.errors().trim().split("\n")).toHaveLength(1);
    expect(p.errors()).toContain("DEPLOYER_PRIVATE_KEY");
  });

  it("start: bad configuration fails fast with one clear line", async () => {
    const p = docket(["start"], { PORT: "not-a-port" });
    expect(await p.exited).toBe(1);
    expect(p.errors().trim()).toMatch(/^docket: invalid configuration: PORT: /);
    expect(p.errors().trim().split("\n")).toHaveLength(1);
  });

  it("devnet: prints KEY=value lines another docket can use; its chain dies with it", async () => {
    const p = docket(["devnet"]);
    const out = await p.waitFor(/EVIDENCE_DIR=.+\n/);
    const env = Object.fromEntries(
      out
        .trim()
        .split("\n")
        .map((l) => l.split("=") as [string, string]),
    );
    expect(Object.keys(env)).toEqual([
      "RPC_URL",
      "CHAIN_ID",
      "FACTORY_ADDRESS",
      "REGISTRY_ADDRESS",
      "ARBITRATOR_ADDRESS",
      "JOBS_ADDRESS",
      "JOBS_TOKEN_ADDRESS",
      "EVALUATORS",
      "EVIDENCE_DIR",
    ]);
    const d = await startServer(loadConfig({ ...TEST_INDEX, ...env, PORT: "0", LOG_LEVEL: "silent" }));
    try {
      const cases = await (await fetch(`${d.url}/cases`)).json();
      // The General court's cases, one in every state, Agentic Commerce's, one in each hidden-vote phase,
      // and the three born from seeded jobs' disputes.
      expect((cases as { total: number }).total).toBe(13);
      // ...and the seeded jobs, through the arbitration settings it printed.
      const jobs = (await (await fetch(`${d.url}/jobs`)).json()) as { total: number };
      expect(jobs.total).toBeGreaterThan(0);
    } finally {
      await d.close();
    }
    p.child.kill("SIGTERM");
    expect(await p.exited).toBe(0);
    await new Promise((r) => setTimeout(r, 200));
    expect(await answers(env.RPC_URL as string)).toBe(false);
  });

  it("start: the dev chain does not outlive docket, even killed with SIGKILL", async () => {
    const p = docket(["start"], { PORT: "0" });
    const out = await p.waitFor(/Ctrl-C stops docket/);
    // What npm start prints is the banner: no library warning above it, no warning on stderr.
    expect(out.trimStart().startsWith("docket is up on http://")).toBe(true);
    expect(p.errors()).toBe("");
    const rpc = /JSON-RPC (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] as string;
    expect(await answers(rpc)).toBe(true);
    // It names the arbitration contracts and lists the seeded jobs, each one /jobs serves.
    const url = /docket is up on (http:\/\/\S+)/.exec(out)?.[1] as string;
    // The line the README's round trip starts with, for the port docket got (PORT=0: any free one).
    expect(out).toMatch(new RegExp(`^ {2}examples {6}export DOCKET_URL=${url}\\s`, "m"));
    expect(url).not.toMatch(/:8787$/);
    expect(out).toMatch(/^ {2}arbitration {3}arbitrator 0x[0-9a-fA-F]{40} {2}ERC-8183 jobs 0x[0-9a-fA-F]{40}/m);
    const listed = out.match(/^ {2}job \d+/gm) ?? [];
    const served = (await (await fetch(`${url}/jobs?limit=100`)).json()) as { total: number };
    expect(listed.length).toBe(served.total);
    expect(served.total).toBeGreaterThan(0);
    p.child.kill("SIGKILL");
    await p.exited;
    const end = Date.now() + 5_000;
    while ((await answers(rpc)) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(await answers(rpc)).toBe(false);
  });
});
