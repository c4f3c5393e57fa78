/**
 * Legacy `queue_rules[].priority_rules` (docs/domain.md §1.2): each becomes a top-level priority
 * rule limited to its queue by a `queue-name` condition.
 */
import type { Condition, ConditionLeaf, PriorityRuleConfig } from "../model.js";
import type { RawQueueRule } from "../schema/queue-rules.js";
import { PRIORITY_RULE_DEFAULTS } from "./defaults.js";

function list(conditions: Condition[] | true | null | undefined): Condition[] {
  return conditions === undefined || conditions === null || conditions === true ? [] : conditions;
}

/** `queue-name = <name>`, built directly so that any queue name is taken verbatim. */
function queueNameLeaf(name: string): ConditionLeaf {
  return {
    kind: "leaf",
    text: `queue-name=${name}`,
    attribute: "queue-name",
    negate: false,
    length: false,
    operator: "=",
    value: { type: "string", value: name },
    valueText: name,
  };
}

/** Legacy `queue_rules[].priority_rules` become top-level rules limited to their queue. */
export function migratedPriorityRules(raw: RawQueueRule[]): PriorityRuleConfig[] {
  return raw.flatMap((rule) =>
    (rule.priority_rules ?? []).map((p) => ({
      name: p.name,
      conditions: [queueNameLeaf(rule.name), ...list(p.conditions)],
      priority: p.priority ?? PRIORITY_RULE_DEFAULTS.priority,
      allow_checks_interruption:
        p.allow_checks_interruption ??
        rule.allow_checks_interruption ??
        PRIORITY_RULE_DEFAULTS.allow_checks_interruption,
    })),
  );
}
