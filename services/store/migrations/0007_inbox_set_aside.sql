-- Up Migration

-- Inputs of the queue runner set aside after failing the same way several times in a row (an input
-- the engine cannot apply: a bug, or data no code path expected). Without this, one such input
-- blocked every later input of its repository for good. A set-aside row keeps the input as it was
-- and why it failed; putting it back in queue_inbox retries it (docs/merge-queue.md "Runner").
CREATE TABLE queue_inbox_set_aside (
  id bigint PRIMARY KEY,
  repository text NOT NULL,
  input jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  failures int NOT NULL,
  last_error text NOT NULL,
  set_aside_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX queue_inbox_set_aside_by_repository ON queue_inbox_set_aside (repository, id);
