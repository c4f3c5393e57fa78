/**
 * Job retry decisions by idempotency key (`ci_retry_decisions`, migration 0018;
 * docs/ci-insights.md "Job retries"): a decision is taken once per key, and a second request for
 * the same key gets the first answer without counting anything again.
 */
import type pg from "pg";

/** A decision as it was taken. */
export interface RetryDecisionRow {
  outcome: "retried" | "skipped_quota_exceeded" | "exhausted";
  ruleName: string;
  retryMode: "job" | "pipeline";
  /** The job's retry number when retried, else 0. */
  attempt: number;
}

/**
 * Claims `key` for a decision in the caller's transaction, or returns the decision taken for it
 * already. A concurrent claim of the same key waits for the first transaction (the primary key's
 * lock) and then reads its decision; if that transaction rolled back, this one claims the key.
 * The claimed row holds a placeholder until {@link recordRetryDecision} in the same transaction.
 * @returns null when claimed now (decide, then record); else the earlier decision
 */
export async function claimRetryDecision(
  client: pg.ClientBase,
  repository: string,
  key: string,
  now: Date,
): Promise<RetryDecisionRow | null> {
  const claimed = await client.query(
    `INSERT INTO ci_retry_decisions (repository, decision_key, outcome, rule_name, retry_mode, attempt, decided_at)
     VALUES ($1::text, $2::text, 'exhausted', '', 'job', 0, $3::timestamptz) ON CONFLICT DO NOTHING RETURNING 1`,
    [repository, key, now],
  );
  if (claimed.rowCount === 1) return null;
  const res = await client.query<{
    outcome: RetryDecisionRow["outcome"];
    rule_name: string;
    retry_mode: "job" | "pipeline";
    attempt: number;
  }>(
    `SELECT outcome, rule_name, retry_mode, attempt FROM ci_retry_decisions
     WHERE repository = $1::text AND decision_key = $2::text`,
    [repository, key],
  );
  const r = res.rows[0]!;
  return { outcome: r.outcome, ruleName: r.rule_name, retryMode: r.retry_mode, attempt: r.attempt };
}

/** Records the decision for a key claimed in this transaction ({@link claimRetryDecision}). */
export async function recordRetryDecision(
  client: pg.ClientBase,
  repository: string,
  key: string,
  d: RetryDecisionRow,
): Promise<void> {
  await client.query(
    `UPDATE ci_retry_decisions SET outcome = $3::text, rule_name = $4::text, retry_mode = $5::text, attempt = $6::int
     WHERE repository = $1::text AND decision_key = $2::text`,
    [repository, key, d.outcome, d.ruleName, d.retryMode, d.attempt],
  );
}
