/**
 * The local forge's ref journal (`local_forge_ref_journal`, migration 0010): a git ref change of a
 * write, recorded (committed on its own connection) before git makes it, and deleted in the
 * write's own transaction (docs/local-forge.md "Writes and events").
 */
import type pg from "pg";
import { withTransaction } from "../database.js";
import { num, type Queryable } from "./queryable.js";

/** A ref change to record: `oldSha` null = the ref did not exist, `newSha` null = it is deleted. */
export interface RefIntent {
  repositoryId: number;
  ref: string;
  oldSha: string | null;
  newSha: string | null;
  /** The write (one transaction) making the change. */
  writeId: string;
}

/** A journal row as recovery reads it, with its repository's name and bare repository path. */
export interface RefIntentRow extends RefIntent {
  id: number;
  fullName: string;
  path: string;
}

/** Records an intended ref change (run it on a connection of its own, autocommit). @returns its id */
export async function insertRefIntent(q: Queryable, intent: RefIntent): Promise<number> {
  const res = await q.query(
    `INSERT INTO local_forge_ref_journal (repository_id, ref, old_sha, new_sha, write_id)
     VALUES ($1::bigint, $2::text, $3::text, $4::text, $5::uuid) RETURNING id`,
    [intent.repositoryId, intent.ref, intent.oldSha, intent.newSha, intent.writeId],
  );
  return num(res.rows[0].id);
}

/** Deletes journal rows by id (in the write's transaction, or once a change was reverted). */
export async function deleteRefIntents(q: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await q.query("DELETE FROM local_forge_ref_journal WHERE id = ANY($1::bigint[])", [ids]);
}

/**
 * How many of these journal rows still exist, locking them first (deciding the outcome of a COMMIT
 * that got no answer): a transaction still deleting them holds them, so this waits until it ended,
 * at most `lockTimeoutMs`.
 * @throws the database's error, lock_not_available (55P03) after the timeout
 */
export async function countRefIntentsAfterLock(
  db: pg.Pool,
  ids: readonly number[],
  lockTimeoutMs: number,
): Promise<number> {
  return withTransaction(db, async (client) => {
    await client.query(`SET LOCAL lock_timeout = ${Math.max(1, Math.floor(lockTimeoutMs))}`);
    const res = await client.query(
      `SELECT count(*)::int AS n
       FROM (SELECT 1 FROM local_forge_ref_journal WHERE id = ANY($1::bigint[]) FOR UPDATE) AS locked`,
      [ids],
    );
    return res.rows[0].n as number;
  });
}

/** The repositories with journal rows, by full name (recovery at start-up). */
export async function repositoriesWithRefIntents(q: Queryable): Promise<string[]> {
  const res = await q.query(
    `SELECT r.full_name FROM local_forge_repositories r
     WHERE EXISTS (SELECT 1 FROM local_forge_ref_journal j WHERE j.repository_id = r.id) ORDER BY r.id`,
  );
  return res.rows.map((r) => r.full_name);
}

/**
 * The journal rows of a repository, newest first (the order to undo them in), locked for the
 * caller's transaction.
 */
export async function lockRefIntents(q: Queryable, repositoryId: number): Promise<RefIntentRow[]> {
  const res = await q.query(
    `SELECT j.id, j.repository_id, j.ref, j.old_sha, j.new_sha, j.write_id::text AS write_id, r.full_name, r.path
     FROM local_forge_ref_journal j JOIN local_forge_repositories r ON r.id = j.repository_id
     WHERE j.repository_id = $1::bigint ORDER BY j.id DESC FOR UPDATE OF j`,
    [repositoryId],
  );
  return res.rows.map((r) => ({
    id: num(r.id),
    repositoryId: num(r.repository_id),
    ref: r.ref,
    oldSha: r.old_sha,
    newSha: r.new_sha,
    writeId: r.write_id,
    fullName: r.full_name,
    path: r.path,
  }));
}
