/**
 * Forgetting old job retry records (migration 0019; docs/ci-insights.md "Job retries"): the
 * decisions by idempotency key (`ci_retry_decisions`), the retries per job and commit
 * (`ci_job_retries`) and the retries per repository and UTC day (`ci_retry_usage`) are kept for
 * {@link RETRY_RECORD_RETENTION_DAYS} days, GitHub's limit for re-running a workflow run
 * (https://docs.github.com/en/actions/managing-workflow-runs-and-deployments/managing-workflow-runs/re-running-workflows-and-jobs).
 */
import type pg from "pg";

/** Days a job retry record is kept (decided_at, updated_at, or its UTC day). */
export const RETRY_RECORD_RETENTION_DAYS = 30;

/** Rows deleted per table by {@link pruneRetryRecords}. */
export interface PrunedRetryRecords {
  decisions: number;
  jobs: number;
  days: number;
}

/**
 * Deletes the retry records older than `before` (UTC): decisions decided, job counts last updated,
 * and daily usage of a UTC day ending, before it. Each table by its index, in one statement each.
 */
export async function pruneRetryRecords(db: pg.Pool | pg.ClientBase, before: Date): Promise<PrunedRetryRecords> {
  const decisions = await db.query("DELETE FROM ci_retry_decisions WHERE decided_at < $1::timestamptz", [before]);
  const jobs = await db.query("DELETE FROM ci_job_retries WHERE updated_at < $1::timestamptz", [before]);
  const days = await db.query("DELETE FROM ci_retry_usage WHERE day < ($1::timestamptz AT TIME ZONE 'UTC')::date", [
    before,
  ]);
  return { decisions: decisions.rowCount ?? 0, jobs: jobs.rowCount ?? 0, days: days.rowCount ?? 0 };
}
