-- Up Migration

-- The merge queue state of each repository (services/engine state, plain JSON), written by the
-- runner under the repository's advisory lock in the same transaction as the events it logs.
CREATE TABLE queue_states (
  repository text PRIMARY KEY,
  state jsonb NOT NULL,
  version bigint NOT NULL DEFAULT 1,
  updated_at timestamptz NOT NULL DEFAULT now()
);

-- Inputs waiting for the runner, per repository, in arrival order: forge events (webhooks, local
-- forge actions), results of forge effects, fired timers. A row is deleted in the transaction
-- that applies it, so a crash loses none.
CREATE TABLE queue_inbox (
  id bigserial PRIMARY KEY,
  repository text NOT NULL,
  input jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX queue_inbox_by_repository ON queue_inbox (repository, id);

-- Forge effects decided by the engine and not yet performed (create a check branch, merge, comment,
-- ...). Written with the state that decided them; deleted when performed, in the transaction that
-- records their result in the inbox. A restart performs the rest (docs/merge-queue.md "Runner").
CREATE TABLE queue_effects (
  id bigserial PRIMARY KEY,
  repository text NOT NULL,
  effect jsonb NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  not_before timestamptz NOT NULL DEFAULT now(),
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX queue_effects_by_repository ON queue_effects (repository, id);

-- Durable timers (batch_max_wait_time, checks_timeout, ...): one per (repository, key); a due timer
-- is claimed with FOR UPDATE SKIP LOCKED and turned into an inbox row.
CREATE TABLE queue_timers (
  repository text NOT NULL,
  key text NOT NULL,
  due_at timestamptz NOT NULL,
  PRIMARY KEY (repository, key)
);
CREATE INDEX queue_timers_due ON queue_timers (due_at);

-- The configuration file last read for each repository (text and where it came from), for
-- /queues/configuration and to notice changes.
CREATE TABLE repository_configurations (
  repository text PRIMARY KEY,
  path text,
  text text,
  text_sha text,
  read_at timestamptz NOT NULL DEFAULT now()
);

-- Base branches touched by queue activity, per minute (docs/api.md #18 /queues/branches).
CREATE TABLE base_ref_activity (
  repository text NOT NULL,
  base_ref text NOT NULL,
  minute timestamptz NOT NULL,
  PRIMARY KEY (repository, base_ref, minute)
);
CREATE INDEX base_ref_activity_window ON base_ref_activity (repository, minute);

-- Products enabled on each repository (docs/configuration.md "Products and unused sections";
-- product.enabled / product.disabled events).
CREATE TABLE repository_products (
  repository text NOT NULL,
  product text NOT NULL CHECK (product IN ('merge_queue', 'workflow_automation', 'merge_protections', 'ci_insights')),
  enabled boolean NOT NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (repository, product)
);

-- Pull requests asked to enter the queue (command, API or a pull_request_rules `queue` action)
-- whose queue conditions are still pending (a check has not concluded): they enter when the
-- conditions hold, and the request is dropped with a reply when they fail.
CREATE TABLE queue_requests (
  repository text NOT NULL,
  number bigint NOT NULL,
  queue_rule text,
  trigger text NOT NULL,
  requested_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (repository, number)
);
