/**
 * Durable CI jobs of the local forge (`local_forge_ci_jobs`, migration 0003; docs/local-forge.md
 * "CI jobs"). A job is queued in the same transaction as the change that asks for it; a worker
 * claims it with `FOR UPDATE SKIP LOCKED` and a lease it renews while the job runs. A job whose
 * lease ran out (its worker died) is claimed again. Times are passed in (UTC), never read here.
 */
import { num, type Queryable } from "./queryable.js";

/** Life of a job: queued → running → done, or cancelled (superseded) at any point before done. */
export type CiJobState = "queued" | "running" | "done" | "cancelled";

/** One job, with its repository's name and path. */
export interface CiJobRow {
  id: number;
  repositoryId: number;
  repository: string;
  /** Absolute path of the bare repository. */
  path: string;
  sha: string;
  branch: string | null;
  reason: string;
  state: CiJobState;
  /** Claims so far (1 on the first run). */
  attempts: number;
  leaseOwner: string | null;
  leaseExpiresAt: Date | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
}

const COLUMNS = `j.id, j.repository_id, r.full_name, r.path, j.sha, j.branch, j.reason, j.state, j.attempts, j.lease_owner, j.lease_expires_at,
  j.created_at, j.started_at, j.finished_at`;
// biome-ignore lint/suspicious/noExplicitAny: a database row as node-postgres returns it; toRow reads its columns by name and types them
const toRow = (r: any): CiJobRow => ({
  id: num(r.id),
  repositoryId: num(r.repository_id),
  repository: r.full_name,
  path: r.path,
  sha: r.sha,
  branch: r.branch,
  reason: r.reason,
  state: r.state,
  attempts: r.attempts,
  leaseOwner: r.lease_owner,
  leaseExpiresAt: r.lease_expires_at,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
});

/** Queues a job. @returns its id */
export async function insertCiJob(
  q: Queryable,
  input: { repositoryId: number; sha: string; branch: string | null; reason: string; now: Date },
): Promise<number> {
  const res = await q.query(
    `INSERT INTO local_forge_ci_jobs (repository_id, sha, branch, reason, state, created_at)
     VALUES ($1::bigint, $2::text, $3::text, $4::text, 'queued', $5::timestamptz) RETURNING id`,
    [input.repositoryId, input.sha, input.branch, input.reason, input.now],
  );
  return num(res.rows[0].id);
}

/** True when a job of this commit exists that was not cancelled (queued, running or done). */
export async function hasLiveCiJob(q: Queryable, repositoryId: number, sha: string): Promise<boolean> {
  const res = await q.query(
    "SELECT 1 FROM local_forge_ci_jobs WHERE repository_id = $1::bigint AND sha = $2::text AND state <> 'cancelled' LIMIT 1",
    [repositoryId, sha],
  );
  return res.rowCount === 1;
}

/**
 * Cancels the queued and running jobs of a branch, except those of `keepSha` (the branch's new
 * tip; null cancels every one).
 * @returns the ids cancelled
 */
export async function cancelCiJobsOfBranch(
  q: Queryable,
  repositoryId: number,
  branch: string,
  keepSha: string | null,
  now: Date,
): Promise<number[]> {
  const res = await q.query(
    `UPDATE local_forge_ci_jobs SET state = 'cancelled', finished_at = $4::timestamptz, lease_owner = NULL, lease_expires_at = NULL
     WHERE repository_id = $1::bigint AND branch = $2::text AND state IN ('queued', 'running') AND ($3::text IS NULL OR sha <> $3::text)
     RETURNING id`,
    [repositoryId, branch, keepSha, now],
  );
  return res.rows.map((r) => num(r.id));
}

/** Cancels the queued and running jobs of a commit (an explicit re-run replaces them). @returns the ids cancelled */
export async function cancelCiJobsOfCommit(
  q: Queryable,
  repositoryId: number,
  sha: string,
  now: Date,
): Promise<number[]> {
  const res = await q.query(
    `UPDATE local_forge_ci_jobs SET state = 'cancelled', finished_at = $3::timestamptz, lease_owner = NULL, lease_expires_at = NULL
     WHERE repository_id = $1::bigint AND sha = $2::text AND state IN ('queued', 'running') RETURNING id`,
    [repositoryId, sha, now],
  );
  return res.rows.map((r) => num(r.id));
}

/**
 * Claims the oldest job that is queued, or running with an expired lease (its worker died), for
 * `owner` until `leaseUntil`; skips rows another worker is claiming at this instant, and never
 * takes back a job `owner` itself is running (a late lease renewal is not a death).
 * @returns the claimed job (state running, attempts counted), or null when there is none
 */
export async function claimCiJob(
  q: Queryable,
  input: { owner: string; now: Date; leaseUntil: Date },
): Promise<CiJobRow | null> {
  const res = await q.query(
    `WITH claimed AS (
       UPDATE local_forge_ci_jobs SET state = 'running', attempts = attempts + 1, lease_owner = $1::text, lease_expires_at = $3::timestamptz,
         started_at = coalesce(started_at, $2::timestamptz)
       WHERE id = (
         SELECT id FROM local_forge_ci_jobs
         WHERE state = 'queued' OR (state = 'running' AND lease_expires_at < $2::timestamptz AND lease_owner <> $1::text)
         ORDER BY id FOR UPDATE SKIP LOCKED LIMIT 1
       )
       RETURNING *
     )
     SELECT ${COLUMNS} FROM claimed j JOIN local_forge_repositories r ON r.id = j.repository_id`,
    [input.owner, input.now, input.leaseUntil],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/** Extends the lease of a running job. @returns false when the job is no longer this owner's (cancelled, taken over, finished) */
export async function renewCiJobLease(q: Queryable, id: number, owner: string, leaseUntil: Date): Promise<boolean> {
  const res = await q.query(
    "UPDATE local_forge_ci_jobs SET lease_expires_at = $3::timestamptz WHERE id = $1::bigint AND lease_owner = $2::text AND state = 'running'",
    [id, owner, leaseUntil],
  );
  return res.rowCount === 1;
}

/** Marks a running job of this owner done. @returns false when it was cancelled or taken over meanwhile */
export async function finishCiJob(q: Queryable, id: number, owner: string, now: Date): Promise<boolean> {
  const res = await q.query(
    `UPDATE local_forge_ci_jobs SET state = 'done', finished_at = $3::timestamptz, lease_owner = NULL, lease_expires_at = NULL
     WHERE id = $1::bigint AND lease_owner = $2::text AND state = 'running'`,
    [id, owner, now],
  );
  return res.rowCount === 1;
}

/** Puts a running job of this owner back in the queue (a worker stopping cleanly). @returns false when it was not this owner's */
export async function releaseCiJob(q: Queryable, id: number, owner: string): Promise<boolean> {
  const res = await q.query(
    `UPDATE local_forge_ci_jobs SET state = 'queued', lease_owner = NULL, lease_expires_at = NULL
     WHERE id = $1::bigint AND lease_owner = $2::text AND state = 'running'`,
    [id, owner],
  );
  return res.rowCount === 1;
}

/** A job by id, or null. */
export async function findCiJob(q: Queryable, id: number): Promise<CiJobRow | null> {
  const res = await q.query(
    `SELECT ${COLUMNS} FROM local_forge_ci_jobs j JOIN local_forge_repositories r ON r.id = j.repository_id WHERE j.id = $1::bigint`,
    [id],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/** The jobs of a commit, oldest first. */
export async function ciJobsOfCommit(q: Queryable, repositoryId: number, sha: string): Promise<CiJobRow[]> {
  const res = await q.query(
    `SELECT ${COLUMNS} FROM local_forge_ci_jobs j JOIN local_forge_repositories r ON r.id = j.repository_id
     WHERE j.repository_id = $1::bigint AND j.sha = $2::text ORDER BY j.id`,
    [repositoryId, sha],
  );
  return res.rows.map(toRow);
}
