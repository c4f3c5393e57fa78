-- Up Migration

-- Outgoing webhooks (docs/notifications.md). A subscription sends the activity log events of one
-- repository whose type matches one of its patterns (an exact type, `prefix.*`, or `*`) to a URL,
-- as Yardmaster's JSON (signed) or as a Slack incoming-webhook message. The secret signs bodies
-- (HMAC-SHA256), so it is kept as given, like GitHub's webhook secrets; it is never read back by
-- the API.
CREATE TABLE webhook_subscriptions (
  id uuid PRIMARY KEY,
  repository text NOT NULL CHECK (repository = lower(repository)),
  url text NOT NULL CHECK (char_length(url) BETWEEN 1 AND 2048),
  format text NOT NULL CHECK (format IN ('json', 'slack')),
  event_types text[] NOT NULL CHECK (cardinality(event_types) BETWEEN 1 AND 100),
  secret text NOT NULL,
  description text NOT NULL DEFAULT '',
  created_at timestamptz NOT NULL DEFAULT now(),
  created_by jsonb NOT NULL
);
CREATE INDEX webhook_subscriptions_repository ON webhook_subscriptions (repository);

-- One delivery per (subscription, event): created by the outbox relay in the transaction that
-- deletes the relayed events (so each event is fanned out exactly once), sent by the delivery
-- loop. The event's columns are copied: the body is written from them at each attempt, the same
-- bytes every time. `claimed_until` is the lease of the process sending it; a pending delivery
-- whose lease ran out (its process died) is sent again. A redelivery sets it pending again.
CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY,
  subscription_id uuid NOT NULL REFERENCES webhook_subscriptions (id) ON DELETE CASCADE,
  repository text NOT NULL,
  event_id bigint NOT NULL,
  event_received_at timestamptz NOT NULL,
  event_trigger text NOT NULL,
  event_repository text NOT NULL,
  event_pull_request bigint,
  event_base_ref text,
  event_outcome text NOT NULL,
  event_type text NOT NULL,
  event_metadata text NOT NULL,
  state text NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'delivered', 'failed')),
  attempts int NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  claimed_until timestamptz,
  -- A redelivery was asked for: the next attempt is due now and logged as a redelivery.
  redeliver boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  completed_at timestamptz,
  UNIQUE (subscription_id, event_id)
);
CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at) WHERE state = 'pending';
CREATE INDEX webhook_deliveries_log ON webhook_deliveries (repository, created_at DESC, id);
CREATE INDEX webhook_deliveries_done ON webhook_deliveries (completed_at) WHERE state <> 'pending';

-- Every attempt of a delivery: when, how long, and what came back (the status code, or the
-- network error in words). No response body is kept: a subscription's URL is chosen by whoever
-- holds the repository's token, and the answer of an address inside the network is not theirs to
-- read (docs/notifications.md "Security").
CREATE TABLE webhook_attempts (
  delivery_id uuid NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt int NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms int NOT NULL,
  status_code int,
  error text,
  redelivery boolean NOT NULL DEFAULT false,
  PRIMARY KEY (delivery_id, attempt)
);
