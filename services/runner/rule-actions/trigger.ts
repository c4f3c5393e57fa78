/**
 * Which pull requests a forge event makes the runner evaluate pull request rules on
 * (docs/workflow-automation.md "When actions run"): the pull request an event names (opened,
 * pushed, edited, labelled, reviewed, commented, closed); the open pull requests at a commit whose
 * checks changed; the open pull requests into a branch that moved, when a rule reads what that
 * changes (their `#commits-behind` and `conflict`: config/rules/rule-attributes.ts; nothing else
 * of theirs changes, so without such a rule none is read again); on a comment, the pull request
 * when a rule reads `updated-at` (the only attribute a comment changes). The queue's own draft
 * pull requests are never evaluated. The clock evaluates them too, at the instant a time
 * condition changes a verdict (clock-timer.ts).
 */
import { BASE_FACTS, COMMENT_FACTS, rulesReadAttributes, type PullRequestRuleConfig } from "../../config/index.js";
import { isForgeError, type ForgeEvent, type PullRequestSnapshot } from "../../forge/index.js";
import type { IngressEnv } from "../ingress-env.js";
import { isQueueBranch } from "../queue-drafts.js";
import { keepClockTimer } from "./clock-timer.js";
import { actingRules, decidePullRules } from "./decide.js";

/** Whether `pr` is one of the queue's draft pull requests (speculative checks), by number or branch prefix. */
export function isQueueDraft(env: IngressEnv, pr: PullRequestSnapshot): boolean {
  for (const t of env.state().trains)
    for (const b of t.batches) if (b.check?.mode === "draft" && b.check.number === pr.number) return true;
  return isQueueBranch(env, pr.head);
}

function isDraftCheckCommit(env: IngressEnv, sha: string): boolean {
  return env.state().trains.some((t) => t.batches.some((b) => b.check?.mode === "draft" && b.check.headSha === sha));
}

/**
 * The open pull requests a forge event concerns (see the module header); [] for one the forge no
 * longer knows. With `rules`, only those whose facts the rules read (docs/github.md "Request
 * budget"); without, every one the event may change.
 */
export async function pullsOf(
  env: IngressEnv,
  e: ForgeEvent,
  rules?: readonly PullRequestRuleConfig[],
): Promise<PullRequestSnapshot[]> {
  switch (e.kind) {
    case "checks_changed":
      // The commit of a draft check is the draft's head alone: no pull request the rules look at.
      if (isDraftCheckCommit(env, e.sha)) return [];
      return env.forge.listOpenPullRequests(env.repository, { headSha: e.sha });
    case "branch_pushed":
      if (e.after === null || (rules && !rulesReadAttributes(rules, BASE_FACTS))) return [];
      return env.forge.listOpenPullRequests(env.repository, { base: e.branch });
    case "comment_created":
      // A comment changes only `updated-at` (its command, if any, is the queue's: ingress.ts).
      if (rules && !rulesReadAttributes(rules, COMMENT_FACTS)) return [];
      return pullNumbered(env, e.number);
    default:
      return pullNumbered(env, e.number);
  }
}

/** Pull request `number` as a list of one, or [] when the forge does not know it. */
export async function pullNumbered(env: IngressEnv, number: number): Promise<PullRequestSnapshot[]> {
  try {
    return [await env.forge.getPullRequest(env.repository, number)];
  } catch (err) {
    if (isForgeError(err, "not_found")) return [];
    throw err;
  }
}

/**
 * Evaluates the pull request rules on the pull requests `e` concerns and decides their actions
 * (decide.ts), in the round's transaction.
 * @throws ForgeError when the forge cannot be read (the input is retried)
 */
export async function runPullRules(env: IngressEnv, e: ForgeEvent): Promise<void> {
  const rules = actingRules(env);
  if (rules.length === 0) return;
  // An event about one of the queue's drafts (named by its branch): not evaluated, not read.
  if ("head" in e && isQueueBranch(env, e.head)) return;
  await evaluate(env, rules, await pullsOf(env, e, rules), e.kind === "pull_request_synchronized");
}

/**
 * Evaluates the pull request rules on every open pull request (workflow automation switched on:
 * product-switches.ts), in the round's transaction.
 * @throws ForgeError when the forge cannot be read (the input is retried)
 */
export async function runPullRulesOnAll(env: IngressEnv): Promise<void> {
  const rules = actingRules(env);
  if (rules.length === 0) return;
  await evaluate(env, rules, await env.forge.listOpenPullRequests(env.repository), false);
}

/**
 * Evaluates the pull request rules on pull request `number` because the clock reached its timer
 * (clock-timer.ts), in the round's transaction.
 * @throws ForgeError when the forge cannot be read (the input is retried)
 */
export async function runPullRulesOnTime(env: IngressEnv, number: number): Promise<void> {
  const rules = actingRules(env);
  if (rules.length === 0) return;
  await evaluate(env, rules, await pullNumbered(env, number), false);
}

async function evaluate(
  env: IngressEnv,
  rules: readonly PullRequestRuleConfig[],
  pulls: readonly PullRequestSnapshot[],
  pushed: boolean,
): Promise<void> {
  for (const pr of pulls) {
    if (isQueueDraft(env, pr)) continue;
    await decidePullRules(env, pr, rules, pushed);
    await keepClockTimer(env, pr, rules);
  }
}
