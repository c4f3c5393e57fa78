/**
 * Whether a move of a base branch can change what pull request rules decide (docs/workflow-automation.md
 * "When actions run"; docs/github.md "Request budget"). When the base moves, the only facts of an
 * open pull request into it that change are `conflict` and `#commits-behind` (its head, files,
 * labels, reviews and checks stay as they are). So a base move needs the open pull requests into it
 * read again only when a rule reads one of them: in its conditions, in post_check's
 * `success_conditions` / `neutral_conditions` (evaluated on every evaluation), or in post_check's
 * title or summary templates (rendered on every evaluation; other actions render theirs once, when
 * they are decided). Pure.
 */
import type { Condition, PullRequestRuleConfig } from "../model.js";

/** The attributes whose value a base move changes. */
export const BASE_FACTS: ReadonlySet<string> = new Set(["conflict", "commits-behind"]);

/** Template variables of the same facts (attributes with `-` written `_`). */
const BASE_VARIABLES = /\b(conflict|commits_behind)\b/;

function readsBase(conditions: readonly Condition[] | null | undefined): boolean {
  if (!Array.isArray(conditions)) return false;
  return conditions.some((c) => (c.kind === "leaf" ? BASE_FACTS.has(c.attribute) : readsBase(c.conditions)));
}

/** Whether one of `rules` reads `conflict` or `#commits-behind` (see the file header). */
export function rulesReadBaseFacts(rules: readonly PullRequestRuleConfig[]): boolean {
  return rules.some((rule) => {
    if (readsBase(rule.conditions)) return true;
    const check = rule.actions.post_check;
    if (!check) return false;
    if (readsBase(check.success_conditions as Condition[]) || readsBase(check.neutral_conditions as Condition[]))
      return true;
    return [check.title, check.summary].some((t) => typeof t === "string" && BASE_VARIABLES.test(t));
  });
}
