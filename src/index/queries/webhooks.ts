import type { Kysely, Selectable } from "kysely";
import { EVENT_TYPES } from "../../events/types.js";
import type { StoreSchema, WebhookFilter, WebhooksTable } from "../../store/schema.js";

/** Webhook subscriptions and their sign-in nonces (migration 0008, docs/webhooks.md). Addresses lower-case. */

type Db = Kysely<StoreSchema>;

/** The event types a webhook's filter may name: those of the log its deliveries come from (`GET /events`'). */
export const WEBHOOK_EVENT_TYPES: readonly string[] = EVENT_TYPES;

export async function issueNonce(
  db: Db,
  n: { nonce: string; address: string; domain: string; expiresAt: Date },
): Promise<void> {
  // Expired nonces go as new ones come: the table holds the last few minutes' at most.
  await db
    .deleteFrom("webhook_nonces")
    .where("expires_at", "<", new Date(Date.now() - 3_600_000))
    .execute();
  await db
    .insertInto("webhook_nonces")
    .values({ nonce: n.nonce, address: n.address, domain: n.domain, expires_at: n.expiresAt, used_at: null })
    .execute();
}

/** Nonces issued to `address` whose expiry is after `after` (issued since `after` minus their lifetime). */
export async function noncesExpiringAfter(db: Db, address: string, after: Date): Promise<number> {
  const r = await db
    .selectFrom("webhook_nonces")
    .select((e) => e.fn.countAll<string>().as("n"))
    .where("address", "=", address)
    .where("expires_at", ">", after)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Why a nonce was not taken. */
export type NonceRefusal = "unknown" | "used" | "expired" | "other_address" | "other_domain";

/**
 * Takes a nonce for `address` on `domain`, once: the update that marks it used is the check, so two
 * requests racing with one signed message cannot both pass. Undefined when taken, else why not.
 */
export async function consumeNonce(
  db: Db,
  n: { nonce: string; address: string; domain: string; now: Date },
): Promise<NonceRefusal | undefined> {
  const taken = await db
    .updateTable("webhook_nonces")
    .set({ used_at: n.now })
    .where("nonce", "=", n.nonce)
    .where("address", "=", n.address)
    .where("domain", "=", n.domain)
    .where("used_at", "is", null)
    .where("expires_at", ">", n.now)
    .returning("nonce")
    .executeTakeFirst();
  if (taken) return undefined;
  const row = await db.selectFrom("webhook_nonces").selectAll().where("nonce", "=", n.nonce).executeTakeFirst();
  if (!row) return "unknown";
  if (row.address !== n.address) return "other_address";
  if (row.domain !== n.domain) return "other_domain";
  if (row.used_at !== null) return "used";
  return "expired";
}

export interface WebhookRow {
  id: string;
  owner: string;
  url: string;
  filter: WebhookFilter;
  reminders: number[];
  status: WebhooksTable["status"];
  disabledReason: string | null;
  createdAt: Date;
  cursorEventId: number;
}

export async function insertWebhook(
  db: Db,
  w: { id: string; owner: string; url: string; filter: WebhookFilter; reminders: number[]; secret: string },
): Promise<WebhookRow> {
  // Deliveries start from the log's end: a new subscription is for what happens from now on.
  const last = await db
    .selectFrom("court_events")
    .select((e) => e.fn.max("id").as("id"))
    .executeTakeFirst();
  const row = await db
    .insertInto("webhooks")
    .values({
      id: w.id,
      owner: w.owner,
      url: w.url,
      filter: JSON.stringify(w.filter),
      reminders: JSON.stringify(w.reminders),
      secret: w.secret,
      status: "pending_verification",
      disabled_reason: null,
      cursor_event_id: Number(last?.id ?? 0),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRow(row);
}

/** An owner's webhooks, oldest first. */
export async function listWebhooks(db: Db, owner: string): Promise<WebhookRow[]> {
  const rows = await db
    .selectFrom("webhooks")
    .selectAll()
    .where("owner", "=", owner)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(toRow);
}

export async function countWebhooks(db: Db, owner: string): Promise<number> {
  const r = await db
    .selectFrom("webhooks")
    .select((e) => e.fn.countAll<string>().as("n"))
    .where("owner", "=", owner)
    .executeTakeFirst();
  return Number(r?.n ?? 0);
}

/** Deletes `id` if `owner` owns it (its deliveries go with it); whether it did. */
export async function deleteWebhook(db: Db, id: string, owner: string): Promise<boolean> {
  const r = await db.deleteFrom("webhooks").where("id", "=", id).where("owner", "=", owner).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

function toRow(r: Selectable<WebhooksTable>): WebhookRow {
  return {
    id: r.id,
    owner: r.owner,
    url: r.url,
    filter: r.filter,
    reminders: r.reminders,
    status: r.status,
    disabledReason: r.disabled_reason,
    createdAt: r.created_at,
    cursorEventId: r.cursor_event_id,
  };
}

/** A webhook with its secret (for signing a delivery), or undefined. */
export async function webhookWithSecret(db: Db, id: string): Promise<(WebhookRow & { secret: string }) | undefined> {
  const r = await db.selectFrom("webhooks").selectAll().where("id", "=", id).executeTakeFirst();
  return r ? { ...toRow(r), secret: r.secret } : undefined;
}

/** Changes what an owner may change of a webhook; a new URL (or secret) waits for verification again. */
export async function changeWebhook(
  db: Db,
  id: string,
  change: { url?: string; filter?: WebhookFilter; reminders?: number[]; secret?: string },
): Promise<WebhookRow> {
  const r = await db
    .updateTable("webhooks")
    .set({
      ...(change.url !== undefined ? { url: change.url } : {}),
      ...(change.filter !== undefined ? { filter: JSON.stringify(change.filter) } : {}),
      ...(change.reminders !== undefined ? { reminders: JSON.stringify(change.reminders) } : {}),
      ...(change.secret !== undefined ? { secret: change.secret } : {}),
      ...(change.url !== undefined || change.secret !== undefined
        ? { status: "pending_verification" as const, disabled_reason: null }
        : {}),
    })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRow(r);
}

/** Marks a webhook active once its endpoint answered the challenge. */
export async function activateWebhook(db: Db, id: string): Promise<WebhookRow> {
  const r = await db
    .updateTable("webhooks")
    .set({ status: "active", disabled_reason: null, failing_since: null })
    .where("id", "=", id)
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRow(r);
}
