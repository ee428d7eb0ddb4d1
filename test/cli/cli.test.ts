import type { ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.js";
import { startAnvil } from "../../src/devnet/anvil.js";
import { devAccount } from "../../src/devnet/devAccounts.js";
import { startServer } from "../../src/server.js";
import { watch } from "../support/index.js";

const children: ChildProcess[] = [];
afterAll(() => {
  for (const c of children) c.kill("SIGKILL");
});

function docket(args: string[], env: Record<string, string> = {}) {
  return watch(process.execPath, ["bin/docket.js", ...args], { env: { LOG_LEVEL: "warn", ...env }, into: children });
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
        loadConfig({ PORT: "0", LOG_LEVEL: "silent", RPC_URL: anvil.rpcUrl, DEPLOYMENTS_DIR: dir }),
      );
      try {
        const cases = await (await fetch(`${d.url}/cases`)).json();
        expect(cases).toMatchObject({ total: 0, cases: [] });
        expect(d.ctx.court.factory).toBe(file.factory);
        expect(d.ctx.court.publicRpcUrl).toBeUndefined();
      } finally {
        await d.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await anvil.stop();
    }
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
    expect(Object.keys(env)).toEqual(["RPC_URL", "CHAIN_ID", "FACTORY_ADDRESS", "REGISTRY_ADDRESS", "EVIDENCE_DIR"]);
    const d = await startServer(loadConfig({ ...env, PORT: "0", LOG_LEVEL: "silent" }));
    try {
      const cases = await (await fetch(`${d.url}/cases`)).json();
      // The General court's cases, one in every state, and Agentic Commerce's, one in each hidden-vote phase.
      expect((cases as { total: number }).total).toBe(10);
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
    p.child.kill("SIGKILL");
    await p.exited;
    const end = Date.now() + 5_000;
    while ((await answers(rpc)) && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
    expect(await answers(rpc)).toBe(false);
  });
});
