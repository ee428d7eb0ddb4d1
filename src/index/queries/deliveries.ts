import { createHash } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { StoreSchema, WebhookFilter } from "../../store/schema.js";

/**
 * Webhook deliveries (migration 0008, docs/webhooks.md#retries): enqueued from the event log and the
 * reminders, sent by the worker (src/webhooks/worker.ts), one row per (webhook, subject). Every
 * write here is idempotent or guarded, so a worker killed at any moment and started again (or a
 * replica taking over) neither loses a delivery nor enqueues one twice.
 */

type Db = Kysely<StoreSchema>;

/** An active webhook as the worker reads it. */
export interface ActiveWebhook {
  id: string;
  owner: string;
  url: string;
  secret: string;
  filter: WebhookFilter;
  reminders: number[];
  cursor: number;
  failingSince: Date | null;
}

export async function activeWebhooks(db: Db): Promise<ActiveWebhook[]> {
  const rows = await db.selectFrom("webhooks").selectAll().where("status", "=", "active").execute();
  return rows.map((r) => ({
    id: r.id,
    owner: r.owner,
    url: r.url,
    secret: r.secret,
    filter: r.filter,
    reminders: r.reminders,
    cursor: Number(r.cursor_event_id),
    failingSince: r.failing_since,
  }));
}

/** A delivery to enqueue: what it is about (an event's row or a reminder's key), its type and body. */
export interface NewDelivery {
  webhookId: string;
  eventId?: number;
  reminderKey?: string;
  type: string;
  body: string;
}

/**
 * The delivery's `webhook-id`, derived from what it delivers to whom: enqueueing it again after a
 * crash gives the same id, so the receiver's de-duplication holds even across that.
 */
export function deliveryId(webhookId: string, subject: string): string {
  return `msg_${createHash("sha256").update(`${webhookId}\n${subject}`).digest("hex").slice(0, 32)}`;
}

/**
 * Enqueues deliveries (a repeat is ignored) and moves the webhooks in `advance` from cursor `from`
 * to `to`, in one transaction: a crash leaves both or neither.
 */
export async function enqueue(
  db: Db,
  deliveries: NewDelivery[],
  now: Date,
  advance?: { ids: string[]; from: number; to: number },
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    for (let i = 0; i < deliveries.length; i += 500) {
      await tx
        .insertInto("webhook_deliveries")
        .values(
          deliveries.slice(i, i + 500).map((d) => ({
            id: deliveryId(d.webhookId, d.eventId !== undefined ? `event:${d.eventId}` : `reminder:${d.reminderKey}`),
            webhook_id: d.webhookId,
            event_id: d.eventId ?? null,
            reminder_key: d.reminderKey ?? null,
            type: d.type,
            body: d.body,
            created_at: now,
            next_attempt_at: now,
            last_status: null,
            last_error: null,
            last_attempt_at: null,
            delivered_at: null,
            gave_up_at: null,
          })),
        )
        .onConflict((c) => c.doNothing())
        .execute();
    }
    if (advance && advance.ids.length > 0) {
      await tx
        .updateTable("webhooks")
        .set({ cursor_event_id: advance.to })
        .where("id", "in", advance.ids)
        .where("cursor_event_id", "=", advance.from)
        .execute();
    }
  });
}

/** A delivery due to be sent, with what sending it needs. */
export interface DueDelivery {
  id: string;
  webhookId: string;
  url: string;
  secret: string;
  body: string;
  attempts: number;
  createdAt: Date;
}

/** Deliveries due by `now` to active webhooks, oldest due first, `limit` at most, skipping `busy` webhooks. */
export async function dueDeliveries(db: Db, now: Date, limit: number, busy: string[]): Promise<DueDelivery[]> {
  let q = db
    .selectFrom("webhook_deliveries as d")
    .innerJoin("webhooks as w", "w.id", "d.webhook_id")
    .select(["d.id", "d.webhook_id", "w.url", "w.secret", "d.body", "d.attempts", "d.created_at"])
    .where("d.delivered_at", "is", null)
    .where("d.next_attempt_at", "<=", now)
    .where("w.status", "=", "active");
  if (busy.length > 0) q = q.where("d.webhook_id", "not in", busy);
  const rows = await q.orderBy("d.next_attempt_at").orderBy("d.id").limit(limit).execute();
  return rows.map((r) => ({
    id: r.id,
    webhookId: r.webhook_id,
    url: r.url,
    secret: r.secret,
    body: r.body,
    attempts: r.attempts,
    createdAt: r.created_at,
  }));
}

/**
 * Records that an attempt starts: counted, and due again at `retryAt` as if it will fail, so an
 * attempt cut short by a crash is retried on that schedule (at least once).
 */
export async function startAttempt(db: Db, id: string, now: Date, retryAt: Date): Promise<void> {
  await db
    .updateTable("webhook_deliveries")
    .set((eb) => ({ attempts: eb("attempts", "+", 1), last_attempt_at: now, next_attempt_at: retryAt }))
    .where("id", "=", id)
    .execute();
}

export async function delivered(
  db: Db,
  d: { id: string; webhookId: string },
  status: number,
  now: Date,
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx
      .updateTable("webhook_deliveries")
      .set({ delivered_at: now, next_attempt_at: null, last_status: status, last_error: null })
      .where("id", "=", d.id)
      .execute();
    await tx
      .updateTable("webhooks")
      .set({ failing_since: null, last_delivered_at: now })
      .where("id", "=", d.webhookId)
      .execute();
  });
}

/**
 * Records a failed attempt (its status when the endpoint answered, and why); `giveUp` ends its
 * retries. The webhook is failing since its first failure after a success; answers that moment.
 */
export async function failed(
  db: Db,
  d: { id: string; webhookId: string },
  outcome: { status: number | null; error: string },
  now: Date,
  giveUp: boolean,
): Promise<Date> {
  return db.transaction().execute(async (tx) => {
    await tx
      .updateTable("webhook_deliveries")
      .set({
        last_status: outcome.status,
        last_error: outcome.error,
        ...(giveUp ? { next_attempt_at: null, gave_up_at: now } : {}),
      })
      .where("id", "=", d.id)
      .execute();
    const w = await tx
      .updateTable("webhooks")
      .set({ failing_since: sql`coalesce(failing_since, ${now})` })
      .where("id", "=", d.webhookId)
      .returning("failing_since")
      .executeTakeFirst();
    return w?.failing_since ?? now;
  });
}

/** Disables a webhook, saying why (list_webhooks shows it to its owner); its pending deliveries wait. */
export async function disable(db: Db, webhookId: string, reason: string): Promise<void> {
  await db
    .updateTable("webhooks")
    .set({ status: "disabled", disabled_reason: reason })
    .where("id", "=", webhookId)
    .where("status", "=", "active")
    .execute();
}

/** What an owner sees of a webhook's deliveries: counts, and the latest few with their attempts. */
export interface DeliveryReport {
  pending: number;
  delivered: number;
  failed: number;
  failingSince: Date | null;
  lastDeliveredAt: Date | null;
  recent: {
    id: string;
    type: string;
    attempts: number;
    lastStatus: number | null;
    lastError: string | null;
    lastAttemptAt: Date | null;
    nextAttemptAt: Date | null;
    deliveredAt: Date | null;
    gaveUpAt: Date | null;
    createdAt: Date;
  }[];
}

export async function deliveryReport(db: Db, webhookId: string, recent = 10): Promise<DeliveryReport> {
  const [counts, rows, hook] = await Promise.all([
    db
      .selectFrom("webhook_deliveries")
      .select((eb) => [
        eb.fn.countAll<string>().filterWhere("delivered_at", "is not", null).as("delivered"),
        eb.fn.countAll<string>().filterWhere("gave_up_at", "is not", null).as("failed"),
        eb.fn
          .countAll<string>()
          .filterWhere((w) => w.and([w("delivered_at", "is", null), w("gave_up_at", "is", null)]))
          .as("pending"),
      ])
      .where("webhook_id", "=", webhookId)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("webhook_id", "=", webhookId)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(recent)
      .execute(),
    db
      .selectFrom("webhooks")
      .select(["failing_since", "last_delivered_at"])
      .where("id", "=", webhookId)
      .executeTakeFirst(),
  ]);
  return {
    pending: Number(counts.pending),
    delivered: Number(counts.delivered),
    failed: Number(counts.failed),
    failingSince: hook?.failing_since ?? null,
    lastDeliveredAt: hook?.last_delivered_at ?? null,
    recent: rows.map((r) => ({
      id: r.id,
      type: r.type,
      attempts: r.attempts,
      lastStatus: r.last_status,
      lastError: r.last_error,
      lastAttemptAt: r.last_attempt_at,
      nextAttemptAt: r.next_attempt_at,
      deliveredAt: r.delivered_at,
      gaveUpAt: r.gave_up_at,
      createdAt: r.created_at,
    })),
  };
}
