import type { z } from "zod";
import type { AgentBody } from "../operations/agents/agent.js";
import type { getAgentHistory } from "../operations/agents/getAgentHistory.js";
import type { getJudgeHistory } from "../operations/judges/getJudgeHistory.js";
import type { judgeSchema } from "../operations/judges/judge.js";
import { EXPLORER, type Reads, type SameData, withoutIndex } from "./reads.js";

/**
 * An agent's page and a judge's page: the record the chain keeps (get_agent, get_judge_stake) and
 * the history docket's index holds (get_agent_history: its cases as party and judge and how each
 * went; get_judge_history: its votes and whether they sided with the verdict, its stake's
 * movements), a page at a time by cursor. Without the index the record stands alone, and says so.
 */

/** What the histories answer (the operations' outputs, as the API sends them). */
type AgentHistory = z.output<typeof getAgentHistory.output>;
type JudgeHistory = z.output<typeof getJudgeHistory.output>;
type AgentCase = AgentHistory["cases"][number];
type JudgeRound = JudgeHistory["rounds"][number];
type StakeMove = JudgeHistory["stakes"][number];

/** A page of a history: its entries, how many in all, and the newer and older pages' links. */
interface HistoryPage<T> {
  total: number;
  items: T[];
  pager: { newer: string | null; older: string | null };
}

type JudgeStake = z.infer<typeof judgeSchema> & { minimumStake: string; canUnstake: boolean };

export interface AgentPage {
  address: string;
  agent: AgentBody | null;
  judge: JudgeStake;
  /** Null without the index. */
  history: HistoryPage<AgentCase> | null;
  same: SameData;
}

export interface JudgePage {
  address: string;
  agent: AgentBody | null;
  judge: JudgeStake;
  /** Null without the index. */
  history: (HistoryPage<JudgeRound> & { stakes: StakeMove[] }) | null;
  same: SameData;
}

/** Which page of a history: `limit` entries after `cursor` (the newest when absent). */
export interface HistoryQuery {
  cursor?: string;
  limit: number;
}

/** The newer (first) and the older page of a history at `path`, paged by cursor. */
function pager(path: string, q: HistoryQuery, next: string | null): HistoryPage<never>["pager"] {
  const limit = String(q.limit);
  return {
    newer: q.cursor !== undefined ? `${path}?${new URLSearchParams({ limit })}` : null,
    older: next ? `${path}?${new URLSearchParams({ cursor: next, limit })}` : null,
  };
}

/** A history's input and the query string of its JSON route, for `q`. */
function inputOf(q: HistoryQuery): { input: Record<string, string | number>; search: string } {
  const at: Record<string, string> = q.cursor !== undefined ? { cursor: q.cursor } : {};
  return { input: { ...at, limit: q.limit }, search: `?${new URLSearchParams({ ...at, limit: String(q.limit) })}` };
}

/** An address's record as the chain keeps it, and a page of its history `op` from the index (null without it). */
async function recordAndHistory<H>(reads: Reads, address: string, q: HistoryQuery, op: string) {
  const { input, search } = inputOf(q);
  const [agent, judge, h] = await Promise.all([
    reads.agent(address),
    reads.get<JudgeStake>("get_judge_stake", { address }),
    withoutIndex(reads.get<H>(op, { address, ...input })),
  ]);
  return { agent, judge, h, search };
}

export async function agentPage(reads: Reads, address: string, q: HistoryQuery): Promise<AgentPage> {
  const { agent, judge, h, search } = await recordAndHistory<AgentHistory>(reads, address, q, "get_agent_history");
  const history = h && {
    total: h.total,
    items: h.cases,
    pager: pager(`${EXPLORER}/agents/${address}`, q, h.nextCursor),
  };
  const json = `/agent/${address}/history${search}`;
  return { address, agent, judge, history, same: { json, mcp: "get_agent_history" } };
}

export async function judgePage(reads: Reads, address: string, q: HistoryQuery): Promise<JudgePage> {
  const { agent, judge, h, search } = await recordAndHistory<JudgeHistory>(reads, address, q, "get_judge_history");
  const history = h && {
    total: h.total,
    items: h.rounds,
    stakes: h.stakes,
    pager: pager(`${EXPLORER}/judges/${address}`, q, h.nextCursor),
  };
  const json = `/judges/history/${address}${search}`;
  return { address, agent, judge, history, same: { json, mcp: "get_judge_history" } };
}
