/**
 * Which condition attributes pull request rules read, so that an event that can only change
 * attributes no rule reads evaluates nothing (docs/workflow-automation.md "When actions run";
 * docs/github.md "Request budget"):
 * - a move of a base branch changes only `conflict` and `#commits-behind` of the open pull
 *   requests into it ({@link BASE_FACTS}): without a rule reading them, none is read again;
 * - a comment changes only `updated-at` ({@link COMMENT_FACTS}; commands are the queue's, handled
 *   before the rules).
 * A rule reads an attribute in its conditions, in post_check's `success_conditions` /
 * `neutral_conditions` (evaluated on every evaluation), or in post_check's title or summary
 * templates (rendered on every evaluation; other actions render theirs once, when decided). Pure.
 */
import type { Condition, PullRequestRuleConfig } from "../model.js";

/** The attributes whose value a move of the base changes. */
export const BASE_FACTS: ReadonlySet<string> = new Set(["conflict", "commits-behind"]);
/** The attributes whose value a comment changes. */
export const COMMENT_FACTS: ReadonlySet<string> = new Set(["updated-at"]);

function reads(conditions: readonly Condition[] | null | undefined, names: ReadonlySet<string>): boolean {
  if (!Array.isArray(conditions)) return false;
  return conditions.some((c) => (c.kind === "leaf" ? names.has(c.attribute) : reads(c.conditions, names)));
}

/** Whether one of `rules` reads one of the attributes `names` (see the file header). */
export function rulesReadAttributes(rules: readonly PullRequestRuleConfig[], names: ReadonlySet<string>): boolean {
  // Template variables are the attributes with `-` written `_`.
  const variables = new RegExp(`\\b(${[...names].map((n) => n.replace(/-/g, "_")).join("|")})\\b`);
  return rules.some((rule) => {
    if (reads(rule.conditions, names)) return true;
    const check = rule.actions.post_check;
    if (!check) return false;
    if (reads(check.success_conditions as Condition[], names) || reads(check.neutral_conditions as Condition[], names))
      return true;
    return [check.title, check.summary].some((t) => typeof t === "string" && variables.test(t));
  });
}
