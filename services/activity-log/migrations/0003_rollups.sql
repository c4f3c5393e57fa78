-- Exact 12-hour rollups of the events table for long-window aggregates (docs/activity-log.md
-- "Rollups"). Materialized views add every block inserted into `events` to three summing tables,
-- so each holds, per repository and 12-hour period (UTC 00:00 and 12:00, the boundaries of the
-- 12 h / 1 day / 7 days histogram buckets), the number of events per combination of its columns:
-- - events_rollup_dims: per event type, outcome, trigger and base ref (histogram, by_event_type,
--   by_outcome, by_trigger, total, under any base_ref / type / outcome / trigger filter);
-- - events_rollup_pull_requests: per pull request (by_pull_request without other filters);
-- - events_rollup_batch_pulls: per batch pull request (by_batch_pull_request without other filters).
-- A SummingMergeTree adds up rows with the same key when it merges parts; queries still sum.
-- The rollups count what was inserted: the log is append-only and the relay never inserts an id
-- twice (event-store.ts), so they stay equal to `events`. Existing events are copied in once,
-- guarded by the rollup being empty (migrations run before the relay starts).
CREATE TABLE IF NOT EXISTS events_rollup_dims (
  repository LowCardinality(String),
  period DateTime('UTC'),
  type LowCardinality(String),
  outcome LowCardinality(String),
  trigger LowCardinality(String),
  base_ref LowCardinality(String),
  events UInt64
) ENGINE = SummingMergeTree
ORDER BY (repository, period, type, outcome, trigger, base_ref);

CREATE TABLE IF NOT EXISTS events_rollup_pull_requests (
  repository LowCardinality(String),
  period DateTime('UTC'),
  pull_request Int64,
  events UInt64
) ENGINE = SummingMergeTree
ORDER BY (repository, period, pull_request);

CREATE TABLE IF NOT EXISTS events_rollup_batch_pulls (
  repository LowCardinality(String),
  period DateTime('UTC'),
  batch_pull Int64,
  events UInt64
) ENGINE = SummingMergeTree
ORDER BY (repository, period, batch_pull);

-- A view's columns reach its target table by name; the Enum8 columns become text through a subquery.
CREATE MATERIALIZED VIEW IF NOT EXISTS events_rollup_dims_mv TO events_rollup_dims AS
SELECT repository, period, type_name AS type, outcome_name AS outcome, trigger, base_ref, count() AS events
FROM (SELECT repository, toStartOfInterval(received_at, INTERVAL 12 HOUR) AS period, toString(type) AS type_name, toString(outcome) AS outcome_name, trigger, base_ref FROM events)
GROUP BY repository, period, type, outcome, trigger, base_ref;

CREATE MATERIALIZED VIEW IF NOT EXISTS events_rollup_pull_requests_mv TO events_rollup_pull_requests AS
SELECT repository, toStartOfInterval(received_at, INTERVAL 12 HOUR) AS period, pull_request, count() AS events
FROM events WHERE pull_request >= 0 GROUP BY repository, period, pull_request;

CREATE MATERIALIZED VIEW IF NOT EXISTS events_rollup_batch_pulls_mv TO events_rollup_batch_pulls AS
SELECT repository, toStartOfInterval(received_at, INTERVAL 12 HOUR) AS period, batch_pull, count() AS events
FROM events WHERE batch_pull >= 0 GROUP BY repository, period, batch_pull;

INSERT INTO events_rollup_dims (repository, period, type, outcome, trigger, base_ref, events)
SELECT repository, toStartOfInterval(received_at, INTERVAL 12 HOUR) AS period, toString(type) AS type_name, toString(outcome) AS outcome_name,
  trigger, base_ref, count()
FROM events WHERE (SELECT count() FROM events_rollup_dims) = 0
GROUP BY repository, period, type_name, outcome_name, trigger, base_ref;

INSERT INTO events_rollup_pull_requests (repository, period, pull_request, events)
SELECT repository, toStartOfInterval(received_at, INTERVAL 12 HOUR) AS period, pull_request, count()
FROM events WHERE pull_request >= 0 AND (SELECT count() FROM events_rollup_pull_requests) = 0
GROUP BY repository, period, pull_request;

INSERT INTO events_rollup_batch_pulls (repository, period, batch_pull, events)
SELECT repository, toStartOfInterval(received_at, INTERVAL 12 HOUR) AS period, batch_pull, count()
FROM events WHERE batch_pull >= 0 AND (SELECT count() FROM events_rollup_batch_pulls) = 0
GROUP BY repository, period, batch_pull;
