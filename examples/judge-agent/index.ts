/**
 * A reference judge agent: it waits to be drawn, reads the case, its evidence and its court's
 * policy, decides (see ./decide.ts), votes with its own wallet (on the General court one public
 * vote) and, on a hidden-vote court (Agentic Commerce), reveals its vote when the reveal phase opens. docket pushes it the work (`GET /events` filtered by its address) and its
 * inbox (`GET /agent/{address}/inbox`) says what is due; docket never sees its key or its salts.
 *
 *   PRIVATE_KEY=0x... npx tsx examples/judge-agent/index.ts                # serve until stopped
 *   PRIVATE_KEY=0x... npx tsx examples/judge-agent/index.ts --until-idle   # exit once nothing is left to do
 *   PRIVATE_KEY=0x... npx tsx examples/judge-agent/index.ts --once         # one pass over the inbox
 *
 * DOCKET_URL (default http://127.0.0.1:8787); the JSON-RPC URL comes from RPC_URL, or from docket's
 * /health on the dev chain; INBOX_POLL_MS (default 30 000) rereads the inbox even without events,
 * since deadlines pass without any. Prints one JSON line per step on stdout.
 *
 * From webhooks instead of a stream (./webhooks.ts, docs/webhooks.md): WEBHOOK_PORT (0: any free
 * port) runs an endpoint on WEBHOOK_HOST (default 127.0.0.1), reachable by docket at
 * WEBHOOK_PUBLIC_URL (default: the address listened on), and subscribes to the judge's events and to
 * reminders before its deadlines; a delivery wakes it as an event does. Its webhook is deleted when
 * it exits.
 */
import { type Hex, keccak256 } from "viem";
import { connectWallet } from "../wallet.js";
import {
  type CaseRecord,
  type CourtRecord,
  type Decide,
  type Decision,
  type Evidence,
  weighEvidence,
} from "./decide.js";
import { followEvents } from "./events.js";
import { type Subscription, subscribe } from "./webhooks.js";

/** The judgement: replace with your own `Decide` (an LLM: see the end of ./decide.ts). */
const decide: Decide = weighEvidence;

const DOCKET = process.env.DOCKET_URL ?? "http://127.0.0.1:8787";
const POLL_MS = Number(process.env.INBOX_POLL_MS ?? 30_000);
const { chain, account, wallet, reader } = await connectWallet(DOCKET, "a judge's dev account key");
const me = account.address;

function log(step: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(`${JSON.stringify({ at: new Date().toISOString(), judge: me, step, ...fields })}\n`);
}

interface Action {
  operation: string;
  http: string;
  as: string;
  required: boolean;
  deadline: number | null;
}
interface InboxCase {
  case: string;
  state: string;
  round: number;
  roles: string[];
  actions: Action[];
}
interface DocketError {
  error: { code: string; message: string; details?: { reason?: string } };
}

/** Gas added to each estimate: enough for the verdict and the court's ERC-8004 outcome hook (600k). */
const DECIDING_HEADROOM = 1_000_000n;

async function get<T>(path: string): Promise<T> {
  const res = await fetch(DOCKET + path);
  if (!res.ok) throw new Error(`GET ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** Every case of the inbox, page after page. */
async function inbox(): Promise<InboxCase[]> {
  const cases: InboxCase[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await get<{ total: number; cases: InboxCase[] }>(`/agent/${me}/inbox?limit=100&offset=${offset}`);
    cases.push(...page.cases);
    if (offset + 100 >= page.total) return cases;
  }
}

const readCase = async (c: string) => (await get<{ case: CaseRecord }>(`/cases/${c}`)).case;
const myVote = (c: CaseRecord) => c.votes.find((v) => v.judge.toLowerCase() === me.toLowerCase())?.vote ?? null;

/**
 * Asks docket for the transaction of one write (`from` = us, so a refusal comes back before any
 * gas is spent), signs it, sends it and waits for it to be mined. Returns docket's answer, or its
 * error envelope when it refused.
 */
async function write(
  c: string,
  route: string,
  body: Record<string, unknown>,
): Promise<{ ok: true; answer: Record<string, unknown> } | { ok: false; refusal: DocketError["error"] }> {
  const [method, path] = route.split(" ");
  const res = await fetch(DOCKET + path, {
    method,
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ ...body, from: me }),
  });
  const answer = (await res.json()) as Record<string, unknown> & Partial<DocketError>;
  if (!res.ok || !answer.unsigned_tx) {
    return { ok: false, refusal: answer.error ?? { code: String(res.status), message: "no unsigned_tx" } };
  }
  const tx = answer.unsigned_tx as { to: Hex; value: string; data: Hex; chainId: number };
  // A wallet signs for the chain it expects, never for the one a server names.
  if (tx.chainId !== chain.id) throw new Error(`docket built a transaction for chain ${tx.chainId}, not ${chain.id}`);
  // Headroom over the estimate: another judge's reveal landing first can make ours the one that
  // decides the case, and a deciding transaction also pays the court's ERC-8004 outcome hook.
  const estimate = await reader.estimateGas({
    account: wallet.account,
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value),
  });
  const hash = await wallet.sendTransaction({
    to: tx.to,
    data: tx.data,
    value: BigInt(tx.value),
    gas: estimate + DECIDING_HEADROOM,
  });
  const { status } = await reader.waitForTransactionReceipt({ hash });
  log("tx", { case: c, route, hash, status });
  if (status !== "success") throw new Error(`${route}: transaction ${hash} reverted`);
  return { ok: true, answer };
}

/** Reads the case back until it shows what our transaction did (the cache catches up within a follower poll). */
async function confirm(c: string, done: (rec: CaseRecord) => boolean): Promise<void> {
  for (let i = 0; i < 40; i++) {
    const rec = await readCase(c);
    if (done(rec)) {
      log("confirmed", { case: c, state: rec.state, myVote: myVote(rec), outcome: rec.outcome });
      return;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  log("unconfirmed", { case: c });
}

/**
 * The salt that hides our vote, derived from our key (a deterministic signature), so docket never
 * learns it and a restarted agent finds it again without any file.
 */
async function saltFor(c: string, round: number): Promise<Hex> {
  return keccak256(await account.signMessage({ message: `docket vote salt: case ${c.toLowerCase()} round ${round}` }));
}

/** Justifications are stored on chain, at most 512 bytes of UTF-8. */
function cut(s: string): string {
  const b = Buffer.from(s, "utf8");
  return b.length <= 512
    ? s
    : b
        .subarray(0, 509)
        .toString("utf8")
        .replace(/\uFFFD$/, "") + "...";
}

/** What we decided per case and round: kept for the reveal (a restart decides again; see reveal). */
const decisions = new Map<string, Decision>();
/** Actions done or given up on in this run, so a stale inbox never makes us repeat them. */
const settled = new Set<string>();
const keyOf = (c: string, round: number, op: string) => `${c.toLowerCase()}:${round}:${op}`;

/** Courts change only by their owner's hand: each is read once per run. */
const courts = new Map<number, Promise<CourtRecord>>();
function courtOf(id: number): Promise<CourtRecord> {
  let c = courts.get(id);
  if (!c) {
    c = get<{ court: CourtRecord }>(`/courts/${id}`).then((r) => r.court);
    courts.set(id, c);
  }
  return c;
}

async function judge(c: string, round: number): Promise<{ rec: CaseRecord; decision: Decision }> {
  const rec = await readCase(c);
  const { evidence } = await get<{ evidence: Evidence[] }>(`/cases/${c}/evidence`);
  // Decided under the rules of the case's court: its policy is what a judge there applies.
  const d = await decide(rec, evidence, await courtOf(rec.court.id));
  const decision = { plaintiffWins: d.plaintiffWins, justification: cut(d.justification) };
  decisions.set(keyOf(c, round, "decision"), decision);
  log("decision", { case: c, round, claim: rec.claimDescription, evidence: evidence.length, ...decision });
  return { rec, decision };
}

/** vote_on_case: a public vote, or the commit of a hidden one with our own salt. */
async function vote(item: InboxCase, action: Action): Promise<void> {
  const { rec, decision: d } = await judge(item.case, item.round);
  const hidden = rec.hiddenVotes;
  const body: Record<string, unknown> = { plaintiff_wins: d.plaintiffWins };
  if (hidden) body.salt = await saltFor(item.case, item.round);
  const r = await write(item.case, action.http, body);
  if (!r.ok) return refused(item, action, r.refusal);
  log(hidden ? "committed" : "voted", { case: item.case, round: item.round, plaintiffWins: d.plaintiffWins });
  await confirm(item.case, (after) => myVote(after) !== null || after.state !== "Deliberating");
}

/** reveal_vote: the vote and salt of our commit, with our reasons. */
async function reveal(item: InboxCase, action: Action): Promise<void> {
  const salt = await saltFor(item.case, item.round);
  const d = decisions.get(keyOf(item.case, item.round, "decision")) ?? (await judge(item.case, item.round)).decision;
  let plaintiffWins = d.plaintiffWins;
  let r = await write(item.case, action.http, {
    plaintiff_wins: d.plaintiffWins,
    salt,
    justification: d.justification,
  });
  // After a restart a model may decide otherwise than it committed: the salt is ours, so the
  // commitment matches the other vote; docket's simulation said so before any gas was spent.
  if (!r.ok && r.refusal.details?.reason === "CommitmentMismatch") {
    plaintiffWins = !d.plaintiffWins;
    log("commitment_mismatch", { case: item.case, revealing: plaintiffWins });
    r = await write(item.case, action.http, {
      plaintiff_wins: plaintiffWins,
      salt,
      justification: "The reasons of this vote were not kept when the judge restarted.",
    });
  }
  if (!r.ok) return refused(item, action, r.refusal);
  log("revealed", { case: item.case, round: item.round, plaintiffWins });
  await confirm(
    item.case,
    (after) => (myVote(after) !== "committed" && myVote(after) !== null) || after.state !== "Deliberating",
  );
}

/** docket refused (another judge's vote decided the case meanwhile, a commit that was not ours...): move on. */
function refused(item: InboxCase, action: Action, e: DocketError["error"]): void {
  log("refused", {
    case: item.case,
    operation: action.operation,
    code: e.code,
    reason: e.details?.reason,
    message: e.message,
  });
}

const steps: Record<string, (item: InboxCase, action: Action) => Promise<void>> = {
  vote_on_case: vote,
  reveal_vote: reveal,
};

/**
 * One pass over the inbox: every judge action due now, most urgent first (the inbox's order).
 * Returns whether anything is still ours to do later: a commit of ours not yet revealed.
 */
async function pass(): Promise<boolean> {
  const cases = await inbox();
  let pending = false;
  for (const item of cases) {
    for (const action of item.actions) {
      const step = steps[action.operation];
      const k = keyOf(item.case, item.round, action.operation);
      if (action.as !== "judge" || !step || settled.has(k)) continue;
      log("action", { case: item.case, operation: action.operation, deadline: action.deadline });
      settled.add(k);
      await step(item, action).catch((err: Error) => {
        // Not refused, failed (the node, the network): try again on the next wake-up.
        settled.delete(k);
        log("error", { case: item.case, operation: action.operation, message: err.message });
      });
    }
    if (
      item.roles.includes("judge") &&
      item.state === "Deliberating" &&
      !settled.has(keyOf(item.case, item.round, "reveal_vote"))
    ) {
      pending ||= myVote(await readCase(item.case)) === "committed";
    }
  }
  return pending;
}

const untilIdle = process.argv.includes("--until-idle");
let hooks: Subscription | undefined;
let running = false;
let again = false;

/** Runs a pass now, or once more right after the one under way: wake-ups never overlap. */
function wake(reason: string): void {
  if (running) {
    again = true;
    return;
  }
  running = true;
  void (async () => {
    do {
      again = false;
      const pending = await pass().catch((err: Error) => {
        log("error", { reason, message: err.message });
        return true;
      });
      if (untilIdle && !pending && !again) {
        log("idle");
        await hooks?.close();
        process.exit(0);
      }
    } while (again);
    running = false;
  })();
}

log("start", { docket: DOCKET, chainId: chain.id });
if (process.argv.includes("--once")) {
  await pass();
  process.exit(0);
} else if (process.env.WEBHOOK_PORT !== undefined) {
  // The webhook first, then the first read of the inbox: no event falls between.
  hooks = await subscribe({
    docket: DOCKET,
    account,
    port: Number(process.env.WEBHOOK_PORT),
    host: process.env.WEBHOOK_HOST ?? "127.0.0.1",
    publicUrl: process.env.WEBHOOK_PUBLIC_URL,
    reminders: [3_600, 300],
    delivered: (d) => {
      log("delivery", { type: d.type, case: d.data.case ?? null, id: d.id });
      wake(d.type);
    },
  });
  log("subscribed", { url: hooks.url });
  wake("subscribed");
  setInterval(() => wake("timer"), POLL_MS);
} else {
  // The stream first, then the first read of the inbox (on connecting): no event falls between.
  followEvents(`${DOCKET}/events?address=${me}`, {
    connected: () => wake("connected"),
    event: (e) => {
      log("event", { type: e.type, case: e.case ?? null, id: e.id });
      wake(e.type);
    },
    lost: (message) => log("stream_lost", { message }),
  });
  setInterval(() => wake("timer"), POLL_MS);
}
