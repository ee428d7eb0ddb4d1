import { type CompleteResult, type McpServer, ProtocolError, ProtocolErrorCode } from "@modelcontextprotocol/server";
import { operationNamed } from "../doors/kernel.js";
import { ADDRESS_RE } from "../formats.js";
import type { Ctx, Operation } from "../operations/kernel/operation.js";
import { CASE_TEMPLATE, INBOX_TEMPLATE, readThrough, servesInbox } from "./resources.js";

/** MCP caps a completion at 100 values. */
const MAX_VALUES = 100;
/** Items (cases, agents) a completion looks through at most, newest first: 10 cached pages. */
const MAX_SCANNED = 1000;
const PAGE = 100;

type Complete = (value: string, context: Record<string, string>) => Promise<string[]>;

/**
 * Whether `candidate` (an address) starts with what was typed: case-insensitive, with or without
 * the 0x.
 */
function startsWith(candidate: string, typed: string): boolean {
  const c = candidate.toLowerCase();
  const t = typed.trim().toLowerCase();
  return c.startsWith(t) || c.slice(2).startsWith(t);
}

/**
 * The addresses a paged list operation (list_cases, discover_agents) holds that match `typed`,
 * newest first, looking through at most MAX_SCANNED items. Pages are the 100-item pages at offsets
 * that are multiples of 100, the ones `resources/list` reads, so they are often already cached.
 */
async function scan(
  op: Operation,
  pick: (body: unknown) => { total: number; items: string[] },
  typed: string,
  ctx: Ctx,
): Promise<string[]> {
  const first = pick(await readThrough(op, { offset: 0, limit: PAGE }, ctx));
  const lastPage = Math.floor(Math.max(first.total - 1, 0) / PAGE) * PAGE;
  const found: string[] = [];
  for (let offset = lastPage; offset >= 0 && lastPage - offset < MAX_SCANNED; offset -= PAGE) {
    const page = offset === 0 ? first : pick(await readThrough(op, { offset, limit: PAGE }, ctx));
    for (const a of [...page.items].reverse()) if (startsWith(a, typed)) found.push(a);
    // One more than the cap tells hasMore without reading further.
    if (found.length > MAX_VALUES) break;
  }
  return found;
}

const cases = (body: unknown) => {
  const b = body as { total: number; cases: string[] };
  return { total: b.total, items: b.cases };
};
const agents = (body: unknown) => {
  const b = body as { total: number; agents: { address: string }[] };
  return { total: b.total, items: b.agents.map((a) => a.address) };
};

/**
 * `completion/complete` for the arguments that take an address, read through the cached operations:
 * a case address (the case resource's `{address}`, judge_case's `case_address`) from list_cases; a
 * judge (judge_case's `judge_address`) from the panel of the case already chosen; an inbox's address
 * from the registered agents (discover_agents): other addresses (a party that never registered) are
 * not enumerable, so they are not offered, though their inboxes can be read.
 */
export function registerCompletions(
  server: McpServer,
  ctx: Ctx,
  operations: readonly Operation[],
  served: { judgeCasePrompt: boolean },
): void {
  const listCases = operationNamed(operations, "list_cases");
  const getCase = operationNamed(operations, "get_case");
  const discover = operationNamed(operations, "discover_agents");
  const caseAddress: Complete | undefined = listCases && ((typed) => scan(listCases, cases, typed, ctx));
  const judgeAddress: Complete | undefined =
    getCase &&
    (async (typed, context) => {
      const address = context.case_address;
      if (!address || !ADDRESS_RE.test(address)) return [];
      const body = (await readThrough(getCase, { address }, ctx).catch(() => undefined)) as
        | { case: { judges: string[] } }
        | undefined;
      return (body?.case.judges ?? []).filter((j) => startsWith(j, typed));
    });
  const agentAddress: Complete | undefined = discover && ((typed) => scan(discover, agents, typed, ctx));

  // Each prompt and resource template served, with its completable arguments.
  const refs = new Map<string, Record<string, Complete | undefined>>([
    [`ref/resource ${CASE_TEMPLATE}`, { address: caseAddress }],
  ]);
  if (served.judgeCasePrompt) {
    refs.set("ref/prompt judge_case", { case_address: caseAddress, judge_address: judgeAddress });
  }
  if (servesInbox(operations)) refs.set(`ref/resource ${INBOX_TEMPLATE}`, { address: agentAddress });
  server.server.registerCapabilities({ completions: {} });
  server.server.setRequestHandler("completion/complete", async ({ params }): Promise<CompleteResult> => {
    const { ref, argument } = params;
    const what = ref.type === "ref/prompt" ? ref.name : ref.type === "ref/resource" ? ref.uri : "";
    const args = refs.get(`${ref.type} ${what}`);
    if (!args)
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `no prompt or resource template ${what} to complete`);
    const complete = args[argument.name];
    // An argument docket does not complete (free text, an amount) gets no suggestions, not an error.
    const found = complete ? await complete(argument.value, params.context?.arguments ?? {}) : [];
    return {
      completion: { values: found.slice(0, MAX_VALUES), hasMore: found.length > MAX_VALUES },
    };
  });
}
