/**
 * Which queue a pull request enters and with which priority (docs/domain.md §3.2): without
 * a queue name, the first queue rule (file order) whose `queue_conditions` match; the priority is
 * that of the first matching priority rule, evaluated with `queue-name` set to the chosen queue,
 * else medium (2000). Used by the simulator summary; the queue runner can call the same rules.
 */
import { evaluateConditions } from "../conditions/evaluate.js";
import type { EvaluationContext } from "../conditions/context.js";
import { DEFAULT_PRIORITY } from "../load/defaults.js";
import type { Configuration, QueueRuleConfig } from "../model.js";

/**
 * The queue rule a pull request would enter: the rule named `name` if its queue conditions match,
 * or without a name the first rule whose queue conditions match; null when none does (or the
 * conditions are still pending).
 */
export function chooseQueueRule(
  config: Configuration,
  ctx: EvaluationContext,
  name?: string | null,
): QueueRuleConfig | null {
  const candidates = typeof name === "string" ? config.queue_rules.filter((q) => q.name === name) : config.queue_rules;
  return candidates.find((q) => evaluateConditions(q.queue_conditions, ctx).match === true) ?? null;
}

/**
 * The priority of a pull request in `queueName`: the first priority rule whose conditions match
 * (with `queue-name` set to the queue), else {@link DEFAULT_PRIORITY}. `rule` is null for the
 * default.
 */
export function priorityOf(
  config: Configuration,
  ctx: EvaluationContext,
  queueName: string,
): { priority: number; rule: string | null } {
  const inQueue: EvaluationContext = {
    ...ctx,
    attributes: { ...ctx.attributes, values: { ...ctx.attributes.values, "queue-name": queueName } },
  };
  const rule = config.priority_rules.find((p) => evaluateConditions(p.conditions, inQueue).match === true);
  return rule === undefined ? { priority: DEFAULT_PRIORITY, rule: null } : { priority: rule.priority, rule: rule.name };
}
