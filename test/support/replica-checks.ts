/**
 * What the replica tests read from PostgreSQL: the replicas' ids by name, which replica's session
 * holds a repository's advisory lock, and the events the replicas wrote to the outbox (none of the
 * replica processes runs the activity log, so every event stays in `event_outbox`).
 */
import type pg from "pg";
import { ownerOf } from "../../services/runner/index.js";
import { repositoryLockSql } from "../../services/store/queue/queue-state.js";

/** The live replicas' ids by name (runner_replicas). */
export async function replicaIds(pool: pg.Pool): Promise<Map<string, string>> {
  const res = await pool.query<{ id: string; name: string }>("SELECT id, name FROM runner_replicas");
  return new Map(res.rows.map((r) => [r.name, r.id]));
}

/**
 * The first of `prefix-1`, `prefix-2`, ... that rendezvous hashing gives to the replica `owner`
 * among `replicas` (names), by their ids in `ids`.
 */
export function repositoryOf(owner: string, replicas: string[], ids: Map<string, string>, prefix: string): string {
  const live = replicas.map((n) => ids.get(n)!);
  for (let i = 1; ; i++) if (ownerOf(`${prefix}-${i}`, live) === ids.get(owner)) return `${prefix}-${i}`;
}

/** The replica (id) whose session holds the advisory lock of `repository`, or null. */
export async function lockHolder(pool: pg.Pool, repository: string): Promise<string | null> {
  const res = await pool.query<{ name: string }>(
    `WITH k AS (SELECT ${repositoryLockSql} AS key)
     SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid, k
     WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 1
       AND l.classid::bigint = (k.key >> 32) & 4294967295 AND l.objid::bigint = k.key & 4294967295`,
    [repository],
  );
  return res.rows[0]?.name.replace(/^yardmaster:/, "") ?? null;
}

/** Whether a merge of `repository` is recorded started and not yet done (its result not recorded). */
export async function mergeUnderWay(pool: pg.Pool, repository: string): Promise<boolean> {
  const res = await pool.query(
    "SELECT 1 FROM queue_effects WHERE repository = $1 AND effect->>'kind' = 'merge_batch' AND started_at IS NOT NULL",
    [repository],
  );
  return (res.rowCount ?? 0) > 0;
}

/** Sessions open on the database named after the replica `id`. */
export async function sessionsOf(pool: pg.Pool, id: string): Promise<number> {
  const res = await pool.query("SELECT 1 FROM pg_stat_activity WHERE application_name = $1", [`yardmaster:${id}`]);
  return res.rowCount ?? 0;
}

/**
 * Events written more than once: a pull request that entered, was merged or left the queue, or
 * whose queue command was logged, more than once; and any two rows alike in everything but their id.
 */
export async function doubledEvents(pool: pg.Pool): Promise<string[]> {
  const once = await pool.query<{ what: string }>(
    `SELECT repository || '#' || pull_request || ' ' || type || ' x' || count(*) AS what FROM event_outbox
     WHERE type IN ('action.queue.enter', 'action.queue.merged', 'action.queue.leave', 'command.queue')
     GROUP BY repository, pull_request, type HAVING count(*) > 1`,
  );
  const alike = await pool.query<{ what: string }>(
    `SELECT repository || '#' || coalesce(pull_request::text, '-') || ' ' || type || ' (identical) x' || count(*) AS what
     FROM event_outbox GROUP BY repository, pull_request, type, trigger, outcome, metadata, received_at HAVING count(*) > 1`,
  );
  return [...once.rows, ...alike.rows].map((r) => r.what);
}

/** The `action.queue.merged` events per pull request ("owner/name#n" → count). */
export async function mergedEvents(pool: pg.Pool): Promise<Map<string, number>> {
  const res = await pool.query<{ key: string; n: number }>(
    `SELECT repository || '#' || pull_request AS key, count(*)::int AS n FROM event_outbox
     WHERE type = 'action.queue.merged' GROUP BY 1`,
  );
  return new Map(res.rows.map((r) => [r.key, r.n]));
}
