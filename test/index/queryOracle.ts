import type { Kysely } from "kysely";
import type { Address } from "viem";
import { PUSHED_AS } from "../../src/events/types.js";
import { type CaseFilter, findCases } from "../../src/index/queries/cases.js";
import { deliberatingPage, openCasesOf } from "../../src/index/queries/due.js";
import { eventsAfter } from "../../src/index/queries/events.js";
import { agentHistory, judgeHistory } from "../../src/index/queries/histories.js";
import { caseTimeline } from "../../src/index/queries/timeline.js";
import type { StoreSchema } from "../../src/store/schema.js";
import type { CaseKey, IndexImage } from "./fullScan.js";

/**
 * Every query the index answers, held against what a full chain scan says its answer must be
 * (issue #34's differential test): the case lists under each filter (party, judge, state, court,
 * words of the claim, two combined) read page by page through their cursors, every case's
 * timeline, every address's inbox cases, agent history and judge history, the validation queue and
 * the resumable event log. The expected answers are worked out here from the scan's image alone
 * (fullScan.ts), not from the index's code: its order (newest filing first) from the filings' place
 * in the chain, its sets from the chain's own views. Gives one line per difference.
 */
export async function compareQueries(db: Kysely<StoreSchema>, chain: IndexImage, max = 30): Promise<string[]> {
  const diff: string[] = [];
  const say = (line: string) => {
    if (diff.length < max) diff.push(line);
  };
  const filing = new Map<string, number>();
  chain.events.forEach((e, i) => {
    if (e.name === "CaseFiled" && e.case_address && !filing.has(e.case_address)) filing.set(e.case_address, i);
  });
  const newestFirst = (cases: CaseKey[]) =>
    [...cases].sort((a, b) => (filing.get(b.address) ?? -1) - (filing.get(a.address) ?? -1)).map((c) => c.address);
  const seatsOf = (c: CaseKey, who: string, role?: string) =>
    c.participants.filter((p) => {
      const [a, r] = p.split(":");
      return a === who && (role === undefined || r === role);
    });
  const same = (label: string, got: unknown, want: unknown) => {
    const g = JSON.stringify(got);
    const w = JSON.stringify(want);
    if (g !== w) say(`${label}: index ${g}, chain ${w}`);
  };

  /** Every page of a filtered list, 2 at a time, so the cursors are walked too. */
  async function listAll(filter: CaseFilter) {
    const seen: string[] = [];
    let cursor: string | undefined;
    let total = -1;
    for (let pages = 0; pages < 1_000; pages++) {
      const page = await findCases(db, filter, { limit: 2, ...(cursor ? { cursor } : {}) });
      total = page.total;
      seen.push(...page.items.map((i) => i.address));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    return { total, seen };
  }
  async function checkList(label: string, filter: CaseFilter, want: CaseKey[]) {
    const { total, seen } = await listAll(filter);
    same(`list_cases ${label}`, seen, newestFirst(want));
    same(`list_cases ${label} total`, total, want.length);
  }

  const parties = [...new Set(chain.cases.flatMap((c) => [c.plaintiff, c.defendant]))].sort();
  const judges = [
    ...new Set(
      chain.cases.flatMap((c) => c.participants.filter((p) => p.includes(":judge:")).map((p) => p.split(":")[0])),
    ),
  ].sort() as string[];
  const everyone = [...new Set([...parties, ...judges])].sort();

  for (const p of parties) {
    await checkList(
      `party ${p}`,
      { party: p },
      chain.cases.filter((c) => c.plaintiff === p || c.defendant === p),
    );
  }
  for (const j of judges) {
    await checkList(
      `judge ${j}`,
      { judge: j },
      chain.cases.filter((c) => seatsOf(c, j, "judge").length > 0),
    );
  }
  for (const state of new Set(chain.cases.map((c) => c.state))) {
    await checkList(
      `state ${state}`,
      { state },
      chain.cases.filter((c) => c.state === state),
    );
    const p = parties[0];
    if (p) {
      await checkList(
        `party ${p} and state ${state}`,
        { party: p, state },
        chain.cases.filter((c) => c.state === state && (c.plaintiff === p || c.defendant === p)),
      );
    }
  }
  for (const court of new Set(chain.cases.map((c) => c.court_id))) {
    await checkList(
      `court ${court}`,
      { court },
      chain.cases.filter((c) => c.court_id === court),
    );
  }
  // A few words of the claims (whole words of letters: the 'simple' configuration's tokens).
  const words = [...new Set(chain.cases.flatMap((c) => c.claim.toLowerCase().match(/\b[a-z]{4,}\b/g) ?? []))]
    .sort()
    .slice(0, 5);
  const tokens = (claim: string) => new Set(claim.toLowerCase().split(/[^a-z0-9]+/));
  for (const w of words) {
    await checkList(
      `words "${w}"`,
      { q: w },
      chain.cases.filter((c) => tokens(c.claim).has(w)),
    );
  }

  // Each case's timeline: the events about the case, in chain order (rulings an arbitrator delivered
  // for it are its own kind of entry, checked by the arbitration suites).
  const rulings = new Set(["RulingDelivered", "RulingFailed"]);
  for (const c of chain.cases) {
    const t = await caseTimeline(db, c.address);
    if (!t) {
      say(`timeline ${c.address}: the index has no such case`);
      continue;
    }
    same(
      `timeline ${c.address}`,
      t.entries.filter((e) => !rulings.has(e.event)).map((e) => `${e.block}:${e.logIndex}:${e.event}`),
      chain.events
        .filter((e) => e.case_address === c.address && !rulings.has(e.name))
        .map((e) => `${e.block_number}:${e.log_index}:${e.name}`),
    );
    same(`timeline ${c.address} state`, [t.state, t.round, t.open], [c.state, c.round, c.open]);
  }

  for (const who of everyone) {
    const mine = chain.cases.filter((c) => seatsOf(c, who).length > 0);
    // The inbox's cases: every open one it takes part in, newest first.
    same(
      `inbox cases of ${who}`,
      (await openCasesOf(db, who as Address)).map((r) => r.address),
      newestFirst(mine.filter((c) => c.open)),
    );
    // Its history as an agent: every case, as party or judge, page by page.
    const history: string[] = [];
    let cursor: string | undefined;
    let total = -1;
    for (let pages = 0; pages < 1_000; pages++) {
      const page = await agentHistory(db, who, { limit: 2, ...(cursor ? { cursor } : {}) });
      total = page.total;
      history.push(...page.items.map((i) => i.case));
      if (!page.nextCursor) break;
      cursor = page.nextCursor;
    }
    same(`agent history of ${who}`, history, newestFirst(mine));
    same(`agent history of ${who} total`, total, mine.length);
  }
  for (const j of judges) {
    const rounds = (await judgeHistory(db, j, { limit: 1_000 })).rounds.map((r) => `${r.case}:${r.round}`).sort();
    const want = chain.cases
      .flatMap((c) => seatsOf(c, j, "judge").map((p) => `${c.address}:${p.split(":")[2]}`))
      .sort();
    same(`judge history of ${j}`, rounds, want);
  }

  // The validation queue: every case in Deliberating, page by page.
  const pending: string[] = [];
  let after: number[] | undefined;
  let pendingTotal = -1;
  for (let pages = 0; pages < 1_000; pages++) {
    const page = await deliberatingPage(db, 2, after);
    pendingTotal = page.total;
    pending.push(...page.rows.map((r) => r.address));
    const last = page.rows.at(-1);
    if (page.rows.length < 2 || !last) break;
    after = [Number(last.status.deliberationDeadline), last.filed_event_id];
  }
  const deliberating = chain.cases.filter((c) => c.state === "Deliberating");
  same("validation queue", pending.sort(), deliberating.map((c) => c.address).sort());
  same("validation queue total", pendingTotal, deliberating.length);

  // The event log from its start, a page at a time: every pushed event once, in chain order.
  const pushed = new Set(
    Object.entries(PUSHED_AS)
      .filter(([, type]) => type !== null)
      .map(([name]) => name),
  );
  const log: string[] = [];
  let next: number | undefined = 0;
  for (let pages = 0; next !== undefined && pages < 10_000; pages++) {
    const page: Awaited<ReturnType<typeof eventsAfter>> = await eventsAfter(db, next, 7);
    log.push(...page.events.map((e) => e.id));
    next = page.next;
  }
  same(
    "event log",
    log,
    chain.events
      .filter((e) => pushed.has(e.name))
      .map((e) => `${e.block_number}-${e.log_index}-${e.block_hash.slice(2, 10)}`),
  );
  return diff;
}
