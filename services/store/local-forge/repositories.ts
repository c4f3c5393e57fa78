/**
 * Repositories of the local forge (`local_forge_repositories`, migration 0003): the name, the
 * default branch, where the bare repository lives, and the pull request number sequence.
 * docs/local-forge.md "Tables".
 */
import { num, type Queryable } from "./queryable.js";

/** One repository. */
export interface LocalRepositoryRow {
  id: number;
  /** "owner/name" as it was created. */
  fullName: string;
  defaultBranch: string;
  /** Absolute path of the bare repository. */
  path: string;
  createdAt: Date;
}

const COLUMNS = "id, full_name, default_branch, path, created_at";
// biome-ignore lint/suspicious/noExplicitAny: a database row as node-postgres returns it; toRow reads its columns by name and types them
const toRow = (r: any): LocalRepositoryRow => ({
  id: num(r.id),
  fullName: r.full_name,
  defaultBranch: r.default_branch,
  path: r.path,
  createdAt: r.created_at,
});

/**
 * Inserts a repository.
 * @returns the row, or null when a repository of that name (compared case-insensitively) exists
 */
export async function insertLocalRepository(
  q: Queryable,
  input: { fullName: string; defaultBranch: string; path: string; createdAt: Date },
): Promise<LocalRepositoryRow | null> {
  const res = await q.query(
    `INSERT INTO local_forge_repositories (full_name, default_branch, path, created_at)
     VALUES ($1::text, $2::text, $3::text, $4::timestamptz)
     ON CONFLICT ((lower(full_name))) DO NOTHING
     RETURNING ${COLUMNS}`,
    [input.fullName, input.defaultBranch, input.path, input.createdAt],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/** The repository named `fullName` (case-insensitive), or null. */
export async function findLocalRepository(q: Queryable, fullName: string): Promise<LocalRepositoryRow | null> {
  const res = await q.query(
    `SELECT ${COLUMNS} FROM local_forge_repositories WHERE lower(full_name) = lower($1::text)`,
    [fullName],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/** Every repository, by name (case-insensitively). */
export async function listLocalRepositories(q: Queryable): Promise<LocalRepositoryRow[]> {
  const res = await q.query(`SELECT ${COLUMNS} FROM local_forge_repositories ORDER BY lower(full_name), id`);
  return res.rows.map(toRow);
}

/**
 * Locks the repository's row for the caller's transaction (`FOR NO KEY UPDATE`): every write of
 * the local forge to a repository holds it, so writes to one repository are serial, while rows
 * that merely reference the repository (check runs from the CI worker) can still be inserted.
 * @returns the row, or null when there is no such repository
 */
export async function lockLocalRepository(q: Queryable, fullName: string): Promise<LocalRepositoryRow | null> {
  const res = await q.query(
    `SELECT ${COLUMNS} FROM local_forge_repositories WHERE lower(full_name) = lower($1::text) FOR NO KEY UPDATE`,
    [fullName],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/** Takes the repository's next pull request number (1, 2, 3, ...; never reused). */
export async function takePullRequestNumber(q: Queryable, repositoryId: number): Promise<number> {
  const res = await q.query(
    "UPDATE local_forge_repositories SET next_pull_number = next_pull_number + 1 WHERE id = $1::bigint RETURNING next_pull_number - 1 AS number",
    [repositoryId],
  );
  return num(res.rows[0].number);
}
