/**
 * What a pull request rule's actions would do now (docs/workflow-automation.md): the rule's verdict,
 * each action's options with their templates rendered, and post_check's conclusion. Pure: the
 * runner decides and performs the actions with it, the simulator shows it.
 */
import { renderChecklist } from "../conditions/render.js";
import type { PullRequestSnapshot } from "../conditions/pull-request-facts.js";
import type { Condition, PullRequestRuleConfig } from "../model.js";
import { dispatchInputs, TEMPLATED_OPTIONS } from "../templates/template-issues.js";
import { renderTemplate, TemplateError, type TemplateVariables } from "../templates/template.js";
import { templateVariables } from "../templates/variables.js";
import { evaluateFor } from "./rule-evaluation.js";
import { nextVerdictChange } from "./schedule-verdict.js";

/** One action of a rule with its options rendered; `error` when a template failed on this pull request. */
export interface PlannedAction {
  action: string;
  options: Record<string, unknown>;
  error: string | null;
}

/** The verdict of post_check: the check run's conclusion, title and summary. */
export interface PostCheckVerdict {
  conclusion: "success" | "failure" | "neutral";
  title: string;
  summary: string;
}

/** Actions the pull request rules machinery leaves to others (`queue`: the merge queue's admission). */
export const QUEUE_ACTIONS: ReadonlySet<string> = new Set(["queue"]);

/** Whether `rule` matches `pr` at `now` (its conditions all hold). */
export function ruleMatches(rule: PullRequestRuleConfig, pr: PullRequestSnapshot, now: Date): boolean {
  return evaluateFor(rule.conditions, pr, {}, now).match === true;
}

/**
 * The earliest instant after `now` at which the clock alone changes the verdict of one of `rules`
 * on `pr` (its conditions, and post_check's `success_conditions` / `neutral_conditions`), the
 * pull request's facts staying as they are: when the runner evaluates the rules again without an
 * event (docs/workflow-automation.md "When actions run", item 6). Null when no time condition can
 * change them.
 */
export function pullRulesWakeUp(
  rules: readonly PullRequestRuleConfig[],
  pr: PullRequestSnapshot,
  now: Date,
): Date | null {
  let best: Date | null = null;
  for (const rule of rules) {
    const check = rule.actions.post_check ?? null;
    const lists = [rule.conditions, check?.success_conditions, check?.neutral_conditions];
    for (const conditions of lists) {
      if (!Array.isArray(conditions) || conditions.length === 0) continue;
      const at = nextVerdictChange((t) => evaluateFor(conditions as Condition[], pr, {}, t), now);
      if (at !== null && (best === null || at.getTime() < best.getTime())) best = at;
    }
  }
  return best;
}

/**
 * Renders the templated options of `action` (TEMPLATED_OPTIONS, and github_actions' dispatch
 * inputs) for `pr`, with `extra` variables.
 * A template that fails on this pull request gives `error` (the configuration loader already
 * refused templates that do not parse).
 */
export function planAction(
  action: string,
  options: Record<string, unknown> | null,
  pr: PullRequestSnapshot,
  extra: TemplateVariables = {},
): PlannedAction {
  const out: Record<string, unknown> = { ...(options ?? {}) };
  const keys = TEMPLATED_OPTIONS[action] ?? [];
  try {
    if (action === "backport" || action === "copy") {
      // One title and body per target branch (`destination_branch`).
      const targets: Record<string, Record<string, unknown>> = {};
      for (const branch of Array.isArray(out.branches) ? out.branches.map(String) : [])
        targets[branch] = render(keys, options, templateVariables(pr, { ...extra, destination_branch: branch }));
      out.targets = targets;
    }
    Object.assign(out, render(keys, options, templateVariables(pr, extra)));
    if (action === "github_actions") out.workflow = renderInputs(options, templateVariables(pr, extra));
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    return { action, options: out, error: e.message };
  }
  return { action, options: out, error: null };
}

/** github_actions' `workflow` with every string input of `dispatch[]` rendered. @throws TemplateError naming the input */
function renderInputs(options: Record<string, unknown> | null, vars: TemplateVariables): unknown {
  const workflow = options?.workflow as { dispatch?: Record<string, unknown>[] } | null | undefined;
  if (!workflow || !Array.isArray(workflow.dispatch)) return workflow;
  const dispatch = workflow.dispatch.map((d) => ({ ...d, inputs: { ...((d.inputs as object | null) ?? {}) } }));
  for (const [[, , j, , key], text] of dispatchInputs(options)) {
    if (typeof text !== "string") continue;
    try {
      (dispatch[j as number].inputs as Record<string, unknown>)[key] = renderTemplate(text, vars);
    } catch (e) {
      if (e instanceof TemplateError) throw new TemplateError(`workflow.dispatch[${j}].inputs.${key}: ${e.message}`);
      throw e;
    }
  }
  return { ...workflow, dispatch };
}

/** The options `keys` of `options` rendered with `vars`. @throws TemplateError naming the option */
function render(
  keys: readonly string[],
  options: Record<string, unknown> | null,
  vars: TemplateVariables,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const text = options?.[key];
    if (typeof text !== "string") continue;
    try {
      out[key] = renderTemplate(text, vars);
    } catch (e) {
      if (e instanceof TemplateError) throw new TemplateError(`${key}: ${e.message}`);
      throw e;
    }
  }
  return out;
}

/**
 * post_check's verdict (https://docs.mergify.com/workflow/actions/post_check/): with
 * success_conditions, success when they hold, else neutral when neutral_conditions hold, else
 * failure; without, success when the rule matches, else failure. Title and summary are rendered
 * with `check_rule_name`, `check_status`, `check_succeed` and `check_conditions` (the checklist of the conditions).
 */
export function postCheckVerdict(
  rule: PullRequestRuleConfig,
  options: Record<string, unknown> | null,
  pr: PullRequestSnapshot,
  now: Date,
): PostCheckVerdict & { error: string | null } {
  const success = (options?.success_conditions as Condition[] | null | undefined) ?? null;
  const neutral = (options?.neutral_conditions as Condition[] | null | undefined) ?? null;
  const evaluation = evaluateFor(success ?? rule.conditions, pr, {}, now);
  let conclusion: PostCheckVerdict["conclusion"] = evaluation.match === true ? "success" : "failure";
  if (conclusion === "failure" && neutral && neutral.length > 0 && evaluateFor(neutral, pr, {}, now).match === true)
    conclusion = "neutral";
  const planned = planAction("post_check", options, pr, {
    check_rule_name: rule.name,
    check_status: conclusion,
    check_succeed: conclusion === "success",
    check_conditions: renderChecklist(evaluation),
  });
  return {
    conclusion,
    title: String(planned.options.title ?? rule.name),
    summary: String(planned.options.summary ?? ""),
    error: planned.error,
  };
}
