/**
 * docket run through npm, stopped as a supervisor stops it: a signal to npm's pid only. npm passes
 * it to the `sh -c` running the script, which dies without passing it on; docket (and its anvil)
 * must notice and stop rather than live on as orphans. Real npm, real processes, found with `ps`.
 */
import { type ChildProcess, execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { watch } from "../support/index.js";

const spawned: ChildProcess[] = [];
const recorded = new Set<number>();

afterAll(() => {
  for (const c of spawned) {
    try {
      if (c.pid) process.kill(-c.pid, "SIGKILL");
    } catch {
      // gone
    }
  }
  for (const pid of recorded) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // gone
    }
  }
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Whether `pid` is a live process (a zombie, exited but not yet reaped, is not). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return process.platform !== "linux";
  }
}

/** Whether a JSON-RPC node answers at `url`. */
const answers = (url: string) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }),
    signal: AbortSignal.timeout(2_000),
  }).then(
    (r) => r.ok,
    () => false,
  );

interface Proc {
  pid: number;
  ppid: number;
  args: string;
}

/** `root` and every process below it. */
function tree(root: number): Proc[] {
  const all = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
    .split("\n")
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] as string }));
  const out = all.filter((p) => p.pid === root);
  for (let i = 0; i < out.length; i++) out.push(...all.filter((p) => p.ppid === (out[i] as Proc).pid));
  return out;
}

/** Starts `cmd args` detached (its own process group), collecting output; `ready` waits for `re`. */
function run(cmd: string, args: string[], env: Record<string, string>) {
  const p = watch(cmd, args, {
    env: { LOG_LEVEL: "warn", RATE_LIMIT_PER_MINUTE: "0", ...env },
    detached: true,
    into: spawned,
  });
  return { ...p, ready: (re: RegExp) => p.waitFor(re, 90_000) };
}

/** The docket process, its anvil and anvil's JSON-RPC URL, among `root`'s descendants. */
function docketAndAnvil(root: number) {
  const procs = tree(root);
  const docket = procs.find(
    (p) => /^node\b.*bin\/docket\.js/.test(p.args) || /^\S*node \S*bin\/docket\.js/.test(p.args),
  );
  const anvil = procs.find((p) => /\/anvil\s/.test(p.args) && !/^sh\b/.test(p.args));
  if (!docket || !anvil) throw new Error(`no docket or anvil below ${root}:\n${procs.map((p) => p.args).join("\n")}`);
  const port = /--port (\d+)/.exec(anvil.args)?.[1];
  for (const p of procs) recorded.add(p.pid);
  return { procs, docket, anvil, anvilUrl: `http://127.0.0.1:${port}` };
}

/** Waits (bounded) until none of `pids` is alive and none of `urls` answers; fails naming what is left. */
async function expectAllGone(pids: number[], urls: string[], ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    const left = pids.filter(alive);
    const answering: string[] = [];
    for (const u of urls) if (await answers(u)) answering.push(u);
    if (left.length === 0 && answering.length === 0) return;
    if (Date.now() > end) {
      const still = tree(1).filter((p) => left.includes(p.pid));
      expect({ alive: still.map((p) => `${p.pid} ${p.args}`), answering }).toEqual({ alive: [], answering: [] });
      return;
    }
    await sleep(100);
  }
}

describe.skipIf(process.platform === "win32")("docket run through npm, npm signalled alone", () => {
  it("npm run devnet: SIGTERM to npm's pid stops docket and its anvil", async () => {
    const npm = run("npm", ["run", "devnet"], {});
    const out = await npm.ready(/REGISTRY_ADDRESS=0x[0-9a-fA-F]{40}\n/);
    const rpcUrl = /RPC_URL=(\S+)/.exec(out)?.[1] as string;
    const { procs, docket, anvil, anvilUrl } = docketAndAnvil(npm.pid);
    expect(docket.pid).not.toBe(npm.pid);
    expect([await answers(rpcUrl), await answers(anvilUrl)]).toEqual([true, true]);

    process.kill(npm.pid, "SIGTERM");
    await expectAllGone(
      procs.map((p) => p.pid),
      [rpcUrl, anvilUrl],
    );
    expect(alive(anvil.pid)).toBe(false);
  });

  it("npm start: SIGTERM to npm's pid stops docket and its dev chain", async () => {
    const npm = run("npm", ["start"], { PORT: "0" });
    const out = await npm.ready(/Ctrl-C stops docket/);
    const url = /docket is up on (http:\/\/\S+)/.exec(out)?.[1] as string;
    const rpcUrl = /JSON-RPC (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1] as string;
    const { procs, anvilUrl } = docketAndAnvil(npm.pid);
    expect((await fetch(`${url}/health`)).status).toBe(200);
    expect(await answers(anvilUrl)).toBe(true);

    process.kill(npm.pid, "SIGTERM");
    await expectAllGone(
      procs.map((p) => p.pid),
      [rpcUrl, anvilUrl],
    );
    expect(
      await fetch(`${url}/health`).then(
        () => "answered",
        () => "refused",
      ),
    ).toBe("refused");
  });

  it("npm run devnet: npm killed with SIGKILL (its shell lives on) still stops docket and its anvil", async () => {
    const npm = run("npm", ["run", "devnet"], {});
    const out = await npm.ready(/REGISTRY_ADDRESS=0x[0-9a-fA-F]{40}\n/);
    const rpcUrl = /RPC_URL=(\S+)/.exec(out)?.[1] as string;
    const { procs, anvilUrl } = docketAndAnvil(npm.pid);

    process.kill(npm.pid, "SIGKILL");
    await expectAllGone(
      procs.map((p) => p.pid),
      [rpcUrl, anvilUrl],
    );
  });

  it("docket killed with SIGKILL: its anvil goes too (by pid and port, not only the public URL)", async () => {
    const docket = run(process.execPath, ["bin/docket.js", "start"], { PORT: "0" });
    await docket.ready(/Ctrl-C stops docket/);
    const { procs, anvil, anvilUrl } = docketAndAnvil(docket.pid);
    expect(await answers(anvilUrl)).toBe(true);

    process.kill(docket.pid, "SIGKILL");
    await expectAllGone([anvil.pid, ...procs.map((p) => p.pid)], [anvilUrl]);
  });
});
