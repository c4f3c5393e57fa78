/** Durable timers of the queue (`queue_timers`): (repository, key) -> due time. */
import type pg from "pg";

/** Sets or replaces a timer. */
export async function setTimer(client: pg.ClientBase, repository: string, key: string, dueAt: Date): Promise<void> {
  await client.query(
    "INSERT INTO queue_timers (repository, key, due_at) VALUES ($1::text, $2::text, $3::timestamptz) ON CONFLICT (repository, key) DO UPDATE SET due_at = EXCLUDED.due_at",
    [repository, key, dueAt],
  );
}

/** Deletes a repository's timer by key (no error when there is none). */
export async function cancelTimer(client: pg.ClientBase, repository: string, key: string): Promise<void> {
  await client.query("DELETE FROM queue_timers WHERE repository = $1::text AND key = $2::text", [repository, key]);
}

/**
 * Claims due timers (up to `limit`) and deletes them, returning what fired; rows locked by another
 * claimer are skipped (SKIP LOCKED), so each timer fires once across processes.
 */
export async function claimDueTimers(
  client: pg.ClientBase,
  now: Date,
  limit = 100,
): Promise<{ repository: string; key: string; dueAt: Date }[]> {
  const res = await client.query<{ repository: string; key: string; due_at: Date }>(
    `DELETE FROM queue_timers WHERE (repository, key) IN (
       SELECT repository, key FROM queue_timers WHERE due_at <= $1::timestamptz ORDER BY due_at LIMIT $2::int FOR UPDATE SKIP LOCKED)
     RETURNING repository, key, due_at`,
    [now, limit],
  );
  return res.rows.map((r) => ({ repository: r.repository, key: r.key, dueAt: r.due_at }));
}

/** The earliest pending due time, or null (to sleep until then). */
export async function nextTimerDue(db: pg.Pool): Promise<Date | null> {
  return (await db.query<{ d: Date | null }>("SELECT min(due_at) AS d FROM queue_timers")).rows[0].d;
}
