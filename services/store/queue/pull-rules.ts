/**
 * The tables of workflow automation (docs/workflow-automation.md "When actions run"): each rule's
 * last verdict per pull request, the actions decided by idempotency key, and label flips. Every
 * function runs on the caller's client (the round's or the effects round's transaction).
 */
import type pg from "pg";

/** A rule's last verdict on a pull request. */
export interface PullRuleState {
  rule: string;
  matching: boolean;
  /** How many times the rule went from not matching to matching. */
  transitions: number;
  /** post_check: the check last posted (any JSON), null when none. */
  postedCheck: unknown;
}

/** The rules' last verdicts on pull request `number`, by rule name. */
export async function loadPullRuleStates(
  client: pg.ClientBase,
  repository: string,
  number: number,
): Promise<Map<string, PullRuleState>> {
  const res = await client.query<{ rule: string; matching: boolean; transitions: number; posted_check: unknown }>(
    "SELECT rule, matching, transitions, posted_check FROM pull_rule_states WHERE repository = $1 AND number = $2",
    [repository, number],
  );
  return new Map(
    res.rows.map((r) => [
      r.rule,
      { rule: r.rule, matching: r.matching, transitions: r.transitions, postedCheck: r.posted_check },
    ]),
  );
}

/** Writes a rule's verdict on pull request `number` (insert or replace). */
export async function savePullRuleState(
  client: pg.ClientBase,
  repository: string,
  number: number,
  s: PullRuleState,
): Promise<void> {
  await client.query(
    `INSERT INTO pull_rule_states (repository, number, rule, matching, transitions, posted_check, updated_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, now())
     ON CONFLICT (repository, number, rule) DO UPDATE SET matching = EXCLUDED.matching,
       transitions = EXCLUDED.transitions, posted_check = EXCLUDED.posted_check, updated_at = now()`,
    [
      repository,
      number,
      s.rule,
      s.matching,
      s.transitions,
      s.postedCheck === null ? null : JSON.stringify(s.postedCheck),
    ],
  );
}

/** What identifies a decided action. */
export interface PullRuleActionKey {
  key: string;
  repository: string;
  number: number;
  rule: string;
  transition: number;
  action: string;
}

/**
 * Records an action as decided. @returns false when its idempotency key was decided already (the
 * action must not be decided again).
 */
export async function claimPullRuleAction(client: pg.ClientBase, a: PullRuleActionKey): Promise<boolean> {
  const res = await client.query(
    `INSERT INTO pull_rule_actions (idempotency_key, repository, number, rule, transition, action)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (idempotency_key) DO NOTHING`,
    [a.key, a.repository, a.number, a.rule, a.transition, a.action],
  );
  return res.rowCount === 1;
}

/** Records the outcome of a performed action. */
export async function recordPullRuleOutcome(
  client: pg.ClientBase,
  key: string,
  outcome: "success" | "failure",
): Promise<void> {
  await client.query("UPDATE pull_rule_actions SET outcome = $2, performed_at = now() WHERE idempotency_key = $1", [
    key,
    outcome,
  ]);
}

/** Performed actions of a pull request, oldest first (for tests and operators). */
export async function listPullRuleActions(
  db: pg.Pool | pg.ClientBase,
  repository: string,
  number: number,
): Promise<{ key: string; rule: string; action: string; outcome: string | null }[]> {
  const res = await db.query<{ idempotency_key: string; rule: string; action: string; outcome: string | null }>(
    `SELECT idempotency_key, rule, action, outcome FROM pull_rule_actions
     WHERE repository = $1 AND number = $2 ORDER BY seq`,
    [repository, number],
  );
  return res.rows.map((r) => ({ key: r.idempotency_key, rule: r.rule, action: r.action, outcome: r.outcome }));
}

/** Label flips of a pull request's label in the current window. */
export interface LabelFlips {
  flips: number;
  rules: string[];
  windowStart: Date;
  stopped: boolean;
}

/** The flips of `label` on pull request `number`; null when none was recorded. */
export async function loadLabelFlips(
  client: pg.ClientBase,
  repository: string,
  number: number,
  label: string,
): Promise<LabelFlips | null> {
  const res = await client.query<{ flips: number; rules: string[]; window_start: Date; stopped: boolean }>(
    "SELECT flips, rules, window_start, stopped FROM pull_rule_label_flips WHERE repository = $1 AND number = $2 AND label = $3",
    [repository, number, label],
  );
  const r = res.rows[0];
  return r ? { flips: r.flips, rules: r.rules, windowStart: r.window_start, stopped: r.stopped } : null;
}

/** Writes the flips of `label` on pull request `number`. */
export async function saveLabelFlips(
  client: pg.ClientBase,
  repository: string,
  number: number,
  label: string,
  f: LabelFlips,
): Promise<void> {
  await client.query(
    `INSERT INTO pull_rule_label_flips (repository, number, label, flips, rules, window_start, stopped)
     VALUES ($1, $2, $3, $4, $5, $6, $7)
     ON CONFLICT (repository, number, label) DO UPDATE SET flips = EXCLUDED.flips, rules = EXCLUDED.rules,
       window_start = EXCLUDED.window_start, stopped = EXCLUDED.stopped`,
    [repository, number, label, f.flips, f.rules, f.windowStart, f.stopped],
  );
}
