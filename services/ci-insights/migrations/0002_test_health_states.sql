-- Test health read from aggregates, not rows (docs/ci-insights.md "Health"). Materialized views
-- add every block inserted into `test_runs` to two AggregatingMergeTree tables, per repository,
-- branch, test and UTC day:
-- - test_health_daily: the counts and times (SimpleAggregateFunction sums, minima and maxima; a
--   time that did not happen is the epoch, or 2299 for a minimum) and the partial states of the
--   latest outcome and the first and last failure's commit (-State combinators), merged by the
--   health query with -Merge over the days of its window;
-- - test_health_commits: passed and failed runs per commit (a summing key), for the flaky rule
--   (passed and failed on the same commit) and the number of commits run on; small granules,
--   since the query reads only the tests that failed.
-- Rows expire a day after the last runs they summarise (`test_runs` keeps 90 days). The
-- part of a window's first day after its start is computed from `test_runs` itself, so the
-- figures are those of the rows, to the millisecond.
-- Existing runs are copied in once, guarded by the tables being empty (migrations run before the
-- server takes uploads).
CREATE TABLE IF NOT EXISTS test_health_daily (
  repository LowCardinality(String),
  branch LowCardinality(String),
  test_id UUID,
  day Date,
  name SimpleAggregateFunction(any, String),
  pipeline SimpleAggregateFunction(any, LowCardinality(String)),
  job SimpleAggregateFunction(any, LowCardinality(String)),
  file SimpleAggregateFunction(any, String),
  framework SimpleAggregateFunction(any, LowCardinality(String)),
  language SimpleAggregateFunction(any, LowCardinality(String)),
  runs SimpleAggregateFunction(sum, UInt64),
  passes SimpleAggregateFunction(sum, UInt64),
  failures SimpleAggregateFunction(sum, UInt64),
  last_run_at SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
  last_outcome AggregateFunction(argMax, Enum8('passed' = 1, 'failed' = 2, 'skipped' = 3, 'error' = 4), DateTime64(3, 'UTC')),
  first_failure_at SimpleAggregateFunction(min, DateTime64(3, 'UTC')),
  last_failure_at SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
  last_success_at SimpleAggregateFunction(max, DateTime64(3, 'UTC')),
  first_failure_commit AggregateFunction(argMinIf, String, DateTime64(3, 'UTC'), UInt8),
  first_failure_pulls AggregateFunction(argMinIf, Array(Int64), DateTime64(3, 'UTC'), UInt8),
  last_failure_commit AggregateFunction(argMaxIf, String, DateTime64(3, 'UTC'), UInt8)
) ENGINE = AggregatingMergeTree
ORDER BY (repository, branch, test_id, day)
TTL day + INTERVAL 91 DAY;

CREATE TABLE IF NOT EXISTS test_health_commits (
  repository LowCardinality(String),
  branch LowCardinality(String),
  test_id UUID,
  day Date,
  head_sha String,
  passes SimpleAggregateFunction(sum, UInt64),
  failures SimpleAggregateFunction(sum, UInt64)
) ENGINE = AggregatingMergeTree
ORDER BY (repository, branch, test_id, day, head_sha)
TTL day + INTERVAL 91 DAY
SETTINGS index_granularity = 1024;

CREATE MATERIALIZED VIEW IF NOT EXISTS test_health_daily_mv TO test_health_daily AS
SELECT repository, branch, test_id, toDate(received_at) AS day,
  any(name) AS name, any(pipeline) AS pipeline, any(job) AS job, any(file) AS file,
  any(framework) AS framework, any(language) AS language,
  count() AS runs, countIf(outcome = 'passed') AS passes, countIf(outcome IN ('failed', 'error')) AS failures,
  max(received_at) AS last_run_at, argMaxState(outcome, received_at) AS last_outcome,
  min(if(outcome IN ('failed', 'error'), received_at, toDateTime64('2299-12-31 00:00:00', 3, 'UTC'))) AS first_failure_at,
  max(if(outcome IN ('failed', 'error'), received_at, toDateTime64(0, 3, 'UTC'))) AS last_failure_at,
  max(if(outcome = 'passed', received_at, toDateTime64(0, 3, 'UTC'))) AS last_success_at,
  argMinIfState(head_sha, received_at, outcome IN ('failed', 'error')) AS first_failure_commit,
  argMinIfState(pull_requests, received_at, outcome IN ('failed', 'error')) AS first_failure_pulls,
  argMaxIfState(head_sha, received_at, outcome IN ('failed', 'error')) AS last_failure_commit
FROM test_runs GROUP BY repository, branch, test_id, day;

CREATE MATERIALIZED VIEW IF NOT EXISTS test_health_commits_mv TO test_health_commits AS
SELECT repository, branch, test_id, toDate(received_at) AS day, head_sha,
  countIf(outcome = 'passed') AS passes, countIf(outcome IN ('failed', 'error')) AS failures
FROM test_runs GROUP BY repository, branch, test_id, day, head_sha;

INSERT INTO test_health_daily
SELECT repository, branch, test_id, toDate(received_at) AS day,
  any(name), any(pipeline), any(job), any(file), any(framework), any(language),
  count(), countIf(outcome = 'passed'), countIf(outcome IN ('failed', 'error')),
  max(received_at), argMaxState(outcome, received_at),
  min(if(outcome IN ('failed', 'error'), received_at, toDateTime64('2299-12-31 00:00:00', 3, 'UTC'))),
  max(if(outcome IN ('failed', 'error'), received_at, toDateTime64(0, 3, 'UTC'))),
  max(if(outcome = 'passed', received_at, toDateTime64(0, 3, 'UTC'))),
  argMinIfState(head_sha, received_at, outcome IN ('failed', 'error')),
  argMinIfState(pull_requests, received_at, outcome IN ('failed', 'error')),
  argMaxIfState(head_sha, received_at, outcome IN ('failed', 'error'))
FROM test_runs WHERE (SELECT count() FROM test_health_daily) = 0
GROUP BY repository, branch, test_id, day;

INSERT INTO test_health_commits
SELECT repository, branch, test_id, toDate(received_at) AS day, head_sha,
  countIf(outcome = 'passed'), countIf(outcome IN ('failed', 'error'))
FROM test_runs WHERE (SELECT count() FROM test_health_commits) = 0
GROUP BY repository, branch, test_id, day, head_sha;

-- The rows of a window's first partial day, found by time: an index of the runs in time order per
-- branch (a projection of the part offsets only, not a copy of the rows), built for the parts
-- already stored by a background mutation.
ALTER TABLE test_runs ADD PROJECTION IF NOT EXISTS prj_branch_time (SELECT _part_offset ORDER BY repository, branch, received_at);

ALTER TABLE test_runs MATERIALIZE PROJECTION prj_branch_time;
