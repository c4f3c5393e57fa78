/** Forge effects not yet performed (`queue_effects`), per repository, in decision order. */
import type pg from "pg";

/**
 * A stored effect: its id (bigserial as a decimal string; also its order), the effect JSON, and the
 * failed attempts so far.
 */
export interface EffectRow<T> {
  id: string;
  effect: T;
  attempts: number;
}

/**
 * Appends effects (any JSON) for a repository, keeping their order, in the caller's transaction;
 * due at once.
 */
export async function addEffects(client: pg.ClientBase, repository: string, effects: unknown[]): Promise<void> {
  if (effects.length === 0) return;
  await client.query("INSERT INTO queue_effects (repository, effect) SELECT $1::text, x FROM unnest($2::jsonb[]) WITH ORDINALITY AS t(x, n) ORDER BY n", [
    repository,
    effects.map((e) => JSON.stringify(e)),
  ]);
}

/** The effects of a repository that are due, oldest first. */
export async function dueEffects<T>(db: pg.Pool | pg.ClientBase, repository: string): Promise<EffectRow<T>[]> {
  const res = await db.query<{ id: string; effect: T; attempts: number }>(
    "SELECT id::text, effect, attempts FROM queue_effects WHERE repository = $1::text AND not_before <= now() ORDER BY queue_effects.id",
    [repository],
  );
  return res.rows;
}

/** Deletes a performed (or abandoned) effect by id. */
export async function deleteEffect(client: pg.ClientBase, id: string): Promise<void> {
  await client.query("DELETE FROM queue_effects WHERE id = $1::bigint", [id]);
}

/** Records a failed attempt and when to try again. */
export async function postponeEffect(db: pg.Pool | pg.ClientBase, id: string, delayMs: number, error: string): Promise<void> {
  await db.query(
    "UPDATE queue_effects SET attempts = attempts + 1, not_before = now() + ($2::bigint * interval '1 millisecond'), last_error = $3::text WHERE id = $1::bigint",
    [id, delayMs, error.slice(0, 2000)],
  );
}
