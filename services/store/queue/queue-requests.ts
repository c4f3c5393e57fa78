/** Pending requests to enter the queue (`queue_requests`): waiting for their queue conditions. */
import type pg from "pg";

/**
 * A pending request: the pull request number, the queue rule asked for (null: the first whose
 * conditions hold), the trigger text logged on entry, and when it was first requested (UTC).
 */
export interface QueueRequest {
  number: number;
  queueRule: string | null;
  trigger: string;
  requestedAt: Date;
}

/**
 * Records (or replaces the rule and trigger of) a repository's pending request for a pull request;
 * `requested_at` keeps the first request's time.
 */
export async function putQueueRequest(
  client: pg.ClientBase,
  repository: string,
  r: { number: number; queueRule: string | null; trigger: string },
): Promise<void> {
  await client.query(
    `INSERT INTO queue_requests (repository, number, queue_rule, trigger) VALUES ($1::text, $2::bigint, $3::text, $4::text)
     ON CONFLICT (repository, number) DO UPDATE SET queue_rule = EXCLUDED.queue_rule, trigger = EXCLUDED.trigger`,
    [repository, r.number, r.queueRule, r.trigger],
  );
}

/** Drops a repository's pending request for a pull request (no error when there is none). */
export async function deleteQueueRequest(client: pg.ClientBase, repository: string, number: number): Promise<void> {
  await client.query("DELETE FROM queue_requests WHERE repository = $1::text AND number = $2::bigint", [
    repository,
    number,
  ]);
}

/** A repository's pending requests, oldest first (then by number). */
export async function listQueueRequests(client: pg.Pool | pg.ClientBase, repository: string): Promise<QueueRequest[]> {
  const res = await client.query(
    "SELECT number, queue_rule, trigger, requested_at FROM queue_requests WHERE repository = $1::text ORDER BY requested_at, number",
    [repository],
  );
  return res.rows.map((r) => ({
    number: Number(r.number),
    queueRule: r.queue_rule,
    trigger: r.trigger,
    requestedAt: r.requested_at,
  }));
}
