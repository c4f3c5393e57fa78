/**
 * What a pull request rule's actions would do now (docs/workflow-automation.md): the rule's verdict,
 * each action's options with their templates rendered, and post_check's conclusion. Pure: the
 * runner decides and performs the actions with it, the simulator shows it.
 */
import { renderChecklist } from "../conditions/render.js";
import type { PullRequestSnapshot } from "../conditions/pull-request-facts.js";
import type { Condition, PullRequestRuleConfig } from "../model.js";
import { dispatchInputs, TEMPLATED_OPTIONS } from "../templates/template-issues.js";
import { isSubstitutionOnly } from "../templates/template-cost.js";
import { outputLimitOf } from "../templates/template-limits.js";
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

/** The template texts among the options of `action` (TEMPLATED_OPTIONS, and github_actions' dispatch inputs). */
function templateTexts(action: string, options: Record<string, unknown> | null): string[] {
  const texts = (TEMPLATED_OPTIONS[action] ?? []).map((k) => options?.[k]);
  if (action === "github_actions") texts.push(...dispatchInputs(options).map(([, text]) => text));
  return texts.filter((t): t is string => typeof t === "string");
}

/**
 * Whether planning `action` renders a template that may cost more than its output: one with a
 * loop, a call, a filter or an operator (template-cost.ts). A server renders those in a worker
 * thread with a time limit; the others (text and variables only) cost what their output does.
 */
export function needsBoundedRender(action: string, options: Record<string, unknown> | null): boolean {
  return templateTexts(action, options).some((t) => !isSubstitutionOnly(t));
}

/**
 * Renders the templated options of `action` (TEMPLATED_OPTIONS, and github_actions' dispatch
 * inputs) for `pr`, with `extra` variables, each within the bounds of a render and the output
 * limit of its option (templates/template-limits.ts).
 * A template that fails on this pull request, or goes over a limit, gives `error` and no option
 * rendered in part (the configuration loader already refused templates that do not parse, and
 * constant loops over the limit).
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
        targets[branch] = render(
          action,
          keys,
          options,
          templateVariables(pr, { ...extra, destination_branch: branch }),
        );
      out.targets = targets;
    }
    Object.assign(out, render(action, keys, options, templateVariables(pr, extra)));
    if (action === "github_actions") out.workflow = renderInputs(options, templateVariables(pr, extra));
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    return { action, options: { ...(options ?? {}) }, error: e.message };
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
      const limit = outputLimitOf("github_actions", "inputs");
      (dispatch[j as number].inputs as Record<string, unknown>)[key] = renderTemplate(text, vars, limit);
    } catch (e) {
      if (e instanceof TemplateError) throw new TemplateError(`workflow.dispatch[${j}].inputs.${key}: ${e.message}`);
      throw e;
    }
  }
  return { ...workflow, dispatch };
}

/** The options `keys` of `action`'s `options` rendered with `vars`. @throws TemplateError naming the option */
function render(
  action: string,
  keys: readonly string[],
  options: Record<string, unknown> | null,
  vars: TemplateVariables,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const text = options?.[key];
    if (typeof text !== "string") continue;
    try {
      out[key] = renderTemplate(text, vars, outputLimitOf(action, key));
    } catch (e) {
      if (e instanceof TemplateError) throw new TemplateError(`${key}: ${e.message}`);
      throw e;
    }
  }
  return out;
}

/** post_check's conclusion, and the variables its title and summary are rendered with. */
export interface PostCheckConclusion {
  conclusion: PostCheckVerdict["conclusion"];
  /** `check_rule_name`, `check_status`, `check_succeed`, `check_conditions`. */
  variables: TemplateVariables;
}

/**
 * post_check's conclusion (https://docs.mergify.com/workflow/actions/post_check/): with
 * success_conditions, success when they hold, else neutral when neutral_conditions hold, else
 * failure; without, success when the rule matches, else failure. Its title and summary are
 * rendered with `check_rule_name`, `check_status`, `check_succeed` and `check_conditions` (the
 * checklist of the conditions): pass `variables` to {@link planAction} as its extra variables.
 */
export function postCheckConclusion(
  rule: PullRequestRuleConfig,
  options: Record<string, unknown> | null,
  pr: PullRequestSnapshot,
  now: Date,
): PostCheckConclusion {
  const success = (options?.success_conditions as Condition[] | null | undefined) ?? null;
  const neutral = (options?.neutral_conditions as Condition[] | null | undefined) ?? null;
  const evaluation = evaluateFor(success ?? rule.conditions, pr, {}, now);
  let conclusion: PostCheckVerdict["conclusion"] = evaluation.match === true ? "success" : "failure";
  if (conclusion === "failure" && neutral && neutral.length > 0 && evaluateFor(neutral, pr, {}, now).match === true)
    conclusion = "neutral";
  const variables = {
    check_rule_name: rule.name,
    check_status: conclusion,
    check_succeed: conclusion === "success",
    check_conditions: renderChecklist(evaluation),
  };
  return { conclusion, variables };
}

/** post_check's verdict from its conclusion and its planned options (title: the rule's name when not set). */
export function postCheckFromPlan(
  rule: PullRequestRuleConfig,
  conclusion: PostCheckVerdict["conclusion"],
  planned: PlannedAction,
): PostCheckVerdict & { error: string | null } {
  return {
    conclusion,
    title: planned.error !== null ? rule.name : String(planned.options.title ?? rule.name),
    summary: planned.error !== null ? "" : String(planned.options.summary ?? ""),
    error: planned.error,
  };
}

/**
 * post_check's verdict: its conclusion ({@link postCheckConclusion}) with its title and summary
 * rendered in the calling thread ({@link planAction}).
 */
export function postCheckVerdict(
  rule: PullRequestRuleConfig,
  options: Record<string, unknown> | null,
  pr: PullRequestSnapshot,
  now: Date,
): PostCheckVerdict & { error: string | null } {
  const { conclusion, variables } = postCheckConclusion(rule, options, pr, now);
  return postCheckFromPlan(rule, conclusion, planAction("post_check", options, pr, variables));
}
