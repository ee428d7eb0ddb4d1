import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../../src/config.js";
import type { Devnet } from "../../../src/devnet/devnet.js";
import { type Docket, startServer } from "../../../src/server.js";
import { externalChainEnv, leaseChain } from "../../support/index.js";

/**
 * docket behind a load balancer: a real HTTP reverse proxy (below) forwards every request from
 * 127.0.0.1 and names the client in X-Forwarded-For, as balancers do. Two clients (source addresses
 * 127.0.0.2 and 127.0.0.3) go through it. With TRUST_PROXY=1 each has its own rate-limit budget;
 * without it docket sees one client, the proxy, and they share one.
 */

let devnet: Devnet;
const closers: (() => Promise<void>)[] = [];

async function boot(env: Record<string, string>): Promise<Docket> {
  const d = await startServer(loadConfig(externalChainEnv(devnet, { RATE_LIMIT_PER_MINUTE: "3", ...env })));
  closers.push(() => d.close());
  return d;
}

/** A reverse proxy in front of `target` that appends the client's address to X-Forwarded-For. */
async function reverseProxy(target: string): Promise<string> {
  const t = new URL(target);
  const server: Server = createServer((req, res) => {
    const xff = [req.headers["x-forwarded-for"], req.socket.remoteAddress].filter(Boolean).join(", ");
    const up = request(
      {
        host: t.hostname,
        port: t.port,
        path: req.url,
        method: req.method,
        headers: { ...req.headers, "x-forwarded-for": xff },
      },
      (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      },
    );
    up.on("error", () => res.writeHead(502).end());
    req.pipe(up);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", () => r()));
  closers.push(() => new Promise((r) => server.close(() => r())));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** GET through the proxy from a given loopback source address; the status. */
function get(base: string, path: string, localAddress: string): Promise<number> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: u.hostname, port: u.port, path, localAddress, agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  devnet = (await leaseChain()).devnet;
});
afterAll(async () => {
  for (const c of closers.reverse()) await c();
  await devnet?.stop();
});

/** Client 127.0.0.2 spends its three requests through `via`, each answered 200 (skips where that address is not loopback). */
async function spendThree(via: string, t: { skip(): void }): Promise<void> {
  const a = await get(via, "/cases", "127.0.0.2").catch((e: NodeJS.ErrnoException) => {
    // All of 127.0.0.0/8 is loopback on Linux; elsewhere (macOS) 127.0.0.2 may not be configured.
    if (e.code === "EADDRNOTAVAIL") t.skip();
    throw e;
  });
  expect(a).toBe(200);
  expect(await get(via, "/cases", "127.0.0.2")).toBe(200);
  expect(await get(via, "/cases", "127.0.0.2")).toBe(200);
}

describe("TRUST_PROXY behind a real reverse proxy (RATE_LIMIT_PER_MINUTE=3)", () => {
  it("TRUST_PROXY=1: each client behind the proxy has its own budget", async (t) => {
    const via = await reverseProxy((await boot({ TRUST_PROXY: "1" })).url);
    await spendThree(via, t);
    expect(await get(via, "/cases", "127.0.0.2")).toBe(429);
    // The other client is untouched by the first one's spending.
    for (let i = 0; i < 3; i++) expect(await get(via, "/cases", "127.0.0.3")).toBe(200);
    expect(await get(via, "/cases", "127.0.0.3")).toBe(429);
  });

  it("without TRUST_PROXY the clients share the proxy's one budget", async (t) => {
    const via = await reverseProxy((await boot({})).url);
    await spendThree(via, t);
    expect(await get(via, "/cases", "127.0.0.3")).toBe(429);
  });
});
