import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Eta } from "eta";
import type { Express, NextFunction, Request, RequestHandler, Response } from "express";
import helmet from "helmet";
import { z } from "zod";
import { clientScript } from "../browser/bundle.js";
import { asDocketError, DocketError } from "../errors/errors.js";
import type { EventHub } from "../events/hub.js";
import { type DocketEvent, EVENT_TYPES } from "../events/types.js";
import { CURSOR_PATTERN } from "../formats.js";
import type { Ctx, Operation } from "../operations/kernel/operation.js";
import { address, validationError } from "../operations/kernel/schemas.js";
import { courtList, courtPage, courtsPage } from "./courts.js";
import { fmt } from "./format.js";
import { agentPage, judgePage } from "./histories.js";
import { JOB_STATES, jobPage, jobsPage, PHASE_TEXT } from "./jobs.js";
import { CASE_STATES, casePage, casesPage, overviewPage } from "./pages.js";
import { EXPLORER, Reads, type SameData } from "./reads.js";
import { RecentEvents } from "./recent.js";

const { version } = createRequire(import.meta.url)("docket/package.json") as { version: string };

export { EXPLORER };

const views = fileURLToPath(new URL("./views", import.meta.url));
const styles = fileURLToPath(new URL("./assets/explorer.css", import.meta.url));
// Without an icon of its own, a browser asks for /favicon.ico and logs the 404 as an error on every first page.
const icon = fileURLToPath(new URL("./assets/favicon.svg", import.meta.url));

/**
 * The explorer's headers: helmet's full set with a CSP that runs only docket's own script file (no
 * inline script, no inline event handler, no eval), shows only docket's own images (evidence comes
 * from `/evidence/{cid}`) and connects only back to docket (`/events`, page refreshes).
 */
export function pageHeaders(): RequestHandler {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "script-src-attr": ["'none'"],
        "style-src": ["'self'"],
        "img-src": ["'self'"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
      },
    },
    xFrameOptions: { action: "deny" },
  });
}

/** The page's own line of "the same data as JSON and as MCP". */
interface Meta {
  title: string;
  same: SameData;
  /** What the live script follows: one case's events, or all of them. */
  live: { case?: string };
}

export interface ExplorerOptions {
  /** The event hub: the overview's latest events, a case's timeline, and the pages' live updates. */
  events?: EventHub;
  /**
   * The newest `n` court events docket's index stores, newest first (what GET /events resumes
   * from): the overview's latest events, the live ones merged in. It throws INDEX_UNAVAILABLE
   * without the index; absent, the overview shows the live events only.
   */
  stored?: (n: number) => Promise<DocketEvent[]>;
  /**
   * The operations' security chain (headers, CORS, rate limit), run first on every explorer route;
   * a page then replaces the API's headers with its own.
   */
  security?: RequestHandler[];
  /**
   * Where the page templates and the stylesheet are read from (default: the ones beside this
   * module). A seam for the tests that take them away, to prove a page still answers without them.
   */
  files?: { views?: string; styles?: string };
}

/**
 * The page sent when the error page itself cannot be drawn (its template missing or failing): plain
 * HTML that needs nothing, so an explorer request always gets an answer.
 */
export function fallbackPage(e: DocketError): string {
  const text = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>docket: ${text(e.code)}</title></head>
<body><h1>${e.status} ${text(e.code)}</h1><p>${text(e.message)}</p><p><a href="/">docket</a></p></body></html>
`;
}

/** The index a program gets at `/`: where the API, its description and the MCP transports are. */
export function apiIndex() {
  return {
    name: "docket",
    version,
    description: "Gateway for AI agents and HTTP clients to on-chain dispute resolution",
    links: {
      docs: "/docs/",
      openapi: "/openapi.json",
      health: "/health",
      events: "/events",
      explorer: "/ (as text/html)",
    },
    mcp: { streamableHttp: "/mcp", session: "/mcp/session", sse: "/sse" },
  };
}

/**
 * Mounts the explorer: `/` (negotiated: the overview for a browser, the API index for a program)
 * and the read-only pages under /explorer. Each page is built from the operations, run as the API
 * runs them; it holds no logic of its own beyond laying them out.
 */
export function mountExplorer(
  app: Express,
  ctx: Ctx,
  operations: readonly Operation[],
  opts: ExplorerOptions = {},
): { close(): void } {
  const reads = new Reads(ctx, operations);
  const recent = opts.events ? new RecentEvents(opts.events) : undefined;
  const events = () => recent ?? { latest: () => [] };
  const eta = new Eta({ views: opts.files?.views ?? views, cache: true, autoEscape: true, autoTrim: false });
  const stylesheet = opts.files?.styles ?? styles;
  const headers = pageHeaders();
  const courts = reads.op("list_courts") !== undefined && reads.op("get_court") !== undefined;
  // Jobs only where docket serves arbitration (the dev chain; a real chain configured for it).
  const jobs = reads.op("list_jobs") !== undefined && ctx.chain.arbitration !== undefined;

  const render = (res: Response, status: number, view: string, data: object, meta: Meta) => {
    const body = eta.render(`./${view}`, { ...data, fmt, states: CASE_STATES, explorer: EXPLORER });
    const html = eta.render("./layout", {
      ...meta,
      body,
      fmt,
      explorer: EXPLORER,
      eventTypes: EVENT_TYPES,
      courts,
      jobs,
    });
    res.status(status).type("html").set("Cache-Control", "no-cache").send(html);
  };
  /**
   * The one way an explorer request fails: the error page, or, when that cannot be drawn either,
   * the fallback page. It never throws, so no page is left without an answer.
   */
  const fail = (res: Response, err: unknown) => {
    const e = asDocketError(err);
    if (e.code === "INTERNAL_ERROR") ctx.log.error({ err }, "explorer: page failed");
    if (res.headersSent) return;
    try {
      const human = humanError(e);
      render(
        res,
        e.status,
        "error",
        { error: e, human },
        { title: human.title, same: { json: "/", mcp: "" }, live: {} },
      );
    } catch (again) {
      ctx.log.error({ err: again }, "explorer: the error page failed too; sent the fallback page");
      res.status(e.status).type("html").set("Cache-Control", "no-store").send(fallbackPage(e));
    }
  };
  const page =
    (build: (req: Request) => Promise<[string, object, Meta] | [string, object, Meta, number]>): RequestHandler =>
    (req, res) =>
      build(req)
        .then(([view, data, meta, status]) => render(res, status ?? 200, view, data, meta))
        .catch((err) => fail(res, err));
  const html: RequestHandler = (req, res, next: NextFunction) => headers(req, res, next);

  const security = opts.security ?? [];
  if (security.length > 0) app.use(EXPLORER, ...security);
  app.get("/", ...security, (req, res, next) => {
    res.vary("Accept");
    if (req.accepts(["json", "html"]) !== "html") {
      res.set("Cache-Control", "no-cache").json(apiIndex());
      return;
    }
    html(req, res, () =>
      page(async () => {
        const [data, courtsList] = await Promise.all([
          overviewPage(reads, events() as RecentEvents, opts.stored),
          courtList(reads),
        ]);
        return ["overview", { ...data, courtsList }, { title: "docket", same: data.same, live: {} }];
      })(req, res, next),
    );
  });

  app.get(`${EXPLORER}/cases`, html, (req, res, next) =>
    page(async () => {
      const courtsList = await courtList(reads);
      let q: z.output<typeof casesQuery>;
      try {
        q = parse(casesQuery, { ...req.query, ...(await byName(reads, req.query, ["party", "judge"])) });
      } catch (err) {
        // A person's mistake in the form: the form again, as typed, with what to do about it.
        const e = asDocketError(err);
        if (e.status >= 500) throw err;
        const typed = Object.fromEntries(
          Object.entries(req.query).map(([k, v]) => [k, typeof v === "string" ? v : undefined]),
        );
        const data = { query: { ...typed, limit: 20 }, rows: [], total: 0, filtered: true, pager: {}, courtsList };
        const meta = { title: "Cases: check the form", same: { json: "/cases", mcp: "list_cases" }, live: {} };
        return ["cases", { ...data, error: humanError(e).message }, meta, e.status];
      }
      const data = await casesPage(reads, q);
      return ["cases", { ...data, courtsList }, { title: "Cases", same: data.same, live: {} }];
    })(req, res, next),
  );

  // The header's one search box: an address (a case's, an agent's, a judge's), an agent's name, a job's number.
  app.get(`${EXPLORER}/search`, html, (req, res, next) => {
    const raw = typeof req.query.q === "string" ? req.query.q.trim() : "";
    search(reads, raw, jobs)
      .then((to) => res.redirect(303, to))
      .catch((err) => fail(res, err))
      .catch(next);
  });

  app.get(`${EXPLORER}/cases/:address`, html, (req, res, next) =>
    page(async () => {
      const { address: a } = parse(z.object({ address: address("Case") }), req.params);
      const data = await casePage(reads, a);
      return ["case", data, { title: data.title, same: data.same, live: { case: data.c.address } }];
    })(req, res, next),
  );

  app.get(`${EXPLORER}/agents/:address`, html, (req, res, next) =>
    page(async () => {
      const { address: a } = parse(z.object({ address: address("Agent") }), req.params);
      const data = await agentPage(reads, a, parse(historyQuery, req.query));
      const title = data.agent?.name ? `Agent ${data.agent.name}` : `Address ${fmt.short(a)}`;
      return ["agent", data, { title, same: data.same, live: {} }];
    })(req, res, next),
  );

  app.get(`${EXPLORER}/judges/:address`, html, (req, res, next) =>
    page(async () => {
      const { address: a } = parse(z.object({ address: address("Judge") }), req.params);
      const data = await judgePage(reads, a, parse(historyQuery, req.query));
      const title = data.agent?.name ? `Judge ${data.agent.name}` : `Judge ${fmt.short(a)}`;
      return ["judge", data, { title, same: data.same, live: {} }];
    })(req, res, next),
  );

  if (courts) {
    app.get(`${EXPLORER}/courts`, html, (req, res, next) =>
      page(async () => {
        const data = await courtsPage(reads);
        return ["courts", data, { title: "Courts", same: data.same, live: {} }];
      })(req, res, next),
    );
    app.get(`${EXPLORER}/courts/:id`, html, (req, res, next) =>
      page(async () => {
        const { id } = parse(z.object({ id: z.string().regex(/^\d{1,15}$/) }), req.params);
        const data = await courtPage(reads, id);
        return ["court", data, { title: `Court ${data.court.name}`, same: data.same, live: {} }];
      })(req, res, next),
    );
  }

  if (jobs) {
    app.get(`${EXPLORER}/jobs`, html, (req, res, next) =>
      page(async () => {
        const q = parse(jobsQuery, req.query);
        const data = await jobsPage(reads, q);
        return ["jobs", { ...data, jobStates: JOB_STATES }, { title: "Jobs", same: data.same, live: {} }];
      })(req, res, next),
    );
    app.get(`${EXPLORER}/jobs/:id`, html, (req, res, next) =>
      page(async () => {
        const { id } = parse(z.object({ id: z.coerce.number().int().min(1).max(Number.MAX_SAFE_INTEGER) }), req.params);
        const data = await jobPage(reads, id);
        return ["job", { ...data, phaseText: PHASE_TEXT }, { title: `Job ${id}`, same: data.same, live: {} }];
      })(req, res, next),
    );
  }

  // The chain's clock for the pages' countdowns (src/browser/live.ts): the latest block's timestamp.
  app.get(`${EXPLORER}/chain-time`, (_req, res) => {
    reads
      .chainTime()
      .then((chainTime) => res.set("Cache-Control", "no-store").json({ chainTime }))
      .catch((err) => res.status(asDocketError(err).status).json({ error: asDocketError(err).code }));
  });
  app.get(`${EXPLORER}/assets/live.js`, (_req, res, next) => {
    clientScript("live")
      .then((js) => res.type("application/javascript").set("Cache-Control", "no-cache").send(js))
      .catch(next);
  });
  app.get(`${EXPLORER}/assets/explorer.css`, (_req, res, next) => {
    res
      .type("text/css")
      .set("Cache-Control", "no-cache")
      .sendFile(stylesheet, (err) => {
        // A stylesheet docket cannot read is docket's fault (a build without it), never the client's.
        if (err)
          next(
            new DocketError("INTERNAL_ERROR", "the explorer's stylesheet cannot be read", undefined, { cause: err }),
          );
      });
  });
  app.get(`${EXPLORER}/assets/favicon.svg`, (_req, res) => {
    res.type("image/svg+xml").set("Cache-Control", "max-age=86400").sendFile(icon);
  });
  // A browser asks for /favicon.ico wherever a page names no icon (the API's docs, a JSON answer).
  app.get("/favicon.ico", (_req, res) => {
    res.type("image/svg+xml").set("Cache-Control", "max-age=86400").sendFile(icon);
  });
  app.get([EXPLORER, `${EXPLORER}/`], (_req, res) => res.redirect(302, "/"));
  app.use(EXPLORER, html, (req, res) =>
    fail(res, new DocketError("NOT_FOUND", `no page ${req.method} ${req.originalUrl.split("?")[0]}`)),
  );
  return { close: () => recent?.close() };
}

/** Empty form fields are absent ones. */
const optional = <T extends z.ZodType>(t: T) => z.preprocess((v) => (v === "" ? undefined : v), t.optional());

/** A page's cursor, as list_cases and the histories take it (the one cursor format). */
const cursor = optional(z.string().max(64).regex(new RegExp(CURSOR_PATTERN), "not a cursor: follow the page's links"));

const historyQuery = z.object({ cursor, limit: z.coerce.number().int().min(1).max(100).default(20) });

const casesQuery = z.object({
  state: optional(z.enum(CASE_STATES as [string, ...string[]])),
  party: optional(address("Party")),
  judge: optional(address("Judge")),
  court: optional(z.string().regex(/^\d{1,10}$/)),
  q: optional(z.string().max(200)).transform((v) => v?.trim() || undefined),
  cursor,
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

const jobsQuery = z.object({
  state: optional(z.enum(JOB_STATES as [string, ...string[]])),
  cursor,
  limit: z.coerce.number().int().min(1).max(100).default(20),
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
});

/** What a person is told about a field of a page's address or form they got wrong (never a schema's words). */
const FIELD_HELP: Record<string, (typed: string) => string> = {
  address: (v) =>
    `"${v}" is not an address: an address is 0x and 40 hexadecimal digits (all in one case, or with its checksum).`,
  party: (v) => `No party "${v}": give an address (0x and 40 hexadecimal digits) or the name of a registered agent.`,
  judge: (v) => `No judge "${v}": give an address (0x and 40 hexadecimal digits) or the name of a registered agent.`,
  state: (v) => `"${v}" is not a state a case or a job can be in: pick one from the list.`,
  court: (v) => `"${v}" is not a court: pick one from the list.`,
  id: (v) => `"${v}" is not a number: a job and a court are numbered 1, 2, 3…`,
  cursor: () => "This page's link is broken or out of date: start again from the newest.",
  limit: () => "A page shows 1 to 100 rows.",
  offset: () => "That page is not one the list has: start again from the newest.",
  q: () => "Words of the claim: at most 200 characters.",
};

function parse<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const e = validationError(r.error, raw);
  const issue = r.error.issues[0];
  const field = String(issue?.path[0] ?? "");
  const typed = raw && typeof raw === "object" ? (raw as Record<string, unknown>)[field] : undefined;
  const help = FIELD_HELP[field];
  throw new DocketError(e.code, help ? help(String(typed ?? "").slice(0, 80)) : e.message, e.details);
}

/** A person's error page: a title and what to do, from any error (a schema's or a contract's words never shown alone). */
export function humanError(e: DocketError): { title: string; message: string; hint: string } {
  const d = e.details ?? {};
  switch (e.code) {
    case "COURT_NOT_FOUND":
      return { title: "No such court", message: `There is no court ${String(d.court ?? "")}.`, hint: "courts" };
    case "CASE_NOT_FOUND":
      return {
        title: "No such case",
        message: `No case was filed at ${String(d.address ?? "this address")}.`,
        hint: "search",
      };
    case "JOB_NOT_FOUND":
      return { title: "No such job", message: `There is no job ${String(d.job ?? "")}.`, hint: "search" };
    case "NOT_FOUND":
      return { title: "Not found", message: "There is no page at this address.", hint: "search" };
  }
  if (e.code === "INDEX_UNAVAILABLE")
    return {
      title: "Needs docket's index",
      message: "This page needs docket's index, which is not available here.",
      hint: "index",
    };
  if (e.status >= 500)
    return {
      title: "Something went wrong",
      message: "docket could not show this page just now. Try again in a moment.",
      hint: "retry",
    };
  return { title: "Check what you asked for", message: e.message, hint: "search" };
}

/** Agents by name (registration order, the first 1000), each name lowercased: the search box's and the filters' names. */
async function agentsNamed(reads: Reads, name: string): Promise<string[]> {
  const want = name.trim().toLowerCase();
  const found: string[] = [];
  for (let offset = 0; offset < 1000; offset += 100) {
    const page = await reads.get<{ total: number; agents: { address: string; name: string }[] }>("discover_agents", {
      offset,
      limit: 100,
    });
    for (const a of page.agents) if (a.name.trim().toLowerCase() === want) found.push(a.address);
    if (offset + 100 >= page.total) break;
  }
  return found;
}

/** Filters given as an agent's name instead of an address: the agent's address (the name alone when none matches). */
async function byName(reads: Reads, query: Record<string, unknown>, fields: string[]): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const f of fields) {
    const v = query[f];
    if (typeof v !== "string" || v.trim() === "" || address("").safeParse(v).success) continue;
    const [first] = await agentsNamed(reads, v);
    if (first) out[f] = first;
  }
  return out;
}

/** Where the search box sends `q`: the page of what it names, or the cases whose claim holds its words. */
async function search(reads: Reads, q: string, jobs: boolean): Promise<string> {
  if (q === "") return "/";
  const a = address("").safeParse(q);
  if (a.success) {
    const found = await reads.case(a.data).then(
      () => true,
      (err) => (err instanceof DocketError && err.code === "CASE_NOT_FOUND" ? false : Promise.reject(err)),
    );
    if (found) return `${EXPLORER}/cases/${a.data}`;
    const agent = await reads.agent(a.data);
    if (agent) return `${EXPLORER}/agents/${a.data}`;
    const stake = await reads.get<{ staked: string }>("get_judge_stake", { address: a.data }).catch(() => null);
    return `${EXPLORER}/${stake && stake.staked !== "0" ? "judges" : "agents"}/${a.data}`;
  }
  if (/^#?\d{1,15}$/.test(q) && jobs) return `${EXPLORER}/jobs/${q.replace("#", "")}`;
  const [agent] = await agentsNamed(reads, q);
  if (agent) return `${EXPLORER}/agents/${agent}`;
  return `${EXPLORER}/cases?${new URLSearchParams({ q: q.slice(0, 200) })}`;
}
