/**
 * Templates are checked when the configuration loads (docs/workflow-automation.md "Templates"): a
 * template that does not parse, names an unknown filter or an unknown variable is a configuration
 * error at its line, never a failed action at run time.
 */
import type { SemanticIssue } from "../load/semantic-issue.js";
import { templateProblem } from "./template.js";
import { samplePullRequest, templateVariables } from "./variables.js";

/** The templated options of each action. */
export const TEMPLATED_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  backport: ["title", "body"],
  close: ["message"],
  comment: ["message"],
  copy: ["title", "body"],
  dismiss_reviews: ["message"],
  merge: ["commit_message_template"],
  post_check: ["title", "summary"],
  review: ["message"],
};

/** Variables only some actions define (docs/workflow-automation.md "Templates"). */
export const ACTION_VARIABLES: Readonly<Record<string, readonly string[]>> = {
  post_check: ["check_rule_name", "check_status", "check_succeed", "check_conditions"],
  backport: ["destination_branch"],
  copy: ["destination_branch"],
};

let sample: Readonly<Record<string, unknown>> | null = null;

/**
 * The template problems of `pull_request_rules` as written (`rules[i].actions`: action name ->
 * options), located at `pull_request_rules[i].actions.<action>.<option>`.
 */
export function templateIssues(
  rules: readonly { actions: Record<string, Record<string, unknown> | null> }[],
): SemanticIssue[] {
  sample ??= templateVariables(samplePullRequest());
  const known = Object.keys(sample);
  const issues: SemanticIssue[] = [];
  rules.forEach((rule, i) => {
    for (const [action, options] of Object.entries(rule.actions)) {
      const texts: [(string | number)[], unknown][] = (TEMPLATED_OPTIONS[action] ?? []).map((o) => [[o], options?.[o]]);
      if (action === "github_actions") texts.push(...dispatchInputs(options));
      for (const [at, text] of texts) {
        if (typeof text !== "string") continue;
        const problem = templateProblem(text, [...known, ...(ACTION_VARIABLES[action] ?? [])]);
        if (problem !== null)
          issues.push({
            path: ["pull_request_rules", i, "actions", action, ...at],
            message: `invalid template: ${problem}`,
          });
      }
    }
  });
  return issues;
}

/**
 * The inputs of github_actions' `workflow.dispatch[]`, each a template
 * (https://docs.mergify.com/workflow/actions/github_actions/): its path under the action's
 * options and its value.
 */
export function dispatchInputs(options: Record<string, unknown> | null): [(string | number)[], unknown][] {
  const dispatch = (options?.workflow as { dispatch?: unknown } | null | undefined)?.dispatch;
  if (!Array.isArray(dispatch)) return [];
  return dispatch.flatMap((d, j) =>
    Object.entries((d as { inputs?: Record<string, unknown> | null })?.inputs ?? {}).map(
      ([key, value]): [(string | number)[], unknown] => [["workflow", "dispatch", j, "inputs", key], value],
    ),
  );
}
