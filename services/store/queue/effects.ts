/** Forge effects not yet performed (`queue_effects`), per repository, in decision order. */
import type pg from "pg";

/**
 * A stored effect: its id (bigserial as a decimal string; also its order and its idempotency key),
 * the effect JSON, the failed attempts so far, and when it was first recorded as started (null:
 * never performed, not even in part).
 */
export interface EffectRow<T> {
  id: string;
  effect: T;
  attempts: number;
  startedAt: Date | null;
}

/**
 * Appends effects (any JSON) for a repository, keeping their order, in the caller's transaction;
 * due at once.
 */
export async function addEffects(client: pg.ClientBase, repository: string, effects: unknown[]): Promise<void> {
  if (effects.length === 0) return;
  await client.query(
    "INSERT INTO queue_effects (repository, effect) SELECT $1::text, x FROM unnest($2::jsonb[]) WITH ORDINALITY AS t(x, n) ORDER BY n",
    [repository, effects.map((e) => JSON.stringify(e))],
  );
}

/** The effects of a repository that are due, oldest first. */
export async function dueEffects<T>(db: pg.Pool | pg.ClientBase, repository: string): Promise<EffectRow<T>[]> {
  const res = await db.query<{ id: string; effect: T; attempts: number; started_at: Date | null }>(
    `SELECT id::text, effect, attempts, started_at FROM queue_effects
     WHERE repository = $1::text AND not_before <= now() ORDER BY queue_effects.id`,
    [repository],
  );
  return res.rows.map((r) => ({ id: r.id, effect: r.effect, attempts: r.attempts, startedAt: r.started_at }));
}

/**
 * Records that an effect is about to be performed (outside a transaction: committed before the
 * forge is called), keeping the first start time; docs/reliability.md.
 */
export async function markEffectStarted(db: pg.Pool | pg.ClientBase, id: string): Promise<void> {
  await db.query("UPDATE queue_effects SET started_at = coalesce(started_at, now()) WHERE id = $1::bigint", [id]);
}

/** Deletes a performed (or abandoned) effect by id. */
export async function deleteEffect(client: pg.ClientBase, id: string): Promise<void> {
  await client.query("DELETE FROM queue_effects WHERE id = $1::bigint", [id]);
}

/** Records a failed attempt and when to try again. */
export async function postponeEffect(
  db: pg.Pool | pg.ClientBase,
  id: string,
  delayMs: number,
  error: string,
): Promise<void> {
  await db.query(
    "UPDATE queue_effects SET attempts = attempts + 1, not_before = now() + ($2::bigint * interval '1 millisecond'), last_error = $3::text WHERE id = $1::bigint",
    [id, delayMs, error.slice(0, 2000)],
  );
}
