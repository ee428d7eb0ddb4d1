import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Address, Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { advanceTime } from "../../src/devnet/seed.js";
import { WORKFLOWS } from "../../src/discovery/skills.js";
import { operations } from "../../src/operations/registry.js";
import { call, connect, type Json } from "../mcp/helpers.js";
import { seeded, TestDocket } from "../support/index.js";

const SKILLS = fileURLToPath(new URL("../../skills/", import.meta.url));
const read = (name: string) => readFileSync(`${SKILLS}${name}/SKILL.md`, "utf8");

/** A SKILL.md's front matter (the Agent Skills format: `name`, `description`, one line each) and body. */
function parseSkill(text: string): { meta: Record<string, string>; body: string } {
  const m = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(text);
  if (!m) throw new Error("no front matter");
  const meta = Object.fromEntries(
    (m[1] as string).split("\n").map((l) => {
      const i = l.indexOf(":");
      return [l.slice(0, i).trim(), l.slice(i + 1).trim()];
    }),
  );
  return { meta, body: m[2] as string };
}

/** The step lines of a skill: every line of its fenced `mcp` blocks, in order. */
function steps(body: string): string[] {
  return [...body.matchAll(/```mcp\n([\s\S]*?)```/g)].flatMap((b) =>
    (b[1] as string)
      .split("\n")
      .map((l) => l.trim())
      .filter(Boolean),
  );
}

/**
 * A value at a path of an answer: dotted fields, `[n]` for an array's element, `[path=value]` for
 * its first element whose `path` is `value`.
 */
function at(value: Json, path: string): Json {
  let v = value;
  for (const part of path.match(/\[[^\]]*\]|[^.[\]]+/g) ?? []) {
    const inner = part.startsWith("[") ? part.slice(1, -1) : part;
    const where = /^(.+)=(.+)$/.exec(inner);
    if (where) v = (v as Json[] | undefined)?.find((e) => String(at(e, where[1] as string)) === where[2]);
    else v = v?.[/^\d+$/.test(inner) ? Number(inner) : inner];
    if (v === undefined) throw new Error(`nothing at ${path} of ${JSON.stringify(value).slice(0, 400)}`);
  }
  return v;
}

/** `$NAME` in a string, replaced from `vars` (a string that is only `$NAME` takes the value as it is). */
function fill(value: Json, vars: Record<string, Json>): Json {
  if (typeof value === "string") {
    const whole = /^\$([A-Z_]+)$/.exec(value);
    if (whole) return need(vars, whole[1] as string);
    return value.replace(/\$([A-Z_]+)/g, (_, k: string) => String(need(vars, k)));
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, vars));
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, vars)]));
  return value;
}
function need(vars: Record<string, Json>, k: string): Json {
  if (!(k in vars)) throw new Error(`$${k} is used before anything gave it a value`);
  return vars[k];
}

/**
 * Follows a skill literally, as a model with docket's MCP tools would: each `tool {args}` line is
 * one tools/call (its `$NAMES` filled in), each `=> NAME = path` reads the last answer, and
 * `sign $TX as $WHO => NAME` signs and broadcasts a transaction. Every write's `unsigned_tx` is
 * signed as its `from` (a filing: its plaintiff) and mined before the next line, as the skill says.
 * Returns each call's tool name and answer.
 */
async function follow(
  t: TestDocket,
  client: Client,
  skill: string,
  vars: Record<string, Json>,
): Promise<{ tool: string; isError: boolean; body: Json }[]> {
  const keyOf = (address: string) => t.indexOf(address);
  const done: { tool: string; isError: boolean; body: Json }[] = [];
  let last: Json;
  for (const line of steps(parseSkill(read(skill)).body)) {
    const bind = /^=> ([A-Z_]+) = (.+)$/.exec(line);
    if (bind) {
      vars[bind[1] as string] = at(last, bind[2] as string);
      continue;
    }
    const sign = /^sign \$([A-Z_]+) as \$([A-Z_]+) => ([A-Z_]+)$/.exec(line);
    if (sign) {
      const receipt = await t.actor(keyOf(need(vars, sign[2] as string))).send(need(vars, sign[1] as string));
      expect(receipt.status, line).toBe("success");
      vars[sign[3] as string] = receipt.transactionHash as Hex;
      await t.indexed();
      continue;
    }
    const m = /^(\$?[a-zA-Z_]+) (\{.*\})$/.exec(line);
    if (!m) throw new Error(`${skill}: a step line that is neither a call, a binding nor a signature: ${line}`);
    const tool = fill(m[1], vars) as string;
    const args = fill(JSON.parse(m[2] as string), vars) as Record<string, unknown>;
    const op = operations.find((o) => o.name === tool);
    expect(op, `${skill}: ${tool} is a docket tool`).toBeDefined();
    const r = await call(client, tool, args);
    done.push({ tool, ...r });
    last = r.body;
    // A refusal is part of the flow only where the skill says so: the filing's 402.
    if (r.isError && !(tool === "file_case" && r.body.x402Version === 2)) {
      throw new Error(`${skill}: ${line} was refused: ${JSON.stringify(r.body)}`);
    }
    if (!r.isError && r.body.unsigned_tx) {
      const signer = (args.from ?? args.plaintiff) as Address;
      const receipt = await t.actor(keyOf(signer)).send(r.body.unsigned_tx);
      expect(receipt.status, line).toBe("success");
      // docket's lists (inbox, jobs) show a mined transaction once its index has read the block.
      await t.indexed();
    }
  }
  return done;
}

describe("skills/: each SKILL.md, followed literally against a docket", () => {
  let t: TestDocket;
  let client: Client;

  beforeAll(async () => {
    t = await TestDocket.shared();
    await t.indexed();
    client = await connect(new StreamableHTTPClientTransport(new URL(`${t.docket.url}/mcp`)));
  });
  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  it("every skill folder has a SKILL.md in the Agent Skills format, and names only docket tools", () => {
    const folders = readdirSync(SKILLS, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => d.name);
    expect(folders.sort()).toEqual(["arbitrate-escrow", "file-dispute", "judge-case", "run-keeper"]);
    for (const name of folders) {
      const { meta, body } = parseSkill(read(name));
      // The spec: name 1-64 characters, lower case letters, digits and single hyphens, the folder's name.
      expect(meta.name).toBe(name);
      expect(meta.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect((meta.name as string).length).toBeLessThanOrEqual(64);
      expect((meta.description as string).length).toBeGreaterThan(0);
      expect((meta.description as string).length).toBeLessThanOrEqual(1024);
      expect(steps(body).length).toBeGreaterThan(0);
      // The agent card's skill of the same workflow names every tool the file calls.
      const card = WORKFLOWS.find((w) => w.id === name);
      expect(card, name).toBeDefined();
      for (const line of steps(body)) {
        const tool = /^([a-z_]+) \{/.exec(line)?.[1];
        if (tool) expect(card?.tools, `${name}: ${tool}`).toContain(tool);
      }
    }
  });

  it("judge-case: a judge who has a vote to cast finds the case in its inbox, reads it, votes", async () => {
    const caseAddr = seeded(t.devnet, "deliberating, one vote cast");
    const before = (await call(client, "get_case", { address: caseAddr })).body.case;
    const me = before.votes.find((v: Json) => v.vote === null)?.judge as string;
    const vars: Record<string, Json> = { ME: me };
    const done = await follow(t, client, "judge-case", vars);
    // The case the skill found waited for this judge's vote (the seeded one, or another its panel draw gave it).
    const before2 = done.find((d) => d.tool === "get_case")?.body.case;
    expect(before2.address).toBe(vars.CASE);
    expect(before2.votes.find((v: Json) => v.judge === me)?.vote).toBeNull();
    const after = done.at(-1)?.body.case;
    expect(after.votes.find((v: Json) => v.judge === me)?.vote).toMatch(/^(plaintiff|committed)$/);
  });

  it("file-dispute: publish evidence, the 402, pay the fee, file with the proof, follow the case and add evidence", async () => {
    const vars: Record<string, Json> = { ME: t.address(15), THEM: t.address(1) };
    const done = await follow(t, client, "file-dispute", vars);
    expect(done.find((d) => d.tool === "file_case")?.isError).toBe(true);
    const filed = done.filter((d) => d.tool === "file_case").at(-1);
    expect(filed?.body.unsigned_tx).toBeDefined();
    const c = done.at(-1)?.body.case;
    expect(c.plaintiff).toBe(vars.ME);
    expect(c.defendant).toBe(vars.THEM);
    expect(c.state).toBe("Summoned");
  });

  it("run-keeper: what is due, done, and gone from the list", async () => {
    // The summoned case's defendant let its window pass: a default is due.
    await advanceTime(t.chain.reader, 3600);
    await t.indexed();
    const vars: Record<string, Json> = { ME: t.address(18) };
    const done = await follow(t, client, "run-keeper", vars);
    const after = done.at(-1)?.body;
    expect(done.find((d) => d.tool === vars.ACTION)?.isError).toBe(false);
    const still = after.actions.filter((a: Json) => a.case === vars.CASE && a.operation === vars.ACTION);
    expect(still).toEqual([]);
  });

  it("arbitrate-escrow: a job judged by the court, opened, funded, delivered and disputed", async () => {
    const vars: Record<string, Json> = { ME: t.address(16), PROVIDER: t.address(17) };
    const done = await follow(t, client, "arbitrate-escrow", vars);
    const job = done.filter((d) => d.tool === "get_job").at(-1)?.body.job;
    expect(job.id).toBe(vars.JOB);
    expect(job.evaluation.phase).toBe("disputed");
    const c = done.at(-1)?.body.case;
    expect(c).toMatchObject({ plaintiff: vars.ME, defendant: vars.PROVIDER });
    expect(c.arbitration.job.id).toBe(vars.JOB);
  });
});
