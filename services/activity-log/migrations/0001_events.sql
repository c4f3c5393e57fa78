-- The activity log (docs/activity-log.md "ClickHouse choices"). Ordered by repository and
-- time so a repository's window is one contiguous range; the two projection indexes give the
-- pull request and batch pull request lookups their own order. `pull_request` and `batch_pull`
-- use -1 for "none" and `base_ref` '' for null: GROUP BY on Nullable columns costs ~2.4x.
-- Metadata is kept as the JSON text that was validated on ingest, returned as is.
CREATE TABLE IF NOT EXISTS events (
  id UInt64,
  received_at DateTime64(3, 'UTC'),
  repository LowCardinality(String),
  trigger LowCardinality(String),
  pull_request Int64,
  base_ref LowCardinality(String),
  outcome LowCardinality(String),
  type LowCardinality(String),
  batch_pull Int64,
  metadata String CODEC(ZSTD(3)),
  PROJECTION prj_pull_request (SELECT _part_offset ORDER BY repository, pull_request),
  PROJECTION prj_batch_pull (SELECT _part_offset ORDER BY repository, batch_pull)
) ENGINE = MergeTree
ORDER BY (repository, received_at, id)
