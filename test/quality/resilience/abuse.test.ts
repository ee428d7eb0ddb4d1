import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { loadConfig } from "../../../src/config.js";
import { devAccount } from "../../../src/devnet/devAccounts.js";
import type { Devnet } from "../../../src/devnet/devnet.js";
import { operations } from "../../../src/operations/registry.js";
import { type Docket, startServer } from "../../../src/server.js";
import { externalChainEnv, leaseChain } from "../../support/index.js";

/**
 * What one client can do to a public, keyless docket: spend everyone's budget (per-client rate
 * limit), send huge bodies or fields (size limits), or be a web page another origin loads
 * (security headers, CORS). The MCP routes' DNS-rebinding check (a foreign Host header is refused
 * with 403) is proven in test/mcp/http.test.ts ("with a foreign Host header is refused with 403");
 * it is not repeated here.
 */

let devnet: Devnet;
const servers: Docket[] = [];
/** RATE_LIMIT_PER_MINUTE=5. */
let limited: Docket;
/** Rate limit off, CORS_ORIGINS unset (any origin). */
let open: Docket;
/** CORS_ORIGINS=https://a.example */
let restricted: Docket;

async function boot(env: Record<string, string>): Promise<Docket> {
  const d = await startServer(loadConfig(externalChainEnv(devnet, env)));
  servers.push(d);
  return d;
}

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request through node:http, for what fetch will not do: pick the source address, stream a body. */
function raw(
  base: string,
  path: string,
  opts: { method?: string; headers?: Record<string, string>; localAddress?: string; chunks?: string[] } = {},
): Promise<Raw> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: u.hostname,
        port: u.port,
        path,
        method: opts.method ?? "GET",
        headers: opts.headers,
        localAddress: opts.localAddress,
        agent: false,
      },
      (res) => {
        let body = "";
        res.on("data", (d: Buffer) => {
          body += d.toString();
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    for (const c of opts.chunks ?? []) req.write(c);
    req.end();
  });
}

const json = (body: unknown) => ({
  method: "POST",
  headers: { "content-type": "application/json" },
  body: typeof body === "string" ? body : JSON.stringify(body),
});

beforeAll(async () => {
  devnet = (await leaseChain()).devnet;
  limited = await boot({ RATE_LIMIT_PER_MINUTE: "5" });
  open = await boot({ RATE_LIMIT_PER_MINUTE: "0" });
  restricted = await boot({ RATE_LIMIT_PER_MINUTE: "0", CORS_ORIGINS: "https://a.example" });
});

afterAll(async () => {
  for (const s of servers) await s.close();
  await devnet?.stop();
});

describe("per-client rate limit (RATE_LIMIT_PER_MINUTE=5)", () => {
  it("/health is exempt: it never counts and is never refused", async () => {
    for (let i = 0; i < 8; i++) {
      const r = await fetch(`${limited.url}/health`);
      expect(r.status).toBe(200);
      expect(r.headers.get("ratelimit")).toBeNull();
    }
  });

  it("5 requests pass with RateLimit headers; the 6th in the minute is 429 RATE_LIMITED in the envelope", async () => {
    const paths = ["/judges/pool", "/cases", "/stats/overview", "/judges/pool", "/agent/discover"];
    for (const [i, path] of paths.entries()) {
      const r = await fetch(`${limited.url}${path}`);
      expect(r.status, path).toBe(200);
      expect(r.headers.get("ratelimit-policy")).toMatch(/q=5; w=60/);
      expect(r.headers.get("ratelimit")).toMatch(new RegExp(`r=${4 - i};`));
    }
    const sixth = await fetch(`${limited.url}/cases`);
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await sixth.json()).toEqual({
      error: {
        code: "RATE_LIMITED",
        message: expect.stringMatching(/more than 5 requests a minute/),
        details: { limitPerMinute: 5 },
      },
    });
    expect(sixth.headers.get("ratelimit")).toMatch(/r=0;/);
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(sixth.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("the limit covers writes and MCP too, and a spoofed X-Forwarded-For does not reset it", async () => {
    const write = await fetch(`${limited.url}/judges/unstake`, json({ address: devAccount(3).address }));
    expect(write.status).toBe(429);
    const mcp = await fetch(`${limited.url}/mcp`, json({ jsonrpc: "2.0", id: 1, method: "tools/list" }));
    expect(mcp.status).toBe(429);
    const spoofed = await fetch(`${limited.url}/cases`, { headers: { "x-forwarded-for": "203.0.113.9" } });
    expect(spoofed.status).toBe(429);
    expect((await fetch(`${limited.url}/health`)).status).toBe(200);
  });

  it("is per client: another source address still has its own full budget", async (t) => {
    // All of 127.0.0.0/8 is loopback on Linux; elsewhere (macOS) 127.0.0.2 may not be configured.
    const other = await raw(limited.url, "/cases", { localAddress: "127.0.0.2" }).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "EADDRNOTAVAIL") t.skip();
      throw e;
    });
    expect(other.status).toBe(200);
    expect(other.headers.ratelimit).toMatch(/r=4;/);
    expect((await raw(limited.url, "/cases", { localAddress: "127.0.0.1" })).status).toBe(429);
  });
});

describe("size limits", () => {
  const register = (name: string) => ({ address: devAccount(4).address, name });

  it("a JSON body over 64 kB is 413 PAYLOAD_TOO_LARGE in the envelope; one just under is read", async () => {
    const over = await fetch(`${open.url}/agent/self-register`, json(register("x".repeat(64 * 1024))));
    expect(over.status).toBe(413);
    expect(await over.json()).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });
    const under = await fetch(`${open.url}/agent/self-register`, json(register("x".repeat(60 * 1024))));
    expect(under.status).toBe(422);
    expect(await under.json()).toMatchObject({
      error: { code: "VALIDATION_ERROR", details: { issues: [{ field: "name" }] } },
    });
  });

  it("a chunked body (no Content-Length) over 64 kB is 413 too", async () => {
    const chunk = "x".repeat(16 * 1024);
    const r = await raw(open.url, "/agent/self-register", {
      method: "POST",
      headers: { "content-type": "application/json", "transfer-encoding": "chunked" },
      chunks: ['{"name":"', chunk, chunk, chunk, chunk, chunk, '"}'],
    });
    expect(r.status).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ error: { code: "PAYLOAD_TOO_LARGE" } });
  });

  it("MCP over HTTP bounds its bodies too (the MCP SDK's 4 MB): 413", async () => {
    const pad = "x".repeat(5 * 1024 * 1024);
    const r = await fetch(`${open.url}/mcp`, {
      ...json({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "get_health", arguments: { pad } } }),
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    });
    expect(r.status).toBe(413);
  });

  it("an over-long string field is refused before any chain call: 422 VALIDATION_ERROR (400 for an evidence reference)", async () => {
    for (const [path, body, field] of [
      ["/agent/self-register", register("n".repeat(65)), "name"],
      [
        "/agent/self-register",
        { ...register("ok"), metadataURI: `https://x.example/${"m".repeat(600)}` },
        "metadataURI",
      ],
    ] as const) {
      const r = await fetch(`${open.url}${path}`, json(body));
      expect(r.status, `${path} ${field}`).toBe(422);
      expect(await r.json()).toMatchObject({ error: { code: "VALIDATION_ERROR", details: { issues: [{ field }] } } });
    }
    // An over-long evidence reference is no CID at all: 400 INVALID_INPUT, as any reference that is not one.
    const r = await fetch(
      `${open.url}/cases/0x00000000000000000000000000000000DeaDBeef/evidence`,
      json({ evidenceIpfsHash: "b".repeat(129) }),
    );
    expect(r.status).toBe(400);
    expect(await r.json()).toMatchObject({
      error: { code: "INVALID_INPUT", details: { issues: [{ field: "evidenceIpfsHash" }] } },
    });
  });

  it("an oversized URL or header block is refused by Node's 16 kB header limit: 431", async () => {
    const r = await raw(open.url, `/cases?x=${"q".repeat(20 * 1024)}`);
    expect(r.status).toBe(431);
  });

  it("the schema walk itself flags an unbounded string or array, through wrappers and transforms", () => {
    const probe = z.object({
      free: z.string().optional(),
      long: z.string().max(5000),
      list: z.array(z.string().max(10)),
      ok: z
        .string()
        .max(42)
        .transform((s) => s.toLowerCase())
        .default("x"),
    });
    const out: { op: string; path: string; type: string; max?: number }[] = [];
    walkInput(probe, "probe", "", out);
    expect(out.filter((f) => f.max === undefined || f.max > 4096).map((f) => f.path)).toEqual([
      ".free",
      ".long",
      ".list",
    ]);
  });

  it("every string field of every operation's input has a max length <= 4096, every array a max size", () => {
    const fields: { op: string; path: string; type: string; max?: number }[] = [];
    for (const op of operations) walkInput(op.input, op.name, "", fields);
    const strings = fields.filter((f) => f.type === "string");
    expect(strings.length).toBeGreaterThan(40);
    // An upload's file (publish_evidence's content, contentBase64) is bounded by EVIDENCE_MAX_BYTES
    // where the body is read (413), so its schema bounds it only loosely; every other field by 4096.
    const file = (f: { op: string; path: string }) =>
      f.op === "publish_evidence" && (f.path === ".content" || f.path === ".contentBase64");
    const unbounded = fields.filter(
      (f) => (f.type === "string" || f.type === "array") && (f.max === undefined || (f.max > 4096 && !file(f))),
    );
    expect(fields.filter(file).every((f) => f.max !== undefined)).toBe(true);
    const unknown = fields.filter((f) => !["string", "array", "number", "boolean", "enum", "literal"].includes(f.type));
    expect(unbounded, "unbounded string or array fields").toEqual([]);
    expect(unknown, "field types this walk does not know how to judge").toEqual([]);
  });
});

/** The max length/size a zod 4 string or array allows (max_length or length_equals checks). */
function maxOf(schema: z.ZodType): number | undefined {
  let max: number | undefined;
  for (const check of schema._zod.def.checks ?? []) {
    const d = check._zod.def as { check: string; maximum?: number; length?: number };
    const m = d.check === "max_length" ? d.maximum : d.check === "length_equals" ? d.length : undefined;
    if (m !== undefined) max = Math.min(max ?? m, m);
  }
  return max;
}

/** Collects every leaf of an input schema, through wrappers, pipes (transforms), arrays and unions. */
function walkInput(
  schema: z.ZodType,
  op: string,
  path: string,
  out: { op: string; path: string; type: string; max?: number }[],
): void {
  const def = schema._zod.def as unknown as Record<string, unknown> & { type: string };
  switch (def.type) {
    case "object":
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>))
        walkInput(v, op, `${path}.${k}`, out);
      return;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "catch":
    case "nonoptional":
      walkInput(def.innerType as z.ZodType, op, path, out);
      return;
    case "pipe":
      walkInput(def.in as z.ZodType, op, path, out);
      return;
    case "union":
      for (const o of def.options as z.ZodType[]) walkInput(o, op, path, out);
      return;
    case "array":
      out.push({ op, path, type: "array", max: maxOf(schema) });
      walkInput(def.element as z.ZodType, op, `${path}[]`, out);
      return;
    default:
      out.push({ op, path, type: def.type, max: maxOf(schema) });
  }
}

describe("security headers (helmet)", () => {
  it.each([
    ["GET /health", "/health", undefined, 200],
    ["a case list (twice: the second from the cache)", "/cases", undefined, 200],
    ["a refused input", "/cases/not-an-address", undefined, 400],
    ["an undecodable path parameter", "/cases/%ZZ", undefined, 400],
    ["an unknown route", "/nope", undefined, 404],
    ["a wrong method", "/stats/overview", "{}", 405],
    ["a refused body", "/agent/self-register", "{", 400],
    ["the docs page", "/docs", undefined, 200],
  ])("on %s", async (_, path, body, status) => {
    if (path === "/cases") await (await fetch(`${open.url}${path}`)).arrayBuffer();
    const r = await fetch(`${open.url}${path}`, body === undefined ? {} : json(body));
    expect(r.status).toBe(status);
    const h = r.headers;
    if (path === "/cases") expect(h.get("x-cache")).toBe("HIT");
    expect(h.get("x-content-type-options")).toBe("nosniff");
    const csp = h.get("content-security-policy") ?? "";
    const docs = path === "/docs";
    // JSON answers: OWASP's REST set, nothing may be framed or loaded; the docs page: helmet's full set.
    const directives = docs
      ? ["default-src 'self'", "script-src 'self'", "object-src 'none'", "frame-ancestors 'self'"]
      : ["default-src 'none'", "frame-ancestors 'none'"];
    for (const directive of directives) expect(csp).toContain(directive);
    expect(h.get("x-powered-by")).toBeNull();
    expect(h.get("x-frame-options")).toBe(docs ? "SAMEORIGIN" : "DENY");
    expect(h.get("strict-transport-security")).toMatch(/max-age=\d+/);
    expect(h.get("referrer-policy")).toBe("no-referrer");
  });
});

describe("CORS", () => {
  const preflight = (base: string, origin: string) =>
    fetch(`${base}/cases/0x00000000000000000000000000000000DeaDBeef/vote`, {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type, x-payment",
      },
    });

  it("by default any origin may read, and sees X-Cache", async () => {
    const r = await fetch(`${open.url}/cases`, { headers: { origin: "https://anyone.example" } });
    expect(r.status).toBe(200);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-expose-headers")).toContain("X-Cache");
  });

  it("by default a preflight for a write is answered 204 with the methods and headers docket takes", async () => {
    const r = await preflight(open.url, "https://anyone.example");
    expect(r.status).toBe(204);
    expect(r.headers.get("access-control-allow-origin")).toBe("*");
    expect(r.headers.get("access-control-allow-methods")).toContain("POST");
    expect(r.headers.get("access-control-allow-headers")).toMatch(/Content-Type.*X-PAYMENT/);
    expect(r.headers.get("access-control-max-age")).toBe("600");
  });

  it("CORS_ORIGINS=https://a.example: that origin is allowed, by name, and a foreign one is not", async () => {
    const allowed = await fetch(`${restricted.url}/cases`, { headers: { origin: "https://a.example" } });
    expect(allowed.headers.get("access-control-allow-origin")).toBe("https://a.example");
    expect(allowed.headers.get("vary")).toMatch(/Origin/);
    const foreign = await fetch(`${restricted.url}/cases`, { headers: { origin: "https://b.example" } });
    expect(foreign.status).toBe(200);
    expect(foreign.headers.get("access-control-allow-origin")).toBeNull();
    const ok = await preflight(restricted.url, "https://a.example");
    expect(ok.status).toBe(204);
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://a.example");
    expect(ok.headers.get("access-control-allow-methods")).toContain("POST");
    const refused = await preflight(restricted.url, "https://b.example");
    expect(refused.headers.get("access-control-allow-origin")).toBeNull();
  });
});
