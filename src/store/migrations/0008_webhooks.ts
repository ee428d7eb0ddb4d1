import { type Kysely, sql } from "kysely";

/**
 * Schema v8, webhooks (docs/webhooks.md): subscriptions owned by an address and proven by its
 * signature, the sign-in nonces that prove them, and one row per delivery. Unlike every table
 * before it, none of these is derived from the chain: a reset or a reorg never touches them
 * (rollback.ts leaves them), and losing them loses the subscriptions.
 *
 * A delivery is keyed by (webhook, what it delivers): an event id, or a reminder's key (case,
 * deadline, lead time). Enqueueing the same one twice is a no-op, so the sender may retry its
 * enqueue after a crash (at least once) and the receiver drops a repeat by its `webhook-id`.
 */
// biome-ignore lint/suspicious/noExplicitAny: a migration runs against the schema as it was then.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("webhook_nonces")
    .addColumn("nonce", "text", (c) => c.primaryKey())
    .addColumn("address", "text", (c) => c.notNull())
    // The EIP-4361 domain it was issued for: the signed message must name the same.
    .addColumn("domain", "text", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .execute();
  await db.schema.createIndex("webhook_nonces_expiry").on("webhook_nonces").column("expires_at").execute();
  await db.schema
    .createTable("webhooks")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("owner", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("filter", "jsonb", (c) => c.notNull())
    .addColumn("reminders", "jsonb", (c) => c.notNull())
    // The whsec_ signing secret: docket signs every delivery with it, so it is kept (docs/webhooks.md#security).
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) =>
      c.notNull().check(sql`status in ('pending_verification', 'active', 'disabled')`),
    )
    .addColumn("disabled_reason", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // The court_events id it has been delivered up to (enqueued, not yet necessarily received).
    .addColumn("cursor_event_id", "bigint", (c) => c.notNull().defaultTo(0))
    // Since when every attempt has failed (null while deliveries succeed): days of it disable the webhook.
    .addColumn("failing_since", "timestamptz")
    .addColumn("last_delivered_at", "timestamptz")
    .execute();
  await db.schema.createIndex("webhooks_by_owner").on("webhooks").columns(["owner", "created_at"]).execute();
  await db.schema
    .createTable("webhook_deliveries")
    // The Standard Webhooks `webhook-id`: the same on every attempt, so a receiver can drop repeats.
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("webhook_id", "text", (c) => c.notNull().references("webhooks.id").onDelete("cascade"))
    .addColumn("event_id", "bigint")
    .addColumn("reminder_key", "text")
    // The delivery's type and its body, fixed when enqueued: every attempt sends the same bytes.
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("body", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz")
    .addColumn("last_status", "integer")
    .addColumn("last_error", "text")
    .addColumn("last_attempt_at", "timestamptz")
    .addColumn("delivered_at", "timestamptz")
    // Set when its retries ran out (three days): never sent again.
    .addColumn("gave_up_at", "timestamptz")
    .addCheckConstraint("webhook_deliveries_one_subject", sql`(event_id is null) <> (reminder_key is null)`)
    .addUniqueConstraint("webhook_deliveries_event", ["webhook_id", "event_id"])
    .addUniqueConstraint("webhook_deliveries_reminder", ["webhook_id", "reminder_key"])
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_due")
    .on("webhook_deliveries")
    .column("next_attempt_at")
    .where(sql.ref("delivered_at"), "is", null)
    .execute();
  await db.schema
    .createIndex("webhook_deliveries_recent")
    .on("webhook_deliveries")
    .columns(["webhook_id", "created_at"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: as up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("webhook_deliveries").execute();
  await db.schema.dropTable("webhooks").execute();
  await db.schema.dropTable("webhook_nonces").execute();
}
