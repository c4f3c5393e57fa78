-- CI Insights' test runs (docs/ci-insights.md "Storage"): one row per test case execution.
-- Ordered by repository, branch, test and time, so a branch's health (every test of a branch over
-- a window) reads one contiguous range, and one test's runs on a branch another; the projection
-- gives one test's runs on every branch their own order. Rows expire after 90 days (TTL).
-- `upload_id` is the SHA-256 of the upload: a report sent twice is found and not stored again.
CREATE TABLE IF NOT EXISTS test_runs (
  repository LowCardinality(String),
  pipeline LowCardinality(String),
  job LowCardinality(String),
  test_id UUID,
  name String,
  file String,
  line UInt32,
  outcome Enum8('passed' = 1, 'failed' = 2, 'skipped' = 3, 'error' = 4),
  duration_ms UInt32,
  head_sha String,
  branch LowCardinality(String),
  base_branch LowCardinality(String),
  run_id String,
  attempt UInt16,
  batch_id String,
  pull_requests Array(Int64),
  framework LowCardinality(String),
  language LowCardinality(String),
  failure_message String CODEC(ZSTD(3)),
  upload_id String,
  received_at DateTime64(3, 'UTC'),
  PROJECTION prj_test (SELECT _part_offset ORDER BY repository, test_id, received_at),
  INDEX idx_upload upload_id TYPE bloom_filter GRANULARITY 4
) ENGINE = MergeTree
ORDER BY (repository, branch, test_id, received_at)
TTL toDateTime(received_at) + INTERVAL 90 DAY
