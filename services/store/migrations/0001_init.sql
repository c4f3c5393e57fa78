-- Up Migration

-- Tokens issued by the service (docs/auth.md). Only SHA-256 of the secret is stored.
CREATE TABLE api_tokens (
  id uuid PRIMARY KEY,
  secret_hash bytea NOT NULL,
  repositories text[] NOT NULL CHECK (cardinality(repositories) > 0),
  description text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  revoked_at timestamptz
);

-- Pause state of each repository's merge queue, shared by the merge-queue/pause and queue/pause
-- endpoint families (docs/pause.md). A row exists while the queue is paused.
CREATE TABLE queue_pauses (
  repository text PRIMARY KEY,
  reason text NOT NULL CHECK (char_length(reason) BETWEEN 1 AND 255),
  paused_at timestamptz NOT NULL,
  paused_by jsonb NOT NULL
);

-- Activity log event ids (docs/events.md "Envelope" id): assigned here, never by a caller.
CREATE SEQUENCE event_ids AS bigint;

-- The event outbox (docs/architecture.md "A forge event, end to end"): events are written in the
-- same transaction as the state they describe; the relay copies them to ClickHouse and deletes them
-- only once ClickHouse has acknowledged. `relay_batch` is set when a relay batch claims a row: a
-- batch is re-sent exactly as it was until acknowledged, with the same deduplication token, so a
-- retry never duplicates.
CREATE TABLE event_outbox (
  id bigint PRIMARY KEY,
  received_at timestamptz NOT NULL,
  repository text NOT NULL,
  trigger text NOT NULL,
  pull_request bigint,
  base_ref text,
  outcome text NOT NULL CHECK (outcome IN ('success', 'failure', 'pending', 'neutral')),
  type text NOT NULL,
  batch_pull bigint,
  metadata text NOT NULL,
  relay_batch bigint
);
CREATE INDEX event_outbox_unclaimed ON event_outbox (id) WHERE relay_batch IS NULL;
CREATE INDEX event_outbox_claimed ON event_outbox (relay_batch) WHERE relay_batch IS NOT NULL;
CREATE SEQUENCE outbox_relay_batches AS bigint;

-- AppendEvents deliveries by idempotency key: a repeated delivery writes nothing and gets the
-- ids of the first one (docs/activity-log.md).
CREATE TABLE event_deliveries (
  idempotency_key text PRIMARY KEY,
  request_hash bytea NOT NULL,
  ids bigint[] NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
