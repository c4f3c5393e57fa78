/**
 * Check runs of the local forge (`local_forge_check_runs`, migration 0003): per repository, commit
 * SHA and name. Several runs may share a name (a re-run, another app); readers take the newest
 * (highest id) per name. docs/local-forge.md "Check runs".
 */
import type { CheckState } from "../../config/index.js";
import { num, numOrNull, type Queryable } from "./queryable.js";

/** One check run. Times are UTC. */
export interface CheckRunRow {
  id: number;
  sha: string;
  name: string;
  state: CheckState;
  description: string;
  detailsUrl: string | null;
  app: string;
  output: string;
  /** The local CI job running it; null when posted from outside. */
  ciJobId: number | null;
  startedAt: Date | null;
  completedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const COLUMNS =
  "id, sha, name, state, description, details_url, app, output, ci_job_id, started_at, completed_at, created_at, updated_at";
// biome-ignore lint/suspicious/noExplicitAny: a database row as node-postgres returns it; toRow reads its columns by name and types them
const toRow = (r: any): CheckRunRow => ({
  id: num(r.id),
  sha: r.sha,
  name: r.name,
  state: r.state,
  description: r.description,
  detailsUrl: r.details_url,
  app: r.app,
  output: r.output,
  ciJobId: numOrNull(r.ci_job_id),
  startedAt: r.started_at,
  completedAt: r.completed_at,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

/** Input of {@link insertCheckRun}. */
export interface NewCheckRun {
  repositoryId: number;
  sha: string;
  name: string;
  state: CheckState;
  description: string;
  detailsUrl: string | null;
  app: string;
  output: string;
  ciJobId: number | null;
  startedAt: Date | null;
  completedAt: Date | null;
  now: Date;
}

/** Stores a new check run. */
export async function insertCheckRun(q: Queryable, c: NewCheckRun): Promise<CheckRunRow> {
  const res = await q.query(
    `INSERT INTO local_forge_check_runs (repository_id, sha, name, state, description, details_url, app, output, ci_job_id, started_at, completed_at, created_at, updated_at)
     VALUES ($1::bigint, $2::text, $3::text, $4::text, $5::text, $6::text, $7::text, $8::text, $9::bigint, $10::timestamptz, $11::timestamptz, $12::timestamptz, $12::timestamptz)
     RETURNING ${COLUMNS}`,
    [
      c.repositoryId,
      c.sha,
      c.name,
      c.state,
      c.description,
      c.detailsUrl,
      c.app,
      c.output,
      c.ciJobId,
      c.startedAt,
      c.completedAt,
      c.now,
    ],
  );
  return toRow(res.rows[0]);
}

/** Fields of {@link updateCheckRun}; an absent one keeps its value. */
export interface CheckRunChange {
  state: CheckState;
  description?: string;
  detailsUrl?: string | null;
  output?: string;
  startedAt?: Date | null;
  completedAt?: Date | null;
  now: Date;
}

/**
 * Updates a check run.
 * @param onlyIfOpen when true, a run that already completed is left alone (a cancellation wins)
 * @returns the updated run, or null when nothing was updated
 */
export async function updateCheckRun(
  q: Queryable,
  id: number,
  change: CheckRunChange,
  onlyIfOpen = false,
): Promise<CheckRunRow | null> {
  const res = await q.query(
    `UPDATE local_forge_check_runs SET state = $2::text,
       description = coalesce($3::text, description),
       details_url = CASE WHEN $4::boolean THEN $5::text ELSE details_url END,
       output = coalesce($6::text, output),
       started_at = CASE WHEN $7::boolean THEN $8::timestamptz ELSE started_at END,
       completed_at = CASE WHEN $9::boolean THEN $10::timestamptz ELSE completed_at END,
       updated_at = $11::timestamptz
     WHERE id = $1::bigint AND (NOT $12::boolean OR completed_at IS NULL)
     RETURNING ${COLUMNS}`,
    [
      id,
      change.state,
      change.description ?? null,
      change.detailsUrl !== undefined,
      change.detailsUrl ?? null,
      change.output ?? null,
      change.startedAt !== undefined,
      change.startedAt ?? null,
      change.completedAt !== undefined,
      change.completedAt ?? null,
      change.now,
      onlyIfOpen,
    ],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/** The newest run of `name` posted by `app` on a commit, or null. */
export async function findNewestCheckRun(
  q: Queryable,
  repositoryId: number,
  sha: string,
  name: string,
  app: string,
): Promise<CheckRunRow | null> {
  const res = await q.query(
    `SELECT ${COLUMNS} FROM local_forge_check_runs WHERE repository_id = $1::bigint AND sha = $2::text AND name = $3::text AND app = $4::text
     ORDER BY id DESC LIMIT 1`,
    [repositoryId, sha, name, app],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/** The check run `id` of a repository, or null. */
export async function findCheckRun(q: Queryable, repositoryId: number, id: number): Promise<CheckRunRow | null> {
  const res = await q.query(
    `SELECT ${COLUMNS} FROM local_forge_check_runs WHERE repository_id = $1::bigint AND id = $2::bigint`,
    [repositoryId, id],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/** The newest run of each name on a commit, by name. */
export async function newestCheckRunsOfCommit(q: Queryable, repositoryId: number, sha: string): Promise<CheckRunRow[]> {
  const res = await q.query(
    `SELECT DISTINCT ON (name) ${COLUMNS} FROM local_forge_check_runs WHERE repository_id = $1::bigint AND sha = $2::text ORDER BY name, id DESC`,
    [repositoryId, sha],
  );
  return res.rows.map(toRow);
}

/** The check runs of a CI job, oldest first. */
export async function checkRunsOfCiJob(q: Queryable, ciJobId: number): Promise<CheckRunRow[]> {
  const res = await q.query(`SELECT ${COLUMNS} FROM local_forge_check_runs WHERE ci_job_id = $1::bigint ORDER BY id`, [
    ciJobId,
  ]);
  return res.rows.map(toRow);
}

/**
 * Marks every unfinished check run of these CI jobs cancelled.
 * @returns the commits whose check runs changed, each once
 */
export async function cancelCheckRunsOfCiJobs(q: Queryable, ciJobIds: readonly number[], now: Date): Promise<string[]> {
  if (ciJobIds.length === 0) return [];
  const res = await q.query(
    `UPDATE local_forge_check_runs SET state = 'cancelled', description = 'cancelled: superseded', completed_at = $2::timestamptz, updated_at = $2::timestamptz
     WHERE ci_job_id = ANY($1::bigint[]) AND completed_at IS NULL RETURNING sha`,
    [ciJobIds, now],
  );
  return [...new Set(res.rows.map((r) => r.sha as string))];
}
