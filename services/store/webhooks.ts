/**
 * Webhook subscriptions of repositories (docs/notifications.md): rows of `webhook_subscriptions`.
 * Repositories are stored lowercase ("owner/name"), as GitHub compares them. The secret is read
 * only by the delivery loop (webhook-deliveries.ts), never returned by these functions.
 */
import type pg from "pg";
import { withTransaction } from "./database.js";

/** A subscription as the API shows it (no secret). Times UTC. */
export interface WebhookRow {
  id: string;
  repository: string;
  url: string;
  format: "json" | "slack";
  /** Exact event types, `prefix.*` patterns or `*`. */
  eventTypes: string[];
  description: string;
  createdAt: Date;
}

const COLUMNS = "id::text, repository, url, format, event_types, description, created_at";

// biome-ignore lint/suspicious/noExplicitAny: a database row as node-postgres returns it; toRow reads its columns by name and types them
const toRow = (r: any): WebhookRow => ({
  id: r.id,
  repository: r.repository,
  url: r.url,
  format: r.format,
  eventTypes: r.event_types,
  description: r.description,
  createdAt: r.created_at,
});

/** Most webhooks one repository may have. */
export const MAX_WEBHOOKS_PER_REPOSITORY = 20;

/**
 * Stores a new subscription, unless the repository already has {@link MAX_WEBHOOKS_PER_REPOSITORY}
 * (checked under a lock of the repository's rows, so two creations at once cannot pass it).
 * @returns the row, or null when the repository is at the limit
 */
export async function insertWebhook(
  db: pg.Pool,
  w: Omit<WebhookRow, "createdAt"> & { secret: string; createdBy: unknown },
): Promise<WebhookRow | null> {
  return withTransaction(db, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('webhooks:' || $1::text))", [w.repository]);
    const count = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM webhook_subscriptions WHERE repository = $1::text",
      [w.repository],
    );
    if (count.rows[0].n >= MAX_WEBHOOKS_PER_REPOSITORY) return null;
    const res = await client.query(
      `INSERT INTO webhook_subscriptions (id, repository, url, format, event_types, secret, description, created_by)
       VALUES ($1::uuid, $2::text, $3::text, $4::text, $5::text[], $6::text, $7::text, $8::jsonb) RETURNING ${COLUMNS}`,
      [w.id, w.repository, w.url, w.format, w.eventTypes, w.secret, w.description, JSON.stringify(w.createdBy)],
    );
    return toRow(res.rows[0]);
  });
}

/** The repository's subscriptions, oldest first. */
export async function listWebhooks(db: pg.Pool, repository: string): Promise<WebhookRow[]> {
  const res = await db.query(
    `SELECT ${COLUMNS} FROM webhook_subscriptions WHERE repository = $1::text ORDER BY created_at, id`,
    [repository],
  );
  return res.rows.map(toRow);
}

/** Deletes a subscription of the repository (its deliveries go with it); null when it has none with this id. */
export async function deleteWebhook(db: pg.Pool, repository: string, id: string): Promise<WebhookRow | null> {
  const res = await db.query(
    `DELETE FROM webhook_subscriptions WHERE repository = $1::text AND id = $2::uuid RETURNING ${COLUMNS}`,
    [repository, id],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/**
 * Fans the events of an acknowledged relay batch out to the subscriptions they match (one
 * delivery per subscription and event), inside the caller's transaction, the one that deletes
 * the batch from the outbox: each event is fanned out exactly once (outbox-relay.ts).
 * @returns the number of deliveries created
 */
export async function fanOutRelayBatch(client: pg.ClientBase, batch: string): Promise<number> {
  const res = await client.query(
    `INSERT INTO webhook_deliveries (id, subscription_id, repository, event_id, event_received_at, event_trigger,
       event_repository, event_pull_request, event_base_ref, event_outcome, event_type, event_metadata)
     SELECT gen_random_uuid(), s.id, s.repository, o.id, o.received_at, o.trigger, o.repository, o.pull_request,
       o.base_ref, o.outcome, o.type, o.metadata
     FROM event_outbox o JOIN webhook_subscriptions s ON s.repository = lower(o.repository)
     WHERE o.relay_batch = $1::bigint
       AND EXISTS (SELECT 1 FROM unnest(s.event_types) AS p(pattern)
                   WHERE p.pattern = '*' OR p.pattern = o.type
                      OR (right(p.pattern, 2) = '.*' AND starts_with(o.type, left(p.pattern, -1))))
     ORDER BY o.id
     ON CONFLICT (subscription_id, event_id) DO NOTHING`,
    [batch],
  );
  return res.rowCount ?? 0;
}
