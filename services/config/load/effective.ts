/**
 * From a validated configuration file to the effective {@link Configuration}: `defaults` applied,
 * built-in defaults filled (load/defaults.ts), legacy keys mapped to their replacement
 * (docs/domain.md §1.2), and the rules that span several keys checked. docs/configuration.md
 * "Keys and defaults" and "Rules across keys".
 */
import type {
  Condition,
  Configuration,
  MergeQueueConfig,
  PriorityRuleConfig,
  PullRequestRuleConfig,
  QueueRuleConfig,
} from "../model.js";
import type { RawConfiguration } from "../schema/root.js";
import type { RawQueueRule, RawQueueRuleDefaults } from "../schema/queue-rules.js";
import {
  ACTION_DEFAULTS,
  commandsRestrictionsDefaults,
  MERGE_PROTECTIONS_SETTINGS_DEFAULTS,
  MERGE_QUEUE_DEFAULTS,
  PRIORITY_RULE_DEFAULTS,
  QUEUE_RULE_DEFAULTS,
} from "./defaults.js";
import { fastForwardModeIssue } from "./fast-forward.js";
import { migratedPriorityRules } from "./legacy-priority-rules.js";
import { scopesConfig } from "./scopes-section.js";
import type { SemanticIssue } from "./semantic-issue.js";
import { templateIssues } from "../templates/template-issues.js";

export type { SemanticIssue } from "./semantic-issue.js";

function list(conditions: Condition[] | true | null | undefined): Condition[] {
  return conditions === undefined || conditions === null || conditions === true ? [] : conditions;
}

/** Keys with a value (undefined = not written). */
function written<T extends object>(o: T | null | undefined): Partial<T> {
  if (o === null || o === undefined) return {};
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function queueRule(
  raw: RawQueueRule,
  defaults: Partial<RawQueueRuleDefaults>,
  index: number,
  count: number,
  mode: MergeQueueConfig["mode"],
  issues: SemanticIssue[],
): QueueRuleConfig {
  const r = { ...defaults, ...written(raw) } as RawQueueRule;
  const path = ["queue_rules", index];
  let mergeMethod = r.merge_method ?? null;
  if (r.queue_branch_merge_method === "fast-forward") {
    if (mergeMethod !== null && mergeMethod !== "merge" && mergeMethod !== "fast-forward") {
      issues.push({
        path: [...path, "queue_branch_merge_method"],
        message: `queue_branch_merge_method: fast-forward cannot be combined with merge_method: ${mergeMethod}`,
      });
    }
    mergeMethod = "fast-forward";
  }
  const fastForward = fastForwardModeIssue(r, path, mode);
  if (fastForward !== null) issues.push(fastForward);
  const batchSize = r.batch_size ?? QUEUE_RULE_DEFAULTS.batch_size;
  if (mergeMethod === "merge-batch" && batchSize.max <= 1) {
    issues.push({
      path: [...path, "merge_method"],
      message: "merge_method merge-batch needs batch_size greater than 1",
    });
  }
  if (r.allow_queue_branch_edit === true && mergeMethod !== "merge-batch" && mergeMethod !== "fast-forward") {
    issues.push({
      path: [...path, "allow_queue_branch_edit"],
      message: "allow_queue_branch_edit needs merge_method merge-batch or fast-forward",
    });
  }
  return {
    ...QUEUE_RULE_DEFAULTS,
    name: raw.name,
    queue_conditions: list(r.queue_conditions ?? r.routing_conditions),
    merge_conditions: list(r.merge_conditions ?? r.conditions),
    branch_protection_injection_mode:
      r.branch_protection_injection_mode ?? QUEUE_RULE_DEFAULTS.branch_protection_injection_mode,
    batch_size: batchSize,
    batch_max_wait_time: r.batch_max_wait_time ?? QUEUE_RULE_DEFAULTS.batch_max_wait_time,
    checks_timeout: r.checks_timeout === undefined ? QUEUE_RULE_DEFAULTS.checks_timeout : r.checks_timeout,
    max_checks_retries: r.max_checks_retries ?? 0,
    draft_bot_account: r.draft_bot_account ?? null,
    merge_bot_account: r.merge_bot_account ?? null,
    update_bot_account: r.update_bot_account ?? null,
    queue_branch_prefix: r.queue_branch_prefix ?? QUEUE_RULE_DEFAULTS.queue_branch_prefix,
    allow_queue_branch_edit: r.allow_queue_branch_edit ?? false,
    ...(r.risk_aware_batching !== undefined ? { risk_aware_batching: r.risk_aware_batching } : {}),
    batch_max_failure_resolution_attempts: r.batch_max_failure_resolution_attempts ?? null,
    merge_method: mergeMethod as QueueRuleConfig["merge_method"],
    update_method: r.update_method ?? null,
    commit_message_template: r.commit_message_template ?? null,
    commit_message_format: r.commit_message_format
      ? {
          title: r.commit_message_format.title ?? "inherit",
          body: r.commit_message_format.body ?? "inherit",
          trailers: r.commit_message_format.trailers ?? [],
        }
      : null,
    allow_inplace_checks: r.allow_inplace_checks ?? true,
    autosquash: r.autosquash ?? false,
    priority: count - 1 - index,
    queue_branch_merge_method: r.queue_branch_merge_method ?? null,
    allow_checks_interruption: r.allow_checks_interruption ?? null,
    disallow_checks_interruption_from_queues: r.disallow_checks_interruption_from_queues ?? [],
    autoqueue: r.autoqueue ?? false,
  };
}

function uniqueNames(names: string[]): string[] {
  const counts = new Map<string, number>();
  for (const n of names) counts.set(n, (counts.get(n) ?? 0) + 1);
  const seen = new Map<string, number>();
  return names.map((n) => {
    if ((counts.get(n) ?? 0) < 2) return n;
    const k = (seen.get(n) ?? 0) + 1;
    seen.set(n, k);
    return `${n} #${k}`;
  });
}

/** Action options: built-in defaults < defaults.actions < the rule's own options. */
function actionOptions(
  name: string,
  local: Record<string, unknown>,
  defaults: Record<string, Record<string, unknown>>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = {
    ...(ACTION_DEFAULTS[name] ?? {}),
    ...written(defaults[name]),
    ...written(local),
  };
  if (name === "queue" && merged.method !== undefined) {
    if (merged.merge_method === undefined) merged.merge_method = merged.method;
    delete merged.method;
  }
  for (const key of ["success_conditions", "neutral_conditions"]) if (merged[key] === true) merged[key] = [];
  return merged;
}

/**
 * Builds the effective configuration.
 * @param raw the validated file (already merged with its `extends`)
 * @param presentSections top-level keys written in the file
 * @returns the configuration and the cross-key problems found (an empty list means valid)
 */
export function buildConfiguration(
  raw: RawConfiguration,
  presentSections: string[],
): { config: Configuration; issues: SemanticIssue[] } {
  const issues: SemanticIssue[] = [];
  const rawQueueRules = raw.queue_rules ?? [];
  const queueDefaults = written(raw.defaults?.queue_rule ?? undefined);
  const seen = new Map<string, number>();
  rawQueueRules.forEach((r, i) => {
    if (seen.has(r.name))
      issues.push({
        path: ["queue_rules", i, "name"],
        message: `duplicate queue rule name "${r.name}" (also item ${seen.get(r.name)})`,
      });
    else seen.set(r.name, i);
  });
  const mode = raw.merge_queue?.mode ?? MERGE_QUEUE_DEFAULTS.mode;
  const queueRules = rawQueueRules.map((r, i) => queueRule(r, queueDefaults, i, rawQueueRules.length, mode, issues));
  queueRules.forEach((q, i) => {
    for (const other of q.disallow_checks_interruption_from_queues ?? []) {
      if (!seen.has(other))
        issues.push({
          path: ["queue_rules", i, "disallow_checks_interruption_from_queues"],
          message: `unknown queue rule "${other}"`,
        });
    }
  });

  const speculative = rawQueueRules
    .map((r) => r.speculative_checks ?? queueDefaults.speculative_checks)
    .filter((n): n is number => n !== undefined);
  const mergeQueue = { ...MERGE_QUEUE_DEFAULTS, ...written(raw.merge_queue) };
  if (raw.merge_queue?.max_parallel_checks === undefined && speculative.length > 0)
    mergeQueue.max_parallel_checks = Math.max(...speculative);
  // docs/self-tuning.md: a rule that sets none of batch size, wait and parallelism is tuned.
  if (raw.merge_queue?.max_parallel_checks === undefined && speculative.length === 0) {
    rawQueueRules.forEach((r, i) => {
      const sets = (key: "batch_size" | "batch_max_wait_time") =>
        r[key] !== undefined || queueDefaults[key] !== undefined;
      if (!sets("batch_size") && !sets("batch_max_wait_time")) queueRules[i]!.self_tuned = true;
    });
  }

  // Priority rules are merged with an extended file's by name: two with one name are ambiguous.
  const priorityNames = new Map<string, number>();
  (raw.priority_rules ?? []).forEach((p, i) => {
    if (priorityNames.has(p.name))
      issues.push({
        path: ["priority_rules", i, "name"],
        message: `duplicate priority rule name "${p.name}" (also item ${priorityNames.get(p.name)})`,
      });
    else priorityNames.set(p.name, i);
  });
  const priorityRules: PriorityRuleConfig[] = [
    ...(raw.priority_rules ?? []).map((p) => ({
      name: p.name,
      conditions: list(p.conditions),
      priority: p.priority ?? PRIORITY_RULE_DEFAULTS.priority,
      allow_checks_interruption: p.allow_checks_interruption ?? PRIORITY_RULE_DEFAULTS.allow_checks_interruption,
    })),
    ...migratedPriorityRules(rawQueueRules),
  ];

  const actionDefaults = (raw.defaults?.actions ?? {}) as Record<string, Record<string, unknown>>;
  const rawRules = raw.pull_request_rules ?? [];
  const names = uniqueNames(rawRules.map((r) => r.name));
  const pullRequestRules: PullRequestRuleConfig[] = rawRules.map((r, i) => ({
    name: names[i],
    description: r.description ?? null,
    disabled: r.disabled ?? null,
    conditions: list(r.conditions),
    actions: Object.fromEntries(Object.entries(r.actions).map(([a, o]) => [a, actionOptions(a, o, actionDefaults)])),
  }));

  issues.push(...templateIssues(rawRules));
  rawRules.forEach((r, i) => {
    const queue = r.actions.queue;
    if (queue === undefined) return;
    const path = ["pull_request_rules", i, "actions", "queue"];
    if (rawQueueRules.length === 0)
      issues.push({ path, message: "the queue action needs at least one queue rule in queue_rules" });
    else if (typeof queue.name === "string" && !seen.has(queue.name)) {
      issues.push({
        path: [...path, "name"],
        message: `unknown queue rule "${queue.name}"; queue_rules has ${[...seen.keys()].map((n) => `"${n}"`).join(", ")}`,
      });
    }
  });

  const commandsRestrictions = commandsRestrictionsDefaults();
  for (const [command, restriction] of Object.entries(raw.commands_restrictions ?? {})) {
    if (restriction?.conditions !== undefined)
      commandsRestrictions[command] = { conditions: list(restriction.conditions) };
  }

  const settings = written(raw.merge_protections_settings);
  let autoMerge: true | Condition[] | null = settings.auto_merge_conditions ?? null;
  if (
    settings.auto_merge_conditions === undefined &&
    (settings.auto_merge === true || queueRules.some((q) => q.autoqueue))
  )
    autoMerge = true;

  const config: Configuration = {
    extends: raw.extends ?? null,
    queue_rules: queueRules,
    merge_queue: mergeQueue,
    priority_rules: priorityRules,
    scopes: scopesConfig(raw.scopes, issues),
    partition_rules: (raw.partition_rules ?? []).map((p) => ({
      name: p.name,
      conditions: list(p.conditions),
      fallback_partition: p.fallback_partition ?? false,
    })),
    pull_request_rules: pullRequestRules,
    commands_restrictions: commandsRestrictions,
    merge_protections: (raw.merge_protections ?? []).map((m) => ({
      name: m.name,
      description: m.description ?? null,
      if: list(m.if),
      success_conditions: list(m.success_conditions),
    })),
    merge_protections_settings: {
      reporting_method: settings.reporting_method ?? MERGE_PROTECTIONS_SETTINGS_DEFAULTS.reporting_method,
      post_comment: settings.post_comment ?? MERGE_PROTECTIONS_SETTINGS_DEFAULTS.post_comment,
      auto_merge: settings.auto_merge ?? MERGE_PROTECTIONS_SETTINGS_DEFAULTS.auto_merge,
      auto_merge_conditions: autoMerge,
    },
    present_sections: presentSections,
  };
  return { config, issues };
}
