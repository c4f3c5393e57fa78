-- Up Migration

-- Job retry records are forgotten after their retention (docs/ci-insights.md "Job retries"):
-- the CI Insights sweep deletes decisions, per-job counts and daily usage older than 30 days, by
-- these indexes, so a sweep reads only what it deletes.
CREATE INDEX ci_retry_decisions_decided_at ON ci_retry_decisions (decided_at);
CREATE INDEX ci_job_retries_updated_at ON ci_job_retries (updated_at);
CREATE INDEX ci_retry_usage_day ON ci_retry_usage (day);

