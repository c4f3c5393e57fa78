-- Up Migration

-- CI Insights (docs/ci-insights.md): what is decided rather than measured lives here; the test
-- runs themselves are in ClickHouse (`test_runs`).

-- Quarantines: one per repository and test name (Mergify's key); `branch` null applies to every
-- branch. `test_id` is the test's id when the quarantine was made from a known test.
CREATE TABLE ci_quarantines (
  id uuid PRIMARY KEY,
  repository text NOT NULL,
  test_name text NOT NULL CHECK (char_length(test_name) BETWEEN 1 AND 2048),
  test_id uuid,
  reason text NOT NULL DEFAULT '',
  branch text,
  source text NOT NULL CHECK (source IN ('manual', 'auto')),
  assignee text,
  expires_at timestamptz,
  health_status_at_event text NOT NULL CHECK (health_status_at_event IN ('healthy', 'flaky', 'broken')),
  is_recovered boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX ci_quarantines_test ON ci_quarantines (repository, test_name);
CREATE INDEX ci_quarantines_expiry ON ci_quarantines (expires_at) WHERE expires_at IS NOT NULL;

-- Auto-quarantine settings; a repository without a row has the defaults (disabled).
CREATE TABLE ci_auto_quarantine_settings (
  repository text PRIMARY KEY,
  enabled boolean NOT NULL,
  window_days integer NOT NULL,
  min_runs integer NOT NULL,
  flakiness_threshold double precision NOT NULL,
  ignore_broken_on_default_branch boolean NOT NULL,
  recovery_days integer NOT NULL,
  expiry_days integer NOT NULL,
  updated_at timestamptz NOT NULL
);

-- Job retry rules, their repository's daily quota, the retries used per UTC day, and the
-- retries made per job (a rule's max_retry counts them per repository, pipeline, job and commit).
CREATE TABLE ci_retry_rules (
  id uuid PRIMARY KEY,
  repository text NOT NULL,
  name text NOT NULL,
  job_names text[] NOT NULL,
  pipeline_names text[] NOT NULL,
  branches text[] NOT NULL,
  conclusions text[] NOT NULL,
  log_pattern text NOT NULL,
  max_retry integer NOT NULL CHECK (max_retry BETWEEN 1 AND 10),
  retry_mode text NOT NULL CHECK (retry_mode IN ('job', 'pipeline')),
  created_at timestamptz NOT NULL,
  UNIQUE (repository, name)
);
CREATE TABLE ci_retry_quotas (
  repository text PRIMARY KEY,
  daily_quota integer NOT NULL CHECK (daily_quota >= 0)
);
CREATE TABLE ci_retry_usage (
  repository text NOT NULL,
  day date NOT NULL,
  retries integer NOT NULL,
  PRIMARY KEY (repository, day)
);
CREATE TABLE ci_job_retries (
  repository text NOT NULL,
  job_key text NOT NULL,
  retries integer NOT NULL,
  updated_at timestamptz NOT NULL,
  PRIMARY KEY (repository, job_key)
);
