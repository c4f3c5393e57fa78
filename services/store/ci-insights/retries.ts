/**
 * Job retry rules, the daily quota and its use (`ci_retry_rules`, `ci_retry_quotas`,
 * `ci_retry_usage`, `ci_job_retries`, migration 0013; docs/ci-insights.md "Job retries").
 */
import type pg from "pg";

/** One retry rule. */
export interface RetryRuleRow {
  id: string;
  repository: string;
  name: string;
  jobNames: string[];
  pipelineNames: string[];
  branches: string[];
  conclusions: string[];
  logPattern: string;
  maxRetry: number;
  retryMode: "job" | "pipeline";
  createdAt: Date;
}

/** Retries per repository and UTC day when the repository set no quota. */
export const DEFAULT_DAILY_RETRY_QUOTA = 50;

const COLUMNS =
  "id, repository, name, job_names, pipeline_names, branches, conclusions, log_pattern, max_retry, retry_mode, created_at";
// biome-ignore lint/suspicious/noExplicitAny: a database row as node-postgres returns it; toRow reads its columns by name and types them
const toRow = (r: any): RetryRuleRow => ({
  id: r.id,
  repository: r.repository,
  name: r.name,
  jobNames: r.job_names,
  pipelineNames: r.pipeline_names,
  branches: r.branches,
  conclusions: r.conclusions,
  logPattern: r.log_pattern,
  maxRetry: r.max_retry,
  retryMode: r.retry_mode,
  createdAt: r.created_at,
});

/** The repository's rules, oldest first. */
export async function listRetryRules(db: pg.Pool | pg.ClientBase, repository: string): Promise<RetryRuleRow[]> {
  const res = await db.query(
    `SELECT ${COLUMNS} FROM ci_retry_rules WHERE repository = $1::text ORDER BY created_at, id`,
    [repository],
  );
  return res.rows.map(toRow);
}

/** Inserts a rule. @returns it, or null when the repository has a rule of that name */
export async function insertRetryRule(db: pg.Pool | pg.ClientBase, r: RetryRuleRow): Promise<RetryRuleRow | null> {
  const res = await db.query(
    `INSERT INTO ci_retry_rules (${COLUMNS}) VALUES ($1::uuid, $2::text, $3::text, $4::text[], $5::text[], $6::text[], $7::text[], $8::text, $9::int, $10::text, $11::timestamptz)
     ON CONFLICT (repository, name) DO NOTHING RETURNING ${COLUMNS}`,
    [
      r.id,
      r.repository,
      r.name,
      r.jobNames,
      r.pipelineNames,
      r.branches,
      r.conclusions,
      r.logPattern,
      r.maxRetry,
      r.retryMode,
      r.createdAt,
    ],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/** Deletes a rule. @returns whether it existed */
export async function deleteRetryRule(db: pg.Pool | pg.ClientBase, repository: string, id: string): Promise<boolean> {
  const res = await db.query("DELETE FROM ci_retry_rules WHERE repository = $1::text AND id = $2::uuid", [
    repository,
    id,
  ]);
  return res.rowCount === 1;
}

/** The repository's daily quota. */
export async function dailyRetryQuota(db: pg.Pool | pg.ClientBase, repository: string): Promise<number> {
  const res = await db.query<{ q: number }>(
    "SELECT daily_quota AS q FROM ci_retry_quotas WHERE repository = $1::text",
    [repository],
  );
  return res.rows[0]?.q ?? DEFAULT_DAILY_RETRY_QUOTA;
}

/** Sets the daily quota. */
export async function setDailyRetryQuota(
  db: pg.Pool | pg.ClientBase,
  repository: string,
  quota: number,
): Promise<void> {
  await db.query(
    `INSERT INTO ci_retry_quotas (repository, daily_quota) VALUES ($1::text, $2::int)
     ON CONFLICT (repository) DO UPDATE SET daily_quota = EXCLUDED.daily_quota`,
    [repository, quota],
  );
}

/** Retries used on `day` (UTC date, YYYY-MM-DD). */
export async function retriesOn(db: pg.Pool | pg.ClientBase, repository: string, day: string): Promise<number> {
  const res = await db.query<{ n: number }>(
    "SELECT retries AS n FROM ci_retry_usage WHERE repository = $1::text AND day = $2::date",
    [repository, day],
  );
  return res.rows[0]?.n ?? 0;
}

/**
 * Takes one retry of the day's quota and one of the job's `maxRetry`, both or neither, in the
 * caller's transaction (serialised per repository by the quota row's lock).
 * @returns "retried" with the job's retry number, or why not
 */
export async function takeRetry(
  client: pg.ClientBase,
  input: { repository: string; day: string; quota: number; jobKey: string; maxRetry: number; now: Date },
): Promise<{ outcome: "retried"; attempt: number } | { outcome: "skipped_quota_exceeded" } | { outcome: "exhausted" }> {
  await client.query(
    `INSERT INTO ci_retry_usage (repository, day, retries) VALUES ($1::text, $2::date, 0) ON CONFLICT DO NOTHING`,
    [input.repository, input.day],
  );
  const used = (
    await client.query<{ n: number }>(
      "SELECT retries AS n FROM ci_retry_usage WHERE repository = $1::text AND day = $2::date FOR UPDATE",
      [input.repository, input.day],
    )
  ).rows[0]!.n;
  const job = await client.query<{ n: number }>(
    "SELECT retries AS n FROM ci_job_retries WHERE repository = $1::text AND job_key = $2::text",
    [input.repository, input.jobKey],
  );
  const done = job.rows[0]?.n ?? 0;
  if (done >= input.maxRetry) return { outcome: "exhausted" };
  if (used >= input.quota) return { outcome: "skipped_quota_exceeded" };
  await client.query("UPDATE ci_retry_usage SET retries = retries + 1 WHERE repository = $1::text AND day = $2::date", [
    input.repository,
    input.day,
  ]);
  await client.query(
    `INSERT INTO ci_job_retries (repository, job_key, retries, updated_at) VALUES ($1::text, $2::text, 1, $3::timestamptz)
     ON CONFLICT (repository, job_key) DO UPDATE SET retries = ci_job_retries.retries + 1, updated_at = EXCLUDED.updated_at`,
    [input.repository, input.jobKey, input.now],
  );
  return { outcome: "retried", attempt: done + 1 };
}
