-- Up Migration

-- Workflow automation (docs/workflow-automation.md "When actions run"): pull_request_rules run
-- their actions once per transition of their conditions from not matching to matching.

-- Whether each rule matched a pull request at its last evaluation, and how many times it went from
-- not matching to matching (the transition number of the idempotency keys below).
CREATE TABLE pull_rule_states (
  repository text NOT NULL,
  number bigint NOT NULL CHECK (number > 0),
  rule text NOT NULL,
  matching boolean NOT NULL,
  transitions integer NOT NULL DEFAULT 0 CHECK (transitions >= 0),
  -- post_check: the check last posted while the rule matched (conclusion, title, summary), so a
  -- change of its conclusion is posted again and an unchanged one is not.
  posted_check jsonb,
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (repository, number, rule)
);

-- One row per action decided: its idempotency key (repository, pull request, rule, transition,
-- action), inserted in the round's transaction with the effect that performs it (a key already
-- present is never decided again), and its outcome once performed, in the transaction that
-- deletes the effect.
CREATE TABLE pull_rule_actions (
  idempotency_key text PRIMARY KEY,
  -- Decision order (the order of the file within a round).
  seq bigint GENERATED ALWAYS AS IDENTITY,
  repository text NOT NULL,
  number bigint NOT NULL,
  rule text NOT NULL,
  transition integer NOT NULL,
  action text NOT NULL,
  outcome text CHECK (outcome IN ('success', 'failure')),
  decided_at timestamptz NOT NULL DEFAULT now(),
  performed_at timestamptz
);
CREATE INDEX pull_rule_actions_pull ON pull_rule_actions (repository, number);

-- Label flips decided by rules, per pull request and label, within a window: too many and the
-- label is left alone (action.label.loop_stopped, once).
CREATE TABLE pull_rule_label_flips (
  repository text NOT NULL,
  number bigint NOT NULL,
  label text NOT NULL,
  flips integer NOT NULL DEFAULT 0,
  rules text[] NOT NULL DEFAULT '{}',
  window_start timestamptz NOT NULL,
  stopped boolean NOT NULL DEFAULT false,
  PRIMARY KEY (repository, number, label)
);
