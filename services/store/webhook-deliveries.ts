/**
 * Webhook deliveries and their attempts (docs/notifications.md "Delivery"): rows of
 * `webhook_deliveries` (one per subscription and event, created by the relay's fan-out,
 * webhooks.ts) and `webhook_attempts`. A delivery is claimed with a lease before it is sent, so
 * several processes share the work and a delivery whose process died is sent again once its lease
 * ran out; its outcome and the attempt are written in one statement.
 */
import type pg from "pg";

/** The event a delivery carries, as the outbox held it. Times UTC. */
export interface DeliveryEvent {
  id: string;
  receivedAt: Date;
  trigger: string;
  repository: string;
  /** Decimal string, or null. */
  pullRequest: string | null;
  baseRef: string | null;
  outcome: string;
  type: string;
  /** The metadata object as JSON text. */
  metadata: string;
}

/** A claimed delivery: what to send, where, and how to sign it. */
export interface ClaimedDelivery {
  id: string;
  subscriptionId: string;
  url: string;
  format: "json" | "slack";
  secret: string;
  /** This attempt's number, 1 for the first. */
  attempt: number;
  /** Whether a redelivery was asked for this attempt. */
  redelivery: boolean;
  event: DeliveryEvent;
}

/** One attempt as the delivery log shows it. */
export interface AttemptRow {
  attempt: number;
  startedAt: Date;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  redelivery: boolean;
}

/** A delivery as the delivery log shows it, with its attempts (oldest first). */
export interface DeliveryRow {
  id: string;
  subscriptionId: string;
  eventId: string;
  eventType: string;
  pullRequest: string | null;
  state: "pending" | "delivered" | "failed";
  createdAt: Date;
  nextAttemptAt: Date | null;
  attempts: AttemptRow[];
}

/**
 * Claims up to `limit` due deliveries, at most `perSubscription` of each subscription and none of
 * `busy` (subscriptions whose in-flight limit this process has reached), oldest first, with a
 * lease of `leaseMs`. A slow receiver's backlog thus never takes every slot.
 */
export async function claimDeliveries(
  db: pg.Pool,
  opts: { limit: number; perSubscription: number; busy: string[]; leaseMs: number },
): Promise<ClaimedDelivery[]> {
  const res = await db.query(
    `WITH due AS (
       SELECT id, next_attempt_at, event_id,
              row_number() OVER (PARTITION BY subscription_id ORDER BY next_attempt_at, event_id) AS rank
       FROM webhook_deliveries
       WHERE state = 'pending' AND next_attempt_at <= now() AND (claimed_until IS NULL OR claimed_until < now())
         AND subscription_id <> ALL($3::uuid[])),
     picked AS (
       SELECT d.id, d.redeliver FROM webhook_deliveries d JOIN due ON due.id = d.id
       WHERE due.rank <= $2::int ORDER BY due.next_attempt_at, due.event_id LIMIT $1::int
       FOR UPDATE OF d SKIP LOCKED)
     UPDATE webhook_deliveries d SET claimed_until = now() + $4::int * interval '1 millisecond',
       attempts = d.attempts + 1, redeliver = false
     FROM picked, webhook_subscriptions s
     WHERE d.id = picked.id AND s.id = d.subscription_id
     RETURNING d.id::text, d.subscription_id::text, s.url, s.format, s.secret, d.attempts,
       d.event_id::text, d.event_received_at, d.event_trigger, d.event_repository, d.event_pull_request::text,
       d.event_base_ref, d.event_outcome, d.event_type, d.event_metadata, picked.redeliver AS redelivery`,
    [opts.limit, opts.perSubscription, opts.busy, opts.leaseMs],
  );
  return res.rows.map((r) => ({
    id: r.id,
    subscriptionId: r.subscription_id,
    url: r.url,
    format: r.format,
    secret: r.secret,
    attempt: r.attempts,
    redelivery: r.redelivery,
    event: {
      id: r.event_id,
      receivedAt: r.event_received_at,
      trigger: r.event_trigger,
      repository: r.event_repository,
      pullRequest: r.event_pull_request,
      baseRef: r.event_base_ref,
      outcome: r.event_outcome,
      type: r.event_type,
      metadata: r.event_metadata,
    },
  }));
}

/**
 * Writes an attempt and the delivery's new state in one statement: delivered; failed (no more
 * attempts); or pending again, due `retryInMs` from now. A redelivery asked for while the attempt
 * ran wins: the delivery is then pending and due now. Nothing is written when the delivery is
 * gone (its webhook was deleted meanwhile).
 */
export async function recordAttempt(
  db: pg.Pool,
  a: {
    deliveryId: string;
    attempt: number;
    startedAt: Date;
    durationMs: number;
    statusCode: number | null;
    error: string | null;
    redelivery: boolean;
    outcome: "delivered" | "failed" | "retry";
    retryInMs?: number;
  },
): Promise<void> {
  await db.query(
    `WITH d AS (
       UPDATE webhook_deliveries SET
         state = CASE WHEN redeliver OR $7::text = 'retry' THEN 'pending' ELSE $7::text END,
         next_attempt_at = CASE WHEN redeliver THEN now()
           WHEN $7::text = 'retry' THEN now() + $8::int * interval '1 millisecond' ELSE next_attempt_at END,
         completed_at = CASE WHEN redeliver OR $7::text = 'retry' THEN NULL ELSE now() END,
         claimed_until = NULL
       WHERE id = $1::uuid RETURNING id)
     INSERT INTO webhook_attempts (delivery_id, attempt, started_at, duration_ms, status_code, error, redelivery)
     SELECT id, $2::int, $3::timestamptz, $4::int, $5::int, $6::text, $9::boolean FROM d
     ON CONFLICT (delivery_id, attempt) DO UPDATE SET started_at = excluded.started_at,
       duration_ms = excluded.duration_ms, status_code = excluded.status_code, error = excluded.error`,
    [
      a.deliveryId,
      a.attempt,
      a.startedAt,
      a.durationMs,
      a.statusCode,
      a.error,
      a.outcome,
      a.retryInMs ?? 0,
      a.redelivery,
    ],
  );
}

/** Gives claimed deliveries back at once (a clean shutdown that did not send them). */
export async function releaseDeliveries(db: pg.Pool, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    "UPDATE webhook_deliveries SET claimed_until = NULL, attempts = attempts - 1 WHERE id = ANY($1::uuid[]) AND state = 'pending'",
    [ids],
  );
}

const DELIVERY_COLUMNS = `d.id::text, d.subscription_id::text, d.event_id::text, d.event_type, d.event_pull_request::text,
  d.state, d.created_at, d.next_attempt_at,
  coalesce((SELECT json_agg(json_build_object('attempt', a.attempt, 'started_at', a.started_at, 'duration_ms', a.duration_ms,
     'status_code', a.status_code, 'error', a.error, 'redelivery', a.redelivery) ORDER BY a.attempt)
   FROM webhook_attempts a WHERE a.delivery_id = d.id), '[]'::json) AS attempts`;

// biome-ignore lint/suspicious/noExplicitAny: a database row as node-postgres returns it; toDelivery reads its columns by name and types them
const toDelivery = (r: any): DeliveryRow => ({
  id: r.id,
  subscriptionId: r.subscription_id,
  eventId: r.event_id,
  eventType: r.event_type,
  pullRequest: r.event_pull_request,
  state: r.state,
  createdAt: r.created_at,
  nextAttemptAt: r.state === "pending" ? r.next_attempt_at : null,
  // biome-ignore lint/suspicious/noExplicitAny: json_agg's objects, typed here
  attempts: r.attempts.map((a: any) => ({
    attempt: a.attempt,
    startedAt: new Date(a.started_at),
    durationMs: a.duration_ms,
    statusCode: a.status_code,
    error: a.error,
    redelivery: a.redelivery,
  })),
});

/** The repository's deliveries (of one webhook, when given), newest first, at most `limit`. */
export async function listDeliveries(
  db: pg.Pool,
  repository: string,
  opts: { subscriptionId?: string; limit: number },
): Promise<DeliveryRow[]> {
  const res = await db.query(
    `SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d
     WHERE d.repository = $1::text AND ($2::uuid IS NULL OR d.subscription_id = $2::uuid)
     ORDER BY d.created_at DESC, d.event_id DESC, d.id LIMIT $3::int`,
    [repository, opts.subscriptionId ?? null, opts.limit],
  );
  return res.rows.map(toDelivery);
}

/**
 * Makes a delivery of the repository pending and due now, its next attempt logged as a
 * redelivery (while an attempt is in flight, the one after it). Null when the repository has no
 * delivery with this id.
 */
export async function redeliver(db: pg.Pool, repository: string, id: string): Promise<DeliveryRow | null> {
  const res = await db.query(
    `UPDATE webhook_deliveries SET state = 'pending', next_attempt_at = now(), completed_at = NULL, redeliver = true
     WHERE repository = $1::text AND id = $2::uuid RETURNING id::text`,
    [repository, id],
  );
  if (res.rows.length === 0) return null;
  const rows = await db.query(`SELECT ${DELIVERY_COLUMNS} FROM webhook_deliveries d WHERE d.id = $1::uuid`, [id]);
  return toDelivery(rows.rows[0]);
}

/**
 * Deletes deliveries completed (delivered or failed) more than `olderThanMs` ago, at most
 * `limit` at a time (the delivery log's retention).
 * @returns how many were deleted
 */
export async function pruneDeliveries(db: pg.Pool, olderThanMs: number, limit: number): Promise<number> {
  const res = await db.query(
    `DELETE FROM webhook_deliveries WHERE id IN (
       SELECT id FROM webhook_deliveries WHERE state <> 'pending' AND completed_at < now() - $1::bigint * interval '1 millisecond'
       LIMIT $2::int)`,
    [olderThanMs, limit],
  );
  return res.rowCount ?? 0;
}
