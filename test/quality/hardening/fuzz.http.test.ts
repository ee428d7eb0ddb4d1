import { Agent, request } from "node:http";
import { parse as parseQuery } from "node:querystring";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorStatus } from "../../../src/errors/errors.js";
import { coerceQuery } from "../../../src/http/input.js";
import { uploadJsonLimit } from "../../../src/http/upload.js";
import type { Operation } from "../../../src/operations/kernel/operation.js";
import { operations } from "../../../src/operations/registry.js";
import { TestDocket } from "../../support/index.js";
import {
  encode,
  fieldsOf,
  type HttpCase,
  httpCaseArb,
  pathParams,
  render,
  SEED,
  scaled,
  segmentArb,
  validAddress,
  validCid,
  type World,
} from "./arbitraries.js";
import { envelopeProblem, leaks, read404, serverErrorProblem, Tally, VALIDATION_CODES, worldOf } from "./oracle.js";

/**
 * Property-based hardening of the HTTP API (issue #7): thousands of generated malformed requests
 * against every route of the registry (wrong types, missing and extra fields, huge strings and
 * bodies, bad hex and checksums, odd numbers, bad JSON, wrong content types and encodings, odd
 * paths and query strings) and valid random reads. Whatever comes in, what goes out is the
 * documented envelope with a documented code and its status, never a stack, never a 5xx except a
 * contract's refusal of a well-formed write, and the server stays up.
 *
 * Deterministic: the seed is fixed (FUZZ_SEED to replay another, FUZZ_SCALE to run more) and
 * printed in every test name and in fast-check's failure report.
 */

/** A JSON body's limit: 64 KiB, or for an upload (publish_evidence) what holds EVIDENCE_MAX_BYTES in base64. */
const BODY_LIMIT = 64 * 1024;
/** Requests in flight at once; each property run sends one batch. */
const BATCH = 16;
const RUNS_PER_ROUTE = scaled(20);
const VALID_READS_PER_ROUTE = scaled(48);
const STRAY_RUNS = scaled(20);

interface Answer {
  status: number;
  contentType: string;
  text: string;
}

describe(`HTTP fuzz (seed ${SEED})`, () => {
  let t: TestDocket;
  let world: World;
  const agent = new Agent({ keepAlive: true, maxSockets: BATCH });
  const tally = new Tally();
  const started = Date.now();

  function send(method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> {
    const u = new URL(t.url);
    return new Promise((resolve, reject) => {
      const req = request({ host: u.hostname, port: u.port, method, path, headers, agent }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            contentType: String(res.headers["content-type"] ?? ""),
            text: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      });
      req.on("error", reject);
      req.end(body);
    });
  }

  /** "404 CASE_NOT_FOUND", for the summary. */
  function outcome(a: Answer): string {
    const code = /"code":"([A-Z_]+)"/.exec(a.text)?.[1];
    return a.status >= 300 && code ? `${a.status} ${code}` : String(a.status);
  }

  /** What the server should see as input, as far as the test can tell (undefined: it cannot). */
  function inputOf(c: HttpCase, op: Operation, sent: { body?: Buffer }): unknown {
    const params: Record<string, unknown> = {};
    for (const [k, s] of Object.entries(c.params)) {
      if (!("enc" in s)) return undefined;
      params[k] = s.enc;
    }
    let body: unknown = {};
    if (op.http.method === "POST" && sent.body && sent.body.length > 0) {
      try {
        body = JSON.parse(sent.body.toString("utf8"));
      } catch {
        return undefined;
      }
      if (body === null || typeof body !== "object" || Array.isArray(body)) return undefined;
    }
    const query = c.query === null ? {} : coerceQuery(op.input, parseQuery(c.query) as never);
    return { ...query, ...(body as object), ...params };
  }

  /** Whether the test knows exactly what the server does with the request. */
  function controlled(c: HttpCase, op: Operation): boolean {
    const jsonType = c.contentType === "application/json" || c.contentType === "application/json; charset=utf-8";
    return (
      c.method === op.http.method &&
      c.pathMut === null &&
      c.query === null &&
      c.encoding === null &&
      Object.values(c.params).every((s) => "enc" in s && s.enc.length > 0) &&
      (op.http.method === "GET" || jsonType || c.body === null)
    );
  }

  /** Everything wrong with an answer (undefined: nothing). */
  function verdict(c: HttpCase, op: Operation, sent: ReturnType<typeof render>, a: Answer): string | undefined {
    const requestText = `${sent.path} ${JSON.stringify(sent.headers)} ${sent.body?.toString("utf8") ?? ""}`;
    const leak = leaks(a.text, requestText);
    if (leak) return leak;
    const known = new Set<number>(Object.values(errorStatus));
    // An operation declared `raw` (get_evidence) answers its 200 with the content itself.
    const raw = a.status === 200 && op.http.raw !== undefined && c.method === op.http.method;
    if (a.status >= 200 && a.status < 300) {
      if (
        a.status === 200 &&
        c.method !== "HEAD" &&
        c.method !== "OPTIONS" &&
        !raw &&
        !a.contentType.includes("json")
      ) {
        return `200 without JSON (${a.contentType})`;
      }
    } else if (!known.has(a.status)) {
      return `undocumented status ${a.status}: ${a.text.slice(0, 200)}`;
    }
    // HEAD answers carry no body; OPTIONS is CORS' preflight.
    if (c.method === "HEAD") return a.status >= 500 ? `HEAD answered ${a.status}` : undefined;
    let body: { error?: { code?: string; details?: { reason?: unknown } } };
    try {
      body = a.text && !raw ? JSON.parse(a.text) : undefined;
    } catch {
      return `body is not JSON: ${a.text.slice(0, 200)}`;
    }
    if (a.status >= 300) {
      const problem = envelopeProblem(body, a.status);
      if (problem) return `${problem}: ${a.text.slice(0, 300)}`;
    }
    const input = inputOf(c, op, sent);
    if (a.status >= 500) {
      const problem = c.method === op.http.method ? serverErrorProblem(op, input, body?.error) : "5xx off-route";
      if (problem) return `${a.status} ${problem}: ${a.text.slice(0, 300)}`;
    }
    if (!controlled(c, op)) return undefined;
    // The test knows exactly what the server got: the codes must agree with the schema.
    const code = a.status >= 300 ? body?.error?.code : undefined;
    const size = sent.body?.length ?? 0;
    const limit = op.http.upload ? uploadJsonLimit(t.docket.ctx.evidence.maxBytes) : BODY_LIMIT;
    if (op.http.method === "POST" && size > limit) {
      return code === "PAYLOAD_TOO_LARGE" ? undefined : `a ${size}-byte body answered ${a.status} ${code}, not 413`;
    }
    if (op.http.method === "POST" && size > 0) {
      let parsed: unknown;
      try {
        parsed = JSON.parse((sent.body as Buffer).toString("utf8"));
      } catch {
        return code === "INVALID_JSON" ? undefined : `bad JSON answered ${a.status} ${code}`;
      }
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        return code === "INVALID_INPUT" ? undefined : `a non-object body answered ${a.status} ${code}`;
      }
    }
    const ok = op.input.safeParse(input).success;
    if (!ok && (a.status < 400 || a.status >= 500 || !VALIDATION_CODES.includes(code ?? ""))) {
      return `malformed input answered ${a.status} ${code ?? ""}`;
    }
    // Schema refusals list their issues; a check against the chain (a stake below the minimum, a
    // signer who cannot pay) may be a 422 too, but never about the input's shape.
    if (ok && (body?.error as { details?: { issues?: unknown } } | undefined)?.details?.issues !== undefined) {
      return `well-formed input refused by validation: ${a.text.slice(0, 300)}`;
    }
    if (ok && op.kind === "read" && a.status !== 200 && !read404(op).includes(code ?? "")) {
      return `well-formed read answered ${a.status} ${code ?? ""}`;
    }
    return undefined;
  }

  async function exchange(c: HttpCase, op: Operation): Promise<string | undefined> {
    const sent = render(c, op.http.path);
    let a: Answer;
    try {
      a = await send(sent.method, sent.path, sent.headers, sent.body);
    } catch (err) {
      return `request failed: ${(err as Error).message}`;
    }
    tally.add(`${op.http.method} ${op.http.path}`, outcome(a));
    const problem = verdict(c, op, sent, a);
    return problem && `${sent.method} ${sent.path.slice(0, 200)} ${JSON.stringify(sent.headers)}: ${problem}`;
  }

  beforeAll(async () => {
    t = await TestDocket.shared();
    world = await worldOf(t.chain, t.devnet);
  });
  afterAll(async () => {
    agent.destroy();
    console.log(`${tally.report("HTTP fuzz")}\n  wall time: ${((Date.now() - started) / 1000).toFixed(1)} s`);
    await t?.close();
  });

  it("covers every operation of the registry", () => {
    expect(operations.length).toBeGreaterThan(20);
    expect(new Set(operations.map((op) => `${op.http.method} ${op.http.path}`)).size).toBe(operations.length);
  });

  describe.each(operations.map((op) => [`${op.http.method} ${op.http.path}`, op] as const))("%s", (_route, op) => {
    it(`malformed requests get 4xx in the envelope; only a well-formed write may get CONTRACT_REVERT (seed ${SEED})`, async () => {
      await fc.assert(
        fc.asyncProperty(fc.array(httpCaseArb(op, world), { minLength: BATCH, maxLength: BATCH }), async (batch) => {
          const problems = (await Promise.all(batch.map((c) => exchange(c, op)))).filter(Boolean);
          if (problems.length > 0) throw new Error(problems.join("\n"));
        }),
        { numRuns: RUNS_PER_ROUTE, seed: SEED },
      );
    });
  });

  describe.each(operations.filter((op) => op.http.method === "GET").map((op) => [op.http.path, op] as const))(
    "valid random reads: GET %s",
    (_path, op) => {
      it(`answers 200 or a documented 404 (seed ${SEED})`, async () => {
        // By the field's kind: a CID, a court id (a number from 1 to 64: the dev world has two, the
        // rest are 404), or an address.
        const kinds = new Map(fieldsOf(op).map((f) => [f.name, f.kind]));
        const valid = (p: string) =>
          kinds.get(p) === "cid"
            ? validCid(world)
            : p === "id"
              ? fc.integer({ min: 1, max: 64 }).map(String)
              : validAddress(world);
        // A required query field (get_webhook_nonce's address) is sent valid too.
        const required = fieldsOf(op)
          .filter((f) => !f.inPath && !f.optional)
          .map((f) => f.name);
        const params = Object.fromEntries([...pathParams(op), ...required].map((p) => [p, valid(p)]));
        const paging = "limit" in op.input.shape || "offset" in op.input.shape;
        const arb = fc.record({
          params: fc.record(params) as fc.Arbitrary<Record<string, string>>,
          limit: paging ? fc.option(fc.integer({ min: 1, max: 100 }), { nil: undefined }) : fc.constant(undefined),
          offset: paging
            ? fc.option(fc.oneof(fc.integer({ min: 0, max: 20 }), fc.integer({ min: 0, max: 1_000_000_000 })), {
                nil: undefined,
              })
            : fc.constant(undefined),
        });
        await fc.assert(
          fc.asyncProperty(fc.array(arb, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
            const problems = await Promise.all(
              batch.map(async ({ params: p, limit, offset }) => {
                let path = op.http.path.replace(/:([A-Za-z_]+)/g, (_, k: string) => encode(p[k] as string));
                const q = [
                  ...required.map((k) => `${k}=${encode(p[k] as string)}`),
                  limit === undefined ? "" : `limit=${limit}`,
                  offset === undefined ? "" : `offset=${offset}`,
                ];
                if (q.some(Boolean)) path += `?${q.filter(Boolean).join("&")}`;
                const a = await send("GET", path, {});
                tally.add(`GET ${op.http.path} (valid)`, outcome(a));
                if (a.status === 200) return undefined;
                const body = JSON.parse(a.text);
                if (a.status === 404 && read404(op).includes(body.error?.code)) {
                  return envelopeProblem(body, 404);
                }
                return `GET ${path}: ${a.status} ${a.text.slice(0, 300)}`;
              }),
            );
            const bad = problems.filter(Boolean);
            if (bad.length > 0) throw new Error(bad.join("\n"));
          }),
          { numRuns: Math.ceil(VALID_READS_PER_ROUTE / BATCH), seed: SEED },
        );
      });
    },
  );

  it(`stray paths and methods get 404 NOT_FOUND or 405 METHOD_NOT_ALLOWED in the envelope (seed ${SEED})`, async () => {
    const segment = fc.oneof(
      fc.constantFrom("cases", "agent", "judges", "validate", "stats", "health", "docs", "mcp", "x", "", "..", "%2e"),
      segmentArb(world).map((s) => ("enc" in s ? encode(s.enc) : s.raw)),
    );
    const arb = fc.record({
      method: fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"),
      segments: fc.array(segment, { minLength: 1, maxLength: 6 }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(arb, { minLength: BATCH, maxLength: BATCH }), async (batch) => {
        const problems = await Promise.all(
          batch.map(async ({ method, segments }) => {
            const path = `/${segments.join("/")}`;
            // /mcp, /sse and /messages speak JSON-RPC, /docs serves HTML: other tests own them.
            if (/^\/+(mcp|sse|messages|docs|openapi)/i.test(path)) return undefined;
            const a = await send(method, path, method === "POST" ? { "content-type": "application/json" } : {});
            tally.add("(stray paths)", outcome(a));
            const leak = leaks(a.text, path);
            if (leak) return `${method} ${path}: ${leak}`;
            if (a.status >= 500) return `${method} ${path}: ${a.status} ${a.text.slice(0, 200)}`;
            if (a.status < 300) return undefined;
            let body: unknown;
            try {
              body = JSON.parse(a.text);
            } catch {
              return `${method} ${path}: ${a.status} with a body that is not JSON: ${a.text.slice(0, 200)}`;
            }
            const problem = envelopeProblem(body, a.status);
            return problem && `${method} ${path}: ${problem}`;
          }),
        );
        const bad = problems.filter(Boolean);
        if (bad.length > 0) throw new Error(bad.join("\n"));
      }),
      { numRuns: STRAY_RUNS, seed: SEED },
    );
  });

  it("stays up: health is 200 after the run", async () => {
    const h = await t.get("/health");
    expect(h.status).toBe(200);
    expect(h.body.status).toBe("ok");
    expect(tally.total).toBeGreaterThanOrEqual(operations.length * RUNS_PER_ROUTE * BATCH);
  });
});
