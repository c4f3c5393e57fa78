-- Up Migration

-- Job retry decisions by idempotency key (docs/ci-insights.md "Job retries"): on GitHub, one per
-- check run (an Actions job) and run attempt. A decision taken again for the same key (a webhook
-- delivered twice, or redelivered after its first processing failed part-way) is answered from
-- here: counted once against the day's quota and the job's max_retry, logged once.
CREATE TABLE ci_retry_decisions (
  repository text NOT NULL,
  decision_key text NOT NULL,
  outcome text NOT NULL CHECK (outcome IN ('retried', 'skipped_quota_exceeded', 'exhausted')),
  rule_name text NOT NULL,
  retry_mode text NOT NULL CHECK (retry_mode IN ('job', 'pipeline')),
  attempt integer NOT NULL,
  decided_at timestamptz NOT NULL,
  PRIMARY KEY (repository, decision_key)
);
