/**
 * The event outbox (docs/architecture.md "A forge event, end to end"): activity log events are
 * inserted in the same transaction as the state change they describe and copied to ClickHouse later
 * by the relay (outbox-relay.ts). Event ids come from the `event_ids` sequence, in the order of the rows given.
 */
import type pg from "pg";

/** An event ready to store: metadata validated, outcome derived (activity-log/event-row.ts). */
export interface EventRow {
  /** UTC, millisecond precision; null = now (the transaction's clock). */
  receivedAt: Date | null;
  repository: string;
  trigger: string;
  /** Pull request number as a decimal string (int64), or null. */
  pullRequest: string | null;
  baseRef: string | null;
  outcome: "success" | "failure" | "pending" | "neutral";
  type: string;
  /** Batch pull request number (docs/activity-log.md "Batch pull request numbers") as a decimal string, or null. */
  batchPull: string | null;
  /** The metadata object as JSON text. */
  metadata: string;
}

/** A stored event, as the relay reads it back. */
export interface StoredEventRow extends Omit<EventRow, "receivedAt"> {
  id: string;
  receivedAt: Date;
}

/**
 * Inserts events into the outbox inside the caller's transaction.
 * @returns the assigned ids (decimal strings), in the order of `rows`
 */
export async function appendToOutbox(client: pg.ClientBase, rows: EventRow[]): Promise<string[]> {
  if (rows.length === 0) return [];
  const ids = (
    await client.query<{ id: string }>("SELECT nextval('event_ids')::text AS id FROM generate_series(1, $1::int)", [
      rows.length,
    ])
  ).rows.map((r) => r.id);
  await client.query(
    `INSERT INTO event_outbox (id, received_at, received_at_assigned, repository, trigger, pull_request, base_ref, outcome, type, batch_pull, metadata)
     SELECT id, coalesce(received_at, date_trunc('milliseconds', clock_timestamp())), received_at IS NULL, repository, trigger, pull_request, base_ref, outcome, type, batch_pull, metadata
     FROM unnest($1::bigint[], $2::timestamptz[], $3::text[], $4::text[], $5::bigint[], $6::text[], $7::text[], $8::text[], $9::bigint[], $10::text[])
       AS t(id, received_at, repository, trigger, pull_request, base_ref, outcome, type, batch_pull, metadata)`,
    [
      ids,
      rows.map((r) => r.receivedAt),
      rows.map((r) => r.repository),
      rows.map((r) => r.trigger),
      rows.map((r) => r.pullRequest),
      rows.map((r) => r.baseRef),
      rows.map((r) => r.outcome),
      rows.map((r) => r.type),
      rows.map((r) => r.batchPull),
      rows.map((r) => r.metadata),
    ],
  );
  return ids;
}

/** Claims up to `limit` unclaimed rows (oldest first) into a new relay batch; returns its number or null when none. */
export async function claimRelayBatch(client: pg.ClientBase, limit: number): Promise<string | null> {
  const res = await client.query<{ batch: string }>(
    `WITH b AS (SELECT nextval('outbox_relay_batches') AS n),
          picked AS (SELECT id FROM event_outbox WHERE relay_batch IS NULL ORDER BY id LIMIT $1::int FOR UPDATE SKIP LOCKED)
     UPDATE event_outbox SET relay_batch = (SELECT n FROM b) WHERE id IN (SELECT id FROM picked)
     RETURNING relay_batch::text AS batch`,
    [limit],
  );
  return res.rows[0]?.batch ?? null;
}

/** Relay batches claimed but not yet acknowledged, oldest first. */
export async function pendingRelayBatches(client: pg.ClientBase): Promise<string[]> {
  const res = await client.query<{ batch: string }>(
    "SELECT relay_batch::text AS batch FROM event_outbox WHERE relay_batch IS NOT NULL GROUP BY relay_batch ORDER BY relay_batch",
  );
  return res.rows.map((r) => r.batch);
}

/** The rows of a relay batch, by id. */
export async function relayBatchRows(client: pg.ClientBase, batch: string): Promise<StoredEventRow[]> {
  const res = await client.query(
    `SELECT id::text, received_at, repository, trigger, pull_request::text, base_ref, outcome, type, batch_pull::text, metadata
     FROM event_outbox WHERE relay_batch = $1::bigint ORDER BY event_outbox.id`,
    [batch],
  );
  return res.rows.map((r) => ({
    id: r.id,
    receivedAt: r.received_at,
    repository: r.repository,
    trigger: r.trigger,
    pullRequest: r.pull_request,
    baseRef: r.base_ref,
    outcome: r.outcome,
    type: r.type,
    batchPull: r.batch_pull,
    metadata: r.metadata,
  }));
}

/** Deletes an acknowledged relay batch. */
export async function deleteRelayBatch(client: pg.ClientBase, batch: string): Promise<void> {
  await client.query("DELETE FROM event_outbox WHERE relay_batch = $1::bigint", [batch]);
}

/** Number of events waiting in the outbox (claimed or not). */
export async function outboxSize(client: pg.Pool | pg.ClientBase): Promise<number> {
  return Number((await client.query<{ n: string }>("SELECT count(*)::text AS n FROM event_outbox")).rows[0].n);
}

/**
 * The oldest `received_at` (epoch ms, UTC) among the outbox rows whose time the service assigned
 * itself (not imported ones), or null when none waits: every event timed by the service before
 * that instant has reached ClickHouse, unless its transaction has not committed yet.
 */
export async function oldestAssignedInOutbox(db: pg.Pool | pg.ClientBase): Promise<number | null> {
  const res = await db.query<{ t: Date | null }>(
    "SELECT min(received_at) AS t FROM event_outbox WHERE received_at_assigned",
  );
  return res.rows[0].t === null ? null : res.rows[0].t.getTime();
}

/**
 * The activity log's lag (docs/activity-log.md "The log's lag"): events waiting in the outbox for
 * the relay, and the age of the oldest in seconds (now minus when it was written; 0 when none
 * waits).
 */
export async function outboxLag(db: pg.Pool | pg.ClientBase): Promise<{ waiting: number; oldestAgeSeconds: number }> {
  const res = await db.query<{ waiting: string; age: number | null }>(
    `SELECT count(*)::text AS waiting, extract(epoch FROM clock_timestamp() - min(enqueued_at))::float8 AS age
     FROM event_outbox`,
  );
  return { waiting: Number(res.rows[0].waiting), oldestAgeSeconds: Math.max(0, res.rows[0].age ?? 0) };
}

/**
 * The age in seconds of the oldest event waiting in the outbox (0 when none waits): one index
 * lookup, for every log read (the lag header).
 */
export async function oldestOutboxAgeSeconds(db: pg.Pool | pg.ClientBase): Promise<number> {
  const res = await db.query<{ age: number | null }>(
    `SELECT extract(epoch FROM clock_timestamp() - (SELECT enqueued_at FROM event_outbox ORDER BY enqueued_at LIMIT 1))
       ::float8 AS age`,
  );
  return Math.max(0, res.rows[0].age ?? 0);
}
