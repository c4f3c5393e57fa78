-- Up Migration

-- Scheduled freezes (docs/scheduled-freeze.md; docs/domain.md §3.7): while one is active
-- (start_at <= now < end_at, end_at NULL = until deleted), the pull requests it matches are
-- checked but not merged. Conditions are stored as written (condition strings and and/or/not
-- objects); created_by is the caller's actor as JSON.
CREATE TABLE scheduled_freezes (
  id uuid PRIMARY KEY,
  repository text NOT NULL,
  reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 255),
  start_at timestamptz NOT NULL,
  end_at timestamptz CHECK (end_at IS NULL OR end_at > start_at),
  timezone text NOT NULL,
  matching_conditions jsonb NOT NULL,
  exclude_conditions jsonb NOT NULL,
  created_by jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX scheduled_freezes_repository ON scheduled_freezes (repository, start_at);
