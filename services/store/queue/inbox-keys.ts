/**
 * Forge events taken into the runner's inbox once per idempotency key (`queue_inbox_keys`,
 * migration 0010; docs/reliability.md "Crashes: every effect exactly once"): a forge that delivers
 * an event again after a crash (the local forge's outbox, a GitHub redelivery) gives it the same
 * key, and the second copy is dropped.
 */
import type pg from "pg";

/** How long a key is remembered: redeliveries come at a restart or within GitHub's 3 days. */
export const INBOX_KEY_RETENTION_MS = 7 * 86_400_000;

/**
 * Adds one input for a repository unless an input with `key` was taken before (one statement: the
 * key and the input commit together).
 * @returns whether the input was added (false: a repeated delivery)
 */
export async function addToInboxOnce(
  db: pg.Pool | pg.ClientBase,
  repository: string,
  input: unknown,
  key: string,
): Promise<boolean> {
  const res = await db.query(
    `WITH fresh AS (INSERT INTO queue_inbox_keys (key) VALUES ($3::text) ON CONFLICT (key) DO NOTHING RETURNING 1)
     INSERT INTO queue_inbox (repository, input) SELECT $1::text, $2::jsonb FROM fresh`,
    [repository, JSON.stringify(input), key],
  );
  return res.rowCount === 1;
}

/** Forgets keys taken before `before`. @returns how many */
export async function pruneInboxKeys(db: pg.Pool, before: Date): Promise<number> {
  const res = await db.query("DELETE FROM queue_inbox_keys WHERE created_at < $1::timestamptz", [before]);
  return res.rowCount ?? 0;
}
