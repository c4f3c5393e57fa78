/**
 * The effect of one action of a pull request rule (docs/workflow-automation.md "When actions
 * run"): decided in a round, stored in `queue_effects` with the engine's effects, performed after
 * the commit by the effects round, its event written in the transaction that deletes it.
 */

/** One action to perform, with its options rendered when it was decided. */
export interface RuleActionEffect {
  kind: "rule_action";
  /**
   * The idempotency key: `<repository>#<number>#<rule>#<transition>#<action>` (and a suffix for
   * actions that run again while the rule matches: post_check, dismiss_reviews, toggled labels).
   */
  key: string;
  number: number;
  baseRef: string;
  rule: string;
  action: string;
  options: Record<string, unknown>;
  /** A template that failed on this pull request: the action is not performed, its event says why. */
  error: string | null;
}

/**
 * The idempotency key of an action of `rule` on pull request `number` (see RuleActionEffect.key);
 * `suffix` is `<transition>#<action>`, with a further part for actions that run again.
 */
export function ruleActionKey(repository: string, number: number, rule: string, suffix: string): string {
  return `${repository}#${number}#${rule}#${suffix}`;
}

/** Whether a stored effect is a rule action (the others are the engine's). */
export function isRuleActionEffect(e: { kind: string }): e is RuleActionEffect {
  return e.kind === "rule_action";
}
