/**
 * The clock's own trigger of pull request rules (docs/workflow-automation.md "When actions run",
 * item 6): after the rules are evaluated on an open pull request, the earliest instant at which a
 * time condition (`schedule`, `current-datetime`, `updated-at<2 days ago`...) changes a rule's
 * verdict is kept as a durable timer (`queue_timers`, key {@link PULL_RULES_TIMER_PREFIX} then
 * the number), in the round's transaction, like the queue's schedule and freeze timers. The sweep
 * claims it when due (scheduling.ts) and the rules are evaluated again on that pull request
 * alone, with the usual transitions and idempotency keys. A closed or merged pull request keeps
 * no timer: only events evaluate it again.
 */
import { pullRulesWakeUp, type PullRequestRuleConfig } from "../../config/index.js";
import type { PullRequestSnapshot } from "../../forge/index.js";
import { cancelTimer, setTimer } from "../../store/index.js";
import type { IngressEnv } from "../ingress-env.js";

/** Key prefix of the timer that evaluates a pull request's rules again (then its number). */
export const PULL_RULES_TIMER_PREFIX = "pull-rules/";

/** The pull request number of a timer key, or null when the timer is not a pull rules timer. */
export function pullRulesTimerNumber(key: string): number | null {
  if (!key.startsWith(PULL_RULES_TIMER_PREFIX)) return null;
  const n = Number(key.slice(PULL_RULES_TIMER_PREFIX.length));
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

/**
 * Sets (or replaces) the timer of `pr` at the next instant the clock changes a verdict of `rules`,
 * or deletes it when there is none or the pull request is not open, in the round's transaction.
 * @throws the database's error (the round rolls back)
 */
export async function keepClockTimer(
  env: IngressEnv,
  pr: PullRequestSnapshot,
  rules: readonly PullRequestRuleConfig[],
): Promise<void> {
  const key = `${PULL_RULES_TIMER_PREFIX}${pr.number}`;
  const at = pr.state === "open" ? pullRulesWakeUp(rules, pr, env.now) : null;
  if (at === null) await cancelTimer(env.client, env.repository, key);
  else await setTimer(env.client, env.repository, key, at);
}
