/**
 * The simulator's "planned actions" (docs/workflow-automation.md "The simulator"): for each rule
 * whose conditions match the pull request now, the actions that would run, with their templates
 * rendered for it, without running them. Markdown, appended to the simulated check run's summary.
 */
import type { PullRequestSnapshot } from "../conditions/pull-request-facts.js";
import type { Configuration } from "../model.js";
import { planAction, postCheckVerdict, ruleMatches } from "../rules/pull-rule-actions.js";

const SHOWN: Readonly<Record<string, readonly string[]>> = {
  label: ["add", "remove", "toggle", "remove_all"],
  assign: ["users", "add_users", "remove_users"],
  request_reviews: ["users", "teams", "random_count"],
  review: ["type", "message"],
  comment: ["message"],
  close: ["message"],
  edit: ["draft"],
  merge: ["method", "commit_message_template"],
  squash: ["commit_message"],
  delete_head_branch: ["force"],
  dismiss_reviews: ["approved", "changes_requested", "message"],
  backport: ["branches", "targets", "labels", "ignore_conflicts"],
  copy: ["branches", "targets", "labels", "ignore_conflicts"],
  github_actions: ["workflow"],
};

/** The Markdown section listing the actions that would run on `pr` at `now`; empty when none. */
export function plannedActionsMarkdown(config: Configuration, pr: PullRequestSnapshot, now: Date): string {
  const lines: string[] = [];
  for (const rule of config.pull_request_rules) {
    if (rule.disabled || !ruleMatches(rule, pr, now)) continue;
    for (const [action, options] of Object.entries(rule.actions)) {
      if (action === "queue") continue;
      let shown: Record<string, unknown>;
      let error: string | null;
      if (action === "post_check") {
        const v = postCheckVerdict(rule, options, pr, now);
        shown = { conclusion: v.conclusion, title: v.title, summary: v.summary };
        error = v.error;
      } else {
        const planned = planAction(action, options, pr);
        shown = Object.fromEntries(
          (SHOWN[action] ?? []).filter((k) => planned.options[k] != null).map((k) => [k, planned.options[k]]),
        );
        error = planned.error;
      }
      const detail = error !== null ? `template error: ${error}` : `\`${JSON.stringify(shown)}\``;
      lines.push(`- **${rule.name}** → \`${action}\` ${detail}`);
    }
  }
  return lines.length === 0 ? "" : `\n### Planned actions\n\n${lines.join("\n")}\n`;
}
