-- Up Migration

-- Exactly-once forge effects across crashes (docs/reliability.md "Crashes: every effect exactly once").

-- The local forge's ref journal: every git ref change a local forge write makes is recorded here,
-- committed on a connection of its own, before git moves the ref; the write deletes the row in its
-- own transaction. A row still present at start-up belongs to a write that did not commit: its ref
-- is moved back (new_sha -> old_sha, compare-and-swap) and the row deleted (docs/local-forge.md
-- "Writes and events"). NULL old_sha: the ref did not exist; NULL new_sha: the write deletes it.
CREATE TABLE local_forge_ref_journal (
  id bigserial PRIMARY KEY,
  repository_id bigint NOT NULL REFERENCES local_forge_repositories (id),
  ref text NOT NULL,
  old_sha text,
  new_sha text,
  write_id uuid NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The local forge's event outbox: the events of a write, written in the write's transaction,
-- delivered to the queue after the commit and deleted once it accepted them; what a crash left is
-- delivered at the next start.
CREATE TABLE local_forge_events (
  id bigserial PRIMARY KEY,
  repository text NOT NULL,
  event jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Idempotency keys of forge events the queue runner took into its inbox (a local forge event's
-- outbox id, a GitHub delivery and the event's place in it): a redelivered event is not taken
-- twice. Kept 7 days.
CREATE TABLE queue_inbox_keys (
  key text PRIMARY KEY,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX queue_inbox_keys_by_age ON queue_inbox_keys (created_at);

-- When a forge effect was first recorded as started: set, in a transaction of its own, before the
-- effect is performed, so a replay after a crash knows it may have been performed.
ALTER TABLE queue_effects ADD COLUMN started_at timestamptz;
