import type { AgentBody } from "../operations/agents/agent.js";
import { cidOf, unframe } from "./evidence.js";
import { type CasesPage, casesPage } from "./pages.js";
import type { Reads, SameData } from "./reads.js";

/**
 * The courts' pages, shown when docket serves the courts' reads (`GET /courts`, `GET
 * /courts/{id}`). A court's parameters are shown as the API answers them, field by field; its
 * policy, a document on IPFS, is read through docket's evidence route and shown as text.
 */

export interface CourtSummary {
  id: number | string;
  name: string;
  parent?: { id: number; name: string } | null;
  children?: { id: number; name: string }[];
  [field: string]: unknown;
}

export interface CourtsPage {
  courts: CourtSummary[];
  same: SameData;
}

/** Every court, when the courts' list is served; null when it is not. */
export async function courtList(reads: Reads): Promise<CourtSummary[] | null> {
  if (!reads.op("list_courts")) return null;
  const body = await reads.get<{ courts?: CourtSummary[] } | CourtSummary[]>("list_courts");
  return Array.isArray(body) ? body : (body.courts ?? []);
}

export async function courtsPage(reads: Reads): Promise<CourtsPage> {
  return { courts: (await courtList(reads)) ?? [], same: { json: "/courts", mcp: opName(reads, "list_courts") } };
}

export interface CourtPage {
  court: CourtSummary;
  /** The fields shown as they come (parameters and the rest), the id and name apart. */
  fields: [string, unknown][];
  policy: { cid: string | null; href: string | null; text: string | null };
  pool: {
    minimumStake: string;
    judges: { address: string; staked: string; eligible: boolean; stakeInCourt?: string; eligibleInCourt?: boolean }[];
  } | null;
  names: Map<string, AgentBody | null>;
  cases: CasesPage;
  same: SameData;
}

export async function courtPage(reads: Reads, id: string): Promise<CourtPage> {
  if (!reads.op("get_court")) throw new Error("courts are not served");
  const key = /^\d+$/.test(id) ? Number(id) : id;
  const body = await reads.get<{ court?: CourtSummary } & CourtSummary>("get_court", { id: key });
  const court = body.court ?? body;
  const [pool, cases] = await Promise.all([
    reads.op("get_judge_pool")
      ? reads.get<NonNullable<CourtPage["pool"]>>("get_judge_pool", { court: court.id })
      : null,
    casesPage(reads, { court: String(court.id), limit: 20, offset: 0 }),
  ]);
  const names = await reads.names((pool?.judges ?? []).map((j) => j.address));
  const apart = new Set(["id", "name", "policy", "parent", "children"]);
  const fields = Object.entries(court).filter(([k]) => !apart.has(k));
  const policy = policyOf(court);
  // The policy is a document on IPFS: read, checked against its CID, through the evidence read.
  if (policy.cid && !policy.text && reads.op("get_evidence")) {
    const doc = await reads.get<{ text?: string }>("get_evidence", { cid: policy.cid }).catch(() => null);
    policy.text = unframe(doc?.text ?? null);
  }
  return {
    court,
    fields,
    policy,
    pool,
    names,
    cases,
    same: { json: reads.route("get_court", { id: court.id }), mcp: opName(reads, "get_court") },
  };
}

/** The court's policy: its CID (a field named for it, at any depth) and its text when the answer carries it. */
function policyOf(court: Record<string, unknown>): CourtPage["policy"] {
  let cid: string | null = null;
  let text: string | null = null;
  const walk = (v: unknown, key: string) => {
    if (typeof v === "string" && /policy/i.test(key)) {
      if (cidOf(v) && !cid) cid = cidOf(v);
      else if (/text/i.test(key) && !text) text = v;
    } else if (v && typeof v === "object") {
      for (const [k, x] of Object.entries(v)) walk(x, /policy/i.test(key) ? `${key}.${k}` : k);
    }
  };
  walk(court, "");
  return { cid, href: cid ? `/evidence/${cid}` : null, text };
}

function opName(reads: Reads, name: string): string {
  return reads.op(name)?.name ?? "";
}
