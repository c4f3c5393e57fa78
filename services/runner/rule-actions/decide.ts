/**
 * Deciding the actions of `pull_request_rules` (docs/workflow-automation.md "When actions run"),
 * in the round's transaction: every rule is evaluated against the pull request as the forge shows
 * it now; a rule whose conditions went from false (or never evaluated) to true starts a new
 * transition, and each of its actions is decided once for it, in the order of the file, under an
 * idempotency key claimed in `pull_rule_actions` (a key already claimed is never decided again,
 * whatever redelivery or second runner asks). The effects are performed after the commit
 * (perform-round.ts). Exceptions to "once per transition": post_check follows its conclusion while
 * it is evaluated, dismiss_reviews (`when: synchronize`) runs on each push while the rule matches,
 * `label.toggle` removes its labels when the rule stops matching, and merge waits, while the rule
 * matches, for the merge protections to succeed.
 */
import {
  postCheckConclusion,
  postCheckFromPlan,
  QUEUE_ACTIONS,
  ruleMatches,
  type PullRequestRuleConfig,
} from "../../config/index.js";
import type { PullRequestSnapshot } from "../../forge/index.js";
import {
  claimPullRuleAction,
  loadPullRuleStates,
  recordPullRuleOutcome,
  savePullRuleState,
  type PullRuleState,
} from "../../store/index.js";
import type { IngressEnv } from "../ingress-env.js";
import { ruleActionKey, type RuleActionEffect } from "./effect.js";
import { protectionsOf } from "../merge-protections/evaluate.js";
import { withoutLoops } from "./label-loop.js";
import { planRuleAction } from "./plan.js";

/** Rules with an action for this machinery (not only `queue`), enabled; none while workflow automation is off. */
export function actingRules(env: IngressEnv): PullRequestRuleConfig[] {
  if (!env.products.workflow_automation) return [];
  return env.config.config.pull_request_rules.filter(
    (r) => !r.disabled && Object.keys(r.actions).some((a) => !QUEUE_ACTIONS.has(a)),
  );
}

type Options = Record<string, unknown>;
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/**
 * Evaluates every acting rule on `pr` and decides the actions due.
 * @param pushed the evaluation follows a push to the head (dismiss_reviews `when: synchronize`)
 */
export async function decidePullRules(
  env: IngressEnv,
  pr: PullRequestSnapshot,
  rules: readonly PullRequestRuleConfig[],
  pushed: boolean,
): Promise<void> {
  const states = await loadPullRuleStates(env.client, env.repository, pr.number);
  for (const rule of rules) {
    const prev: PullRuleState = states.get(rule.name) ?? {
      rule: rule.name,
      matching: false,
      transitions: 0,
      postedCheck: null,
    };
    const matching = ruleMatches(rule, pr, env.now);
    const next: PullRuleState = { ...prev, matching };
    if (matching && !prev.matching) next.transitions += 1;
    // A rule with a merge goes through its actions again while it matches: a merge that waited
    // for the merge protections, and the actions after it, are decided once they succeed (the
    // idempotency keys keep every action to once per transition).
    if (matching && (!prev.matching || rule.actions.merge !== undefined))
      await decideActions(env, pr, rule, next.transitions);
    if (!matching && prev.matching && list(rule.actions.label?.toggle).length > 0) {
      const remove = list(rule.actions.label?.toggle);
      await emitAction(env, pr, {
        rule,
        suffix: `${prev.transitions}#label#off`,
        action: "label",
        options: { add: [], remove },
      });
    }
    const dismiss = rule.actions.dismiss_reviews;
    if (dismiss && matching && pushed && dismiss.when !== "always") {
      const suffix = `${next.transitions}#dismiss_reviews#${pr.headSha}`;
      await emitAction(env, pr, { rule, suffix, action: "dismiss_reviews", options: dismiss });
    }
    if (rule.actions.post_check) next.postedCheck = await decidePostCheck(env, pr, rule, matching, prev.postedCheck);
    if (next.matching !== prev.matching || next.postedCheck !== prev.postedCheck || !states.has(rule.name))
      await savePullRuleState(env.client, env.repository, pr.number, next);
  }
}

/**
 * One action of a rule as it is decided: its idempotency key's suffix (`<transition>#<action>`,
 * qualified for an action decided more than once per transition) and its options.
 */
interface DueAction {
  rule: PullRequestRuleConfig;
  suffix: string;
  action: string;
  options: Options;
  /** Options and error already planned (post_check); absent: planned when the key is claimed. */
  planned?: { options: Options; error: string | null };
}

/** Decides one action of a rule's transition as its kind wants (queue actions and post_check are decided elsewhere). */
async function decide(env: IngressEnv, pr: PullRequestSnapshot, due: DueAction): Promise<void> {
  const { action, options } = due;
  if (QUEUE_ACTIONS.has(action) || action === "post_check") return;
  if (action === "dismiss_reviews" && options.when !== "always") return;
  if (action === "dequeue" || action === "refresh") return decideInRound(env, pr, due.rule, due.suffix, action);
  if (action === "label") {
    const add = [...list(options.add), ...list(options.toggle)];
    const remove = options.remove_all ? pr.labels.map((l) => l.name) : list(options.remove);
    return emitAction(env, pr, { ...due, options: { add, remove } });
  }
  await emitAction(env, pr, due);
}

/** Claims the key and queues the effect (label: after the loop check, and only what changes the labels). */
async function emitAction(env: IngressEnv, pr: PullRequestSnapshot, due: DueAction): Promise<void> {
  const { rule, suffix, action, options } = due;
  const key = ruleActionKey(env.repository, pr.number, rule.name, suffix);
  const transition = Number(suffix.split("#")[0]);
  const claimed = await claimPullRuleAction(env.client, {
    key,
    repository: env.repository,
    number: pr.number,
    rule: rule.name,
    transition,
    action,
  });
  if (!claimed) return;
  let planned = due.planned ?? (await planRuleAction(env.repository, action, options, pr));
  if (action === "label") {
    // Only what changes the labels: removing a label the pull request lacks is nothing to do.
    const have = new Set(pr.labels.map((l) => l.name.toLowerCase()));
    const change = await withoutLoops(
      env,
      { number: pr.number, base: pr.base, labels: pr.labels.map((l) => l.name) },
      rule.name,
      {
        add: list(options.add).filter((l) => !have.has(l.toLowerCase())),
        remove: list(options.remove).filter((l) => have.has(l.toLowerCase())),
      },
    );
    if (change.add.length === 0 && change.remove.length === 0) {
      await recordPullRuleOutcome(env.client, key, "success");
      return;
    }
    planned = { options: change, error: null };
  }
  const effect: RuleActionEffect = {
    kind: "rule_action",
    key,
    number: pr.number,
    baseRef: pr.base,
    rule: rule.name,
    action,
    options: planned.options,
    error: planned.error,
  };
  env.ruleEffect(effect);
}

/**
 * The actions of a rule's transition, in the order of the file. A merge is not decided before the
 * merge protections succeed (docs/merge-protections.md "The queue"): while they fail or wait, the
 * list stops at the merge, and the merge and the actions after it are decided at a later
 * evaluation of the rule, as long as it still matches.
 */
async function decideActions(
  env: IngressEnv,
  pr: PullRequestSnapshot,
  rule: PullRequestRuleConfig,
  transition: number,
): Promise<void> {
  for (const [action, options] of Object.entries(rule.actions)) {
    if (action === "merge") {
      const waits =
        env.products.merge_protections &&
        pr.state === "open" &&
        (await protectionsOf(env, pr)).verdict.conclusion !== "success";
      if (waits) return;
      await emitAction(env, pr, { rule, suffix: `${transition}#merge`, action, options: options ?? {} });
      continue;
    }
    await decide(env, pr, { rule, suffix: `${transition}#${action}`, action, options: options ?? {} });
  }
}

/** dequeue and refresh act on the queue itself, in this round. */
async function decideInRound(
  env: IngressEnv,
  pr: PullRequestSnapshot,
  rule: PullRequestRuleConfig,
  suffix: string,
  action: "dequeue" | "refresh",
): Promise<void> {
  const key = ruleActionKey(env.repository, pr.number, rule.name, suffix);
  const claimed = await claimPullRuleAction(env.client, {
    key,
    repository: env.repository,
    number: pr.number,
    rule: rule.name,
    transition: Number(suffix.split("#")[0]),
    action,
  });
  if (!claimed) return;
  const trigger = `Rule: ${rule.name}`;
  if (action === "dequeue") {
    const queued = env.state().pulls[pr.number] !== undefined;
    if (queued) env.emit({ type: "dequeue_requested", number: pr.number, trigger, source: "api" });
  } else {
    env.log({ kind: "log", type: "action.refresh", pullRequest: pr.number, baseRef: pr.base, trigger, metadata: {} });
  }
  await recordPullRuleOutcome(env.client, key, "success");
}

/** post_check: posted again when its conclusion, title, summary or head changed (`seq`: the posts so far). */
async function decidePostCheck(
  env: IngressEnv,
  pr: PullRequestSnapshot,
  rule: PullRequestRuleConfig,
  matching: boolean,
  posted: unknown,
): Promise<unknown> {
  const options = rule.actions.post_check ?? {};
  if (options.success_conditions != null && !matching) return posted;
  if (pr.state !== "open") return posted;
  const { conclusion, variables } = postCheckConclusion(rule, options, pr, env.now);
  const planned = await planRuleAction(env.repository, "post_check", options, pr, variables);
  const verdict = postCheckFromPlan(rule, conclusion, planned);
  const check = { headSha: pr.headSha, conclusion: verdict.conclusion, title: verdict.title, summary: verdict.summary };
  const last = (posted ?? null) as (typeof check & { seq: number }) | null;
  const same =
    last !== null &&
    last.headSha === check.headSha &&
    last.conclusion === check.conclusion &&
    last.title === check.title &&
    last.summary === check.summary;
  if (same) return posted;
  const seq = (last?.seq ?? 0) + 1;
  await emitAction(env, pr, {
    rule,
    suffix: `0#post_check#${seq}`,
    action: "post_check",
    options: {},
    planned: { options: { name: rule.name, ...check }, error: verdict.error },
  });
  return { ...check, seq };
}
