-- Up Migration

-- Scopes sent by CI for a pull request (`POST .../pulls/{number}/scopes`, docs/merge-queue.md
-- "Scopes from CI"): the last list sent replaces the one before; `all_scopes` makes the pull
-- request a barrier across scopes. The queue reads them when `scopes.source` is `manual`.
CREATE TABLE pull_request_scopes (
  repository text NOT NULL,
  number bigint NOT NULL CHECK (number > 0),
  scopes text[] NOT NULL,
  all_scopes boolean NOT NULL,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (repository, number)
);
