/**
 * What the simulator says about a pull request (docs/domain.md §5, docs/api.md "Simulation"):
 * the check-run title and Markdown summary of evaluating every pull request rule against it —
 * matching, potential, faulty and not applicable rules, one checklist per rule, and for rules
 * that queue, which queue the pull request would enter and with which priority. Pure: the caller
 * passes the attributes (conditions/attributes-of.ts) and the current time.
 * docs/configuration.md "Simulator output".
 */
import { evaluateCondition } from "../conditions/evaluate.js";
import type { EvaluationContext } from "../conditions/context.js";
import { parseCondition } from "../conditions/leaf-parser.js";
import { renderChecklist } from "../conditions/render.js";
import type { Condition, ConditionGroup, Configuration, EvaluatedCondition, PullRequestRuleConfig } from "../model.js";
import { chooseQueueRule, priorityOf } from "./queue-choice.js";

/** Title and Markdown summary of the simulated check run. */
export interface SimulationSummary {
  title: string;
  summary: string;
}

type Kind = "faulty" | "matching" | "potential" | "not_applicable";

interface Section {
  rule: PullRequestRuleConfig;
  actions: string[];
  tree: EvaluatedCondition;
  kind: Kind;
  queueLine: string | null;
}

/** Conditions an action implies besides its rule's (shown "📌 <action> requirement"). */
const REQUIREMENTS: Readonly<Record<string, readonly string[]>> = {
  merge: ["-closed", "-conflict", "-draft"],
  queue: ["-closed"],
  delete_head_branch: ["closed"],
  update: ["-closed", "#commits-behind>0"],
  rebase: ["-closed", "#commits-behind>0"],
  squash: ["-closed"],
  close: ["-closed"],
};

/** Attributes that cannot change for a pull request: a false one makes a rule "not applicable". */
const FIXED_ATTRIBUTES = new Set(["base", "head", "author", "merged-by"]);

function queueCandidates(config: Configuration, options: Record<string, unknown> | null): Configuration["queue_rules"] {
  const name = options?.name;
  return typeof name === "string" ? config.queue_rules.filter((q) => q.name === name) : config.queue_rules;
}

function queueGroup(config: Configuration, options: Record<string, unknown> | null): ConditionGroup {
  return {
    kind: "or",
    description: "🔀 queue conditions",
    conditions: queueCandidates(config, options).map((q) => ({
      kind: "and",
      description: `📌 queue conditions of queue \`${q.name}\``,
      conditions: q.queue_conditions,
    })),
  };
}

function hasError(node: EvaluatedCondition): boolean {
  return node.error !== undefined || node.subconditions.some(hasError);
}

function classify(tree: EvaluatedCondition, ruleConditionCount: number): Kind {
  if (hasError(tree)) return "faulty";
  if (tree.match === true) return "matching";
  const fixedFalse = tree.subconditions
    .slice(0, ruleConditionCount)
    .some((s) => s.condition.kind === "leaf" && FIXED_ATTRIBUTES.has(s.condition.attribute) && s.match === false);
  return fixedFalse ? "not_applicable" : "potential";
}

function priorityName(priority: number): string {
  return priority === 1000 ? "low" : priority === 2000 ? "medium" : priority === 3000 ? "high" : String(priority);
}

function queueLine(config: Configuration, options: Record<string, unknown> | null, ctx: EvaluationContext): string {
  const queue = chooseQueueRule(config, ctx, typeof options?.name === "string" ? options.name : null);
  if (queue === null) return "No queue rule's queue conditions match yet: the pull request would not enter a queue.";
  const { priority, rule } = priorityOf(config, ctx, queue.name);
  const source = rule === null ? "no priority rule matches" : `priority rule \`${rule}\``;
  return `The pull request would enter the queue \`${queue.name}\` with priority \`${priorityName(priority)}\` (${priority}, ${source}).`;
}

function sections(config: Configuration, rule: PullRequestRuleConfig, ctx: EvaluationContext): Section[] {
  const groups = new Map<string, string[]>();
  for (const action of Object.keys(rule.actions)) {
    const key = action === "queue" ? "queue" : (REQUIREMENTS[action] ?? []).join("\n");
    groups.set(key, [...(groups.get(key) ?? []), action]);
  }
  if (groups.size === 0) groups.set("", []);
  return [...groups.values()].map((actions) => {
    const extra = [...new Set(actions.flatMap((a) => REQUIREMENTS[a] ?? []))].map((text) => ({
      ...parseCondition(text),
      description: `📌 ${actions.join(", ")} requirement`,
    }));
    const queueOptions = actions.includes("queue") ? (rule.actions.queue ?? null) : null;
    const conditions: Condition[] = [...rule.conditions, ...extra];
    if (actions.includes("queue")) conditions.push(queueGroup(config, queueOptions));
    const tree = evaluateCondition({ kind: "and", conditions }, ctx);
    const kind = classify(tree, rule.conditions.length);
    const line = actions.includes("queue") && kind !== "not_applicable" ? queueLine(config, queueOptions, ctx) : null;
    return { rule, actions, tree, kind, queueLine: line };
  });
}

function render(section: Section): string {
  const { rule } = section;
  const name = rule.disabled ? `~~${rule.name}~~` : rule.name;
  const lines = [`### Rule: ${name} (${section.actions.join(", ")})`];
  if (rule.disabled) lines.push(`:no_entry_sign: **Disabled: ${rule.disabled.reason}**`);
  const checklist = renderChecklist(section.tree);
  if (checklist !== "") lines.push(checklist);
  if (section.queueLine !== null && !rule.disabled) lines.push("", section.queueLine);
  return `${lines.join("\n")}\n`;
}

function plural(n: number, one: string, many: string): string {
  return n === 1 ? `1 ${one}` : `${n} ${many}`;
}

/**
 * The simulated check run of a pull request.
 * @param config the effective configuration
 * @param ctx the pull request's attributes, the current time and known teams
 */
export function simulatePullRequestSummary(config: Configuration, ctx: EvaluationContext): SimulationSummary {
  const changed = ctx.attributes.values["yardmaster-configuration-changed"] === true;
  const prefix = changed ? "Configuration changed. This pull request must be merged manually — " : "";
  if (config.pull_request_rules.length === 0)
    return { title: `${prefix}no rules configured, just listening for commands`, summary: "" };
  const all = config.pull_request_rules.flatMap((rule) => sections(config, rule, ctx));
  const active = all.filter((s) => !s.rule.disabled);
  const count = (kind: Kind) => active.filter((s) => s.kind === kind).length;
  const pieces = [
    count("faulty") > 0 ? plural(count("faulty"), "faulty rule", "faulty rules") : "",
    count("matching") > 0 ? plural(count("matching"), "rule matches", "rules match") : "",
    count("potential") > 0 ? plural(count("potential"), "potential rule", "potential rules") : "",
  ].filter((p) => p !== "");
  const title = `${prefix}${pieces.length > 0 ? pieces.join(" and ") : "no rules match, no planned actions"}`;
  const shown = [
    ...all.filter((s) => s.kind === "faulty"),
    ...all.filter((s) => s.kind === "matching" || s.kind === "potential"),
  ];
  const notApplicable = all.filter((s) => s.kind === "not_applicable");
  let summary = shown.map((s) => `${render(s)}\n`).join("");
  summary += "<hr />\n";
  if (notApplicable.length > 0) {
    summary += `<details>\n<summary>${plural(notApplicable.length, "not applicable rule", "not applicable rules")}</summary>\n\n`;
    summary += notApplicable.map((s) => `${render(s)}\n`).join("");
    summary += "</details>\n";
  }
  return { title, summary };
}

/** The simulated check run of a repository (no pull request): the configuration only validates. */
export function simulateRepositorySummary(): SimulationSummary {
  return { title: "The configuration is valid", summary: "" };
}
