/** The runner's inbox (`queue_inbox`): inputs per repository, applied in id order. */
import type pg from "pg";

/**
 * An inbox row: its id (bigserial as a decimal string; the order inputs are applied in) and the
 * input JSON.
 */
export interface InboxRow<T> {
  id: string;
  input: T;
}

/** Adds inputs for a repository (in the caller's transaction or on the pool). */
export async function addToInbox(db: pg.Pool | pg.ClientBase, repository: string, inputs: unknown[]): Promise<void> {
  if (inputs.length === 0) return;
  await db.query(
    "INSERT INTO queue_inbox (repository, input) SELECT $1::text, x FROM unnest($2::jsonb[]) WITH ORDINALITY AS t(x, n) ORDER BY n",
    [repository, inputs.map((i) => JSON.stringify(i))],
  );
}

/** The oldest inputs of a repository, locked for this transaction. */
export async function takeInbox<T>(client: pg.ClientBase, repository: string, limit: number): Promise<InboxRow<T>[]> {
  const res = await client.query<{ id: string; input: T }>(
    "SELECT id::text, input FROM queue_inbox WHERE repository = $1::text ORDER BY queue_inbox.id LIMIT $2::int FOR UPDATE",
    [repository, limit],
  );
  return res.rows;
}

/** Deletes applied inputs. */
export async function deleteInbox(client: pg.ClientBase, ids: string[]): Promise<void> {
  if (ids.length) await client.query("DELETE FROM queue_inbox WHERE id = ANY($1::bigint[])", [ids]);
}

/**
 * Moves one input from the inbox to `queue_inbox_set_aside` with how often and why it failed, in one
 * transaction of the pool (docs/merge-queue.md "Runner", "An input that cannot be applied").
 * @returns false when the input is no longer in the inbox (another runner applied or set it aside)
 */
export async function setAsideInput(db: pg.Pool, id: string, failures: number, error: string): Promise<boolean> {
  const res = await db.query(
    `WITH moved AS (DELETE FROM queue_inbox WHERE id = $1::bigint RETURNING id, repository, input, created_at)
     INSERT INTO queue_inbox_set_aside (id, repository, input, created_at, failures, last_error)
     SELECT id, repository, input, created_at, $2::int, $3::text FROM moved`,
    [id, failures, error],
  );
  return res.rowCount === 1;
}

/** Repositories with inputs or effects waiting (for the periodic sweep). */
export async function repositoriesWithWork(db: pg.Pool): Promise<string[]> {
  const res = await db.query<{ repository: string }>(
    "SELECT repository FROM queue_inbox UNION SELECT repository FROM queue_effects WHERE not_before <= now()",
  );
  return res.rows.map((r) => r.repository);
}
