import type { Address } from "viem";
import { readChainTime } from "../../chain/reads/core.js";
import { type EventFilter, matches } from "../../events/types.js";
import {
  type ActiveWebhook,
  activeWebhooks,
  type DueDelivery,
  delivered,
  disable,
  dueDeliveries,
  enqueue,
  failed,
  type NewDelivery,
  startAttempt,
} from "../../index/queries/deliveries.js";
import { openCasesOf } from "../../index/queries/due.js";
import { eventsAfter } from "../../index/queries/events.js";
import type { Logger } from "../../log.js";
import { firstLine, post } from "../../webhooks/send.js";
import { caseActionsFor } from "../cases/actions.js";
import { courtsOf } from "../courts/court.js";
import type { Ctx } from "../kernel/operation.js";

/** What the operator sets (docs/configuration.md, WEBHOOKS_*). */
export interface WorkerSettings {
  /** How often the worker looks for new events, reminders and retries due. */
  pollMs: number;
  /** How long an endpoint has to answer one delivery. */
  timeoutMs: number;
  /** Deliveries in flight to one webhook at most. */
  concurrency: number;
  /** Deliveries started per second at most, over every webhook. */
  perSecond: number;
  /** How long a delivery is retried, and how long a webhook may fail throughout before it is disabled. */
  retryForMs: number;
  allowPrivate: boolean;
  dnsServers?: readonly string[];
}

/** The first retry's delay; each next one doubles, up to MAX_DELAY_MS, with jitter. */
const FIRST_DELAY_MS = 5_000;
const MAX_DELAY_MS = 6 * 3_600_000;
/** Event pages read per webhook cursor per tick (a long backlog is enqueued over a few ticks). */
const PAGES_PER_TICK = 10;
const PAGE = 200;

/**
 * The delay before retry `n` (1 after the first failure): 5 s doubled n-1 times, at most six hours,
 * then "equal jitter" (half of it fixed, half random), so endpoints that failed together are not
 * retried in step. Over the three days a delivery is retried, that is some twenty attempts.
 */
export function retryDelay(n: number, random = Math.random): number {
  const d = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, n - 1));
  return Math.round(d / 2 + random() * (d / 2));
}

/**
 * The webhook deliveries (docs/webhooks.md): on the replica that writes the index, every tick it
 * enqueues what the event log holds past each active webhook's cursor that its filter takes, the
 * reminders whose lead time has come, and sends what is due, each delivery signed to the Standard
 * Webhooks spec, retried with backoff for three days. Everything it knows is in the store, so a
 * restart, a `kill -9` or a failover to another replica resumes where it was: a delivery cut short is
 * sent again (at least once; its `webhook-id` lets the receiver drop the repeat).
 */
export class WebhookWorker {
  /** The worker's clock (ms): schedules, retries and reminders run on it. A test may move it. */
  clock: () => number = Date.now;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private stopped = false;
  private readonly inFlight = new Map<string, number>();
  private readonly sending = new Map<string, Promise<void>>();
  private window = { start: 0, sent: 0 };

  constructor(
    private readonly ctx: Ctx,
    private readonly settings: WorkerSettings,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.settings.pollMs);
    this.timer.unref();
    this.kick();
  }

  /** Runs a tick now, or once more after the one running. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.tick()
      .catch((err) => this.log.warn({ err: firstLine(err) }, "webhooks: a tick failed; the next one retries"))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  /** One pass: enqueue events and reminders, start what is due. Only the index's writer delivers. */
  async tick(): Promise<void> {
    const index = this.ctx.index;
    if (!index?.writer || this.stopped) return;
    const db = index.db;
    const hooks = await activeWebhooks(db);
    if (hooks.length === 0) return;
    const now = new Date(this.clock());
    await this.enqueueEvents(hooks, now);
    await this.enqueueReminders(hooks, now);
    await this.dispatch(now);
  }

  /** One pass now, and until what it started has ended (tests count passes rather than wait on time). */
  async pass(): Promise<void> {
    this.kick();
    await this.settle();
  }

  /** Until nothing is in flight (tests; close). */
  async settle(): Promise<void> {
    while (this.running || this.sending.size > 0) {
      await Promise.all([this.running, ...this.sending.values()]);
    }
  }

  async close(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    // In-flight sends end within their timeout; what they leave undone is retried after a restart.
    await Promise.race([this.settle(), new Promise((r) => setTimeout(r, this.settings.timeoutMs + 1_000).unref())]);
  }

  private async enqueueEvents(hooks: ActiveWebhook[], now: Date): Promise<void> {
    const db = this.ctx.index?.db;
    if (!db) return;
    const byCursor = new Map<number, ActiveWebhook[]>();
    for (const h of hooks) byCursor.set(h.cursor, [...(byCursor.get(h.cursor) ?? []), h]);
    for (const [start, group] of byCursor) {
      let cursor = start;
      for (let p = 0; p < PAGES_PER_TICK; p++) {
        const page = await eventsAfter(db, cursor, PAGE);
        if (page.next === undefined) break;
        const rows: NewDelivery[] = [];
        // One body per event, whichever webhooks take it.
        const bodies = page.events.map((e) => JSON.stringify({ type: e.type, timestamp: now.toISOString(), data: e }));
        for (const h of group) {
          const f = filterOf(h);
          page.events.forEach((e, i) => {
            if (matches(e, f)) {
              rows.push({ webhookId: h.id, eventId: page.keys[i] as number, type: e.type, body: bodies[i] as string });
            }
          });
        }
        await enqueue(db, rows, now, { ids: group.map((h) => h.id), from: cursor, to: page.next });
        cursor = page.next;
        if (page.events.length < PAGE) break;
      }
    }
  }

  /**
   * The reminders whose time has come, for each webhook with lead times: the required actions of
   * its address (a vote, a reveal, an answer) within the lead of their deadline (the nearest lead
   * passed: one reminder per lead reached), and the keeper actions a passed deadline opened on its
   * cases (a default, a resolution, a settlement). On chain time, as the node reads it for the next
   * call: deadlines are the chain's, and a dev chain's may stand hours away from the wall clock.
   */
  private async enqueueReminders(hooks: ActiveWebhook[], now: Date): Promise<void> {
    const db = this.ctx.index?.db;
    const reminding = hooks.filter((h) => h.reminders.length > 0);
    if (!db || reminding.length === 0) return;
    const t = Number(await readChainTime(this.ctx.chain));
    const courts = await courtsOf(this.ctx);
    const byAddress = new Map<string, ActiveWebhook[]>();
    for (const h of reminding) {
      const a = (h.filter.address ?? h.owner).toLowerCase();
      byAddress.set(a, [...(byAddress.get(a) ?? []), h]);
    }
    const rows: NewDelivery[] = [];
    for (const [who, group] of byAddress) {
      for (const c of await openCasesOf(db, who as Address)) {
        const acts = caseActionsFor(c.status, who as Address, BigInt(t), courts);
        for (const h of group) {
          if (h.filter.case && h.filter.case.toLowerCase() !== c.address.toLowerCase()) continue;
          for (const a of acts.actions) {
            const base = {
              address: who,
              case: acts.case,
              state: acts.state,
              round: acts.round,
              operation: a.operation,
              http: a.http,
              as: a.as,
              required: a.required,
              deadline: a.deadline,
              chainTime: t,
              description: a.description,
            };
            if (a.as === "anyone") {
              // A keeper action a deadline opened (the draw's randomness is not a deadline).
              if (a.operation.startsWith("assign_judges")) continue;
              const type = "reminder.overdue";
              const key = `${acts.case}:${a.operation}:round${acts.round}:${acts.state}`;
              rows.push({ webhookId: h.id, reminderKey: key, type, body: reminderBody(type, now, base) });
              continue;
            }
            if (!a.required || a.deadline === null || a.deadline <= t) continue;
            const left = a.deadline - t;
            const reached = h.reminders.filter((lead) => left <= lead);
            if (reached.length === 0) continue;
            const lead = Math.min(...reached);
            const type = "reminder.due";
            const key = `${acts.case}:${a.operation}:${a.deadline}:${lead}`;
            rows.push({
              webhookId: h.id,
              reminderKey: key,
              type,
              body: reminderBody(type, now, { ...base, secondsLeft: left, leadSeconds: lead }),
            });
          }
        }
      }
    }
    if (rows.length > 0) await enqueue(db, rows, now);
  }

  /** Starts the deliveries due, within the per-webhook concurrency and the per-second budget. */
  private async dispatch(now: Date): Promise<void> {
    const db = this.ctx.index?.db;
    if (!db) return;
    const t = performance.now();
    if (t - this.window.start >= 1_000) this.window = { start: t, sent: 0 };
    const budget = this.settings.perSecond - this.window.sent;
    if (budget <= 0) return;
    const full = [...this.inFlight].filter(([, n]) => n >= this.settings.concurrency).map(([id]) => id);
    const due = await dueDeliveries(db, now, budget + this.sending.size, full);
    for (const d of due) {
      if (this.window.sent >= this.settings.perSecond) break;
      if (this.sending.has(d.id)) continue;
      if ((this.inFlight.get(d.webhookId) ?? 0) >= this.settings.concurrency) continue;
      this.window.sent++;
      this.inFlight.set(d.webhookId, (this.inFlight.get(d.webhookId) ?? 0) + 1);
      const sent = this.deliver(d, now).finally(() => {
        this.sending.delete(d.id);
        const n = (this.inFlight.get(d.webhookId) ?? 1) - 1;
        if (n <= 0) this.inFlight.delete(d.webhookId);
        else this.inFlight.set(d.webhookId, n);
        // Room for the next one: look again now rather than at the next tick.
        this.kick();
      });
      this.sending.set(d.id, sent);
    }
  }

  private async deliver(d: DueDelivery, now: Date): Promise<void> {
    const db = this.ctx.index?.db;
    if (!db) return;
    const attempt = d.attempts + 1;
    await startAttempt(db, d.id, now, new Date(now.getTime() + retryDelay(attempt)));
    let outcome: { status: number | null; error: string };
    try {
      const answer = await post({
        url: d.url,
        secret: d.secret,
        msgId: d.id,
        body: d.body,
        timeoutMs: this.settings.timeoutMs,
        allowPrivate: this.settings.allowPrivate,
        dnsServers: this.settings.dnsServers,
      });
      if (answer.status >= 200 && answer.status <= 299) {
        await delivered(db, { id: d.id, webhookId: d.webhookId }, answer.status, new Date(this.clock()));
        return;
      }
      outcome = { status: answer.status, error: `the endpoint answered ${answer.status}` };
    } catch (err) {
      outcome = { status: null, error: firstLine(err) };
    }
    const at = new Date(this.clock());
    const giveUp = at.getTime() - d.createdAt.getTime() >= this.settings.retryForMs;
    const since = await failed(db, { id: d.id, webhookId: d.webhookId }, outcome, at, giveUp);
    if (at.getTime() - since.getTime() >= this.settings.retryForMs) {
      const hours = Math.round(this.settings.retryForMs / 3_600_000);
      const reason = `every delivery failed for ${hours} hours (since ${since.toISOString()}; the last: ${outcome.error}). Fix the endpoint, then verify_webhook turns it on again.`;
      await disable(db, d.webhookId, reason);
      this.log.warn({ webhook: d.webhookId, reason }, "webhooks: disabled a failing webhook");
    }
  }
}

function filterOf(h: ActiveWebhook): EventFilter {
  return { address: h.filter.address, case: h.filter.case, types: h.filter.types };
}

function reminderBody(type: string, now: Date, data: Record<string, unknown>): string {
  return JSON.stringify({ type, timestamp: now.toISOString(), data });
}
