/**
 * Deprecated keys and condition attributes (docs/domain.md §1.7, docs/configuration.md
 * "Deprecations"): each is still accepted and mapped to its replacement, and every use found in a
 * file is reported once, with its path and the last day it is accepted. Deprecations the format
 * never dated get {@link UNDATED_DEADLINE}.
 */
import { parseCondition } from "./conditions/leaf-parser.js";
import type { DeprecationFinding } from "./model.js";

/** Deadline given to deprecations that have no published date (docs/configuration.md "Deprecation policy"). */
export const UNDATED_DEADLINE = "2027-12-31";

type Pattern = readonly string[];

/** A deprecated key: where it may appear (`*` = any list index), its replacement and deadline. */
export interface DeprecatedKey {
  where: readonly Pattern[];
  key: string;
  replacement: string;
  deadline: string;
}

/** A deprecated condition attribute. */
export interface DeprecatedAttribute {
  attribute: string;
  replacement: string;
  deadline: string;
}

const QUEUE_RULE: readonly Pattern[] = [
  ["queue_rules", "*"],
  ["defaults", "queue_rule"],
];
const QUEUE_ACTION: readonly Pattern[] = [
  ["pull_request_rules", "*", "actions", "queue"],
  ["defaults", "actions", "queue"],
];
const ACTIONS: readonly Pattern[] = [
  ["pull_request_rules", "*", "actions"],
  ["defaults", "actions"],
];
const TO_QUEUE_RULES = "the same key in the queue rule (queue_rules)";

/** Every deprecated key. */
export const DEPRECATED_KEYS: readonly DeprecatedKey[] = [
  {
    where: [...QUEUE_RULE, ["pull_request_rules", "*", "actions", "merge"], ["defaults", "actions", "merge"]],
    key: "commit_message_template",
    replacement: "commit_message_format",
    deadline: "2026-09-30",
  },
  { where: QUEUE_RULE, key: "conditions", replacement: "merge_conditions", deadline: "2026-07-31" },
  { where: QUEUE_RULE, key: "routing_conditions", replacement: "queue_conditions", deadline: "2026-07-31" },
  {
    where: QUEUE_RULE,
    key: "autoqueue",
    replacement: "merge_protections_settings.auto_merge_conditions",
    deadline: "2026-07-16",
  },
  {
    where: ACTIONS,
    key: "github_actions",
    replacement: "workflows triggered by the platform's own events",
    deadline: "2027-03-31",
  },
  { where: [[]], key: "partition_rules", replacement: "scopes", deadline: "2025-10-31" },
  ...[
    "merge_method",
    "merge_bot_account",
    "update_method",
    "update_bot_account",
    "commit_message_template",
    "require_branch_protection",
    "allow_merging_configuration_change",
    "autosquash",
  ].map((key): DeprecatedKey => ({ where: QUEUE_ACTION, key, replacement: TO_QUEUE_RULES, deadline: "2025-01-31" })),
  {
    where: QUEUE_ACTION,
    key: "method",
    replacement: "merge_method in the queue rule (queue_rules)",
    deadline: "2025-01-31",
  },
  { where: QUEUE_ACTION, key: "priority", replacement: "priority_rules", deadline: "2025-01-31" },
  {
    where: [["queue_rules", "*"]],
    key: "priority_rules",
    replacement: "the top-level priority_rules",
    deadline: "2024-11-26",
  },
  {
    where: QUEUE_RULE,
    key: "allow_checks_interruption",
    replacement: "priority_rules[].allow_checks_interruption",
    deadline: "2024-12-11",
  },
  {
    where: QUEUE_RULE,
    key: "disallow_checks_interruption_from_queues",
    replacement: "priority_rules[].allow_checks_interruption",
    deadline: "2024-12-11",
  },
  {
    where: QUEUE_RULE,
    key: "speculative_checks",
    replacement: "merge_queue.max_parallel_checks",
    deadline: UNDATED_DEADLINE,
  },
  {
    where: QUEUE_RULE,
    key: "allow_inplace_checks",
    replacement: "nothing (in-place checks are decided automatically)",
    deadline: UNDATED_DEADLINE,
  },
  {
    where: QUEUE_RULE,
    key: "queue_branch_merge_method",
    replacement: "merge_method: fast-forward",
    deadline: UNDATED_DEADLINE,
  },
  {
    where: [...QUEUE_RULE, ["pull_request_rules", "*", "actions", "rebase"], ["defaults", "actions", "rebase"]],
    key: "autosquash",
    replacement: "nothing (squash fixup commits before queueing)",
    deadline: UNDATED_DEADLINE,
  },
  { where: ACTIONS, key: "post_check", replacement: "merge_protections", deadline: UNDATED_DEADLINE },
  {
    where: ACTIONS,
    key: "delete_head_branch",
    replacement: "the platform's automatic deletion of merged branches",
    deadline: UNDATED_DEADLINE,
  },
  {
    where: [["merge_protections_settings"]],
    key: "auto_merge",
    replacement: "auto_merge_conditions",
    deadline: UNDATED_DEADLINE,
  },
];

const CLOCK_REPLACEMENT = "schedule or current-datetime";

/** Every deprecated condition attribute. */
export const DEPRECATED_ATTRIBUTES: readonly DeprecatedAttribute[] = [
  ...["current-time", "current-day", "current-month", "current-year", "current-day-of-week", "current-timestamp"].map(
    (attribute): DeprecatedAttribute => ({ attribute, replacement: CLOCK_REPLACEMENT, deadline: "2023-02-11" }),
  ),
  { attribute: "status-success", replacement: "check-success", deadline: UNDATED_DEADLINE },
  { attribute: "status-failure", replacement: "check-failure", deadline: UNDATED_DEADLINE },
  { attribute: "status-neutral", replacement: "check-neutral", deadline: UNDATED_DEADLINE },
  {
    attribute: "check-success-or-neutral",
    replacement: "an or: group of check-success and check-neutral",
    deadline: UNDATED_DEADLINE,
  },
  {
    attribute: "mergify-configuration-changed",
    replacement: "yardmaster-configuration-changed",
    deadline: UNDATED_DEADLINE,
  },
];

/** Where condition lists sit in a configuration (attribute deprecations are looked for there). */
const CONDITION_LISTS: readonly Pattern[] = [
  ...["queue_conditions", "merge_conditions", "conditions", "routing_conditions"].flatMap((k) => [
    ["queue_rules", "*", k],
    ["defaults", "queue_rule", k],
  ]),
  ["queue_rules", "*", "priority_rules", "*", "conditions"],
  ["priority_rules", "*", "conditions"],
  ["partition_rules", "*", "conditions"],
  ["pull_request_rules", "*", "conditions"],
  ...["success_conditions", "neutral_conditions"].flatMap((k) => [
    ["pull_request_rules", "*", "actions", "post_check", k],
    ["defaults", "actions", "post_check", k],
  ]),
  ["commands_restrictions", "*", "conditions"],
  ["merge_protections", "*", "if"],
  ["merge_protections", "*", "success_conditions"],
  ["merge_protections_settings", "auto_merge_conditions"],
];

type Path = (string | number)[];

function matches(pattern: Pattern, path: Path): boolean {
  return pattern.length === path.length && pattern.every((p, i) => p === "*" || p === String(path[i]));
}

function keyFinding(entry: DeprecatedKey, path: Path): DeprecationFinding {
  return {
    message: `"${entry.key}" is deprecated and accepted until ${entry.deadline}: use ${entry.replacement} instead`,
    deadline: entry.deadline,
    path,
  };
}

function scanConditions(value: unknown, path: Path, out: DeprecationFinding[]): void {
  if (typeof value === "string") {
    let attribute: string;
    try {
      attribute = parseCondition(value).attribute;
    } catch {
      return;
    }
    const entry = DEPRECATED_ATTRIBUTES.find((d) => d.attribute === attribute);
    if (entry !== undefined) {
      out.push({
        message: `the condition attribute "${attribute}" is deprecated and accepted until ${entry.deadline}: use ${entry.replacement} instead`,
        deadline: entry.deadline,
        path,
      });
    }
    return;
  }
  if (Array.isArray(value)) value.forEach((v, i) => scanConditions(v, [...path, i], out));
  else if (value !== null && typeof value === "object") {
    for (const [k, v] of Object.entries(value))
      if (k === "and" || k === "or" || k === "not") scanConditions(v, [...path, k], out);
  }
}

function walk(value: unknown, path: Path, out: DeprecationFinding[]): void {
  if (CONDITION_LISTS.some((p) => matches(p, path))) {
    scanConditions(value, path, out);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((v, i) => walk(v, [...path, i], out));
    return;
  }
  if (value === null || typeof value !== "object") return;
  for (const [key, v] of Object.entries(value)) {
    if (path.length === 0 && key === "shared") continue;
    const entry = DEPRECATED_KEYS.find((d) => d.key === key && d.where.some((p) => matches(p, path)));
    if (entry !== undefined) out.push(keyFinding(entry, [...path, key]));
    walk(v, [...path, key], out);
  }
}

/**
 * Every deprecated key and attribute used in a configuration value (the YAML as plain data),
 * once per use, in document order. The `shared` section (anchor storage) is skipped: what it
 * holds is reported where it is used.
 */
export function findDeprecations(config: unknown): DeprecationFinding[] {
  const out: DeprecationFinding[] = [];
  walk(config, [], out);
  return out;
}
