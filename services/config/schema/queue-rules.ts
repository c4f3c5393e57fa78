/**
 * `queue_rules` (docs/domain.md §1.2): at most 50 rules, each with a unique `name`. The
 * legacy keys `conditions`, `routing_conditions`, `speculative_checks`,
 * `allow_checks_interruption`, `disallow_checks_interruption_from_queues` and `priority_rules`
 * are accepted here and mapped to their replacement by load/effective.ts (each is reported as a
 * deprecation). `defaults.queue_rule` takes the same keys except `name`.
 */
import { z } from "zod";
import {
  botAccount,
  commitMessageFormat,
  conditionList,
  describeValue,
  duration,
  int,
  MERGE_METHODS,
} from "./common.js";
import { priorityRule } from "./priority-rules.js";

/** `batch_size`: 1-128, or `{min, max}` with 1 <= min <= max <= 128. */
const batchSize = z.unknown().transform((value, ctx) => {
  const ok = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 1 && n <= 128;
  if (ok(value)) return { min: value, max: value };
  if (value !== null && typeof value === "object" && !Array.isArray(value)) {
    const o = value as Record<string, unknown>;
    const extra = Object.keys(o).filter((k) => k !== "min" && k !== "max");
    if (extra.length === 0 && ok(o.min) && ok(o.max) && o.min <= o.max) return { min: o.min, max: o.max };
    if (extra.length === 0 && ok(o.min) && ok(o.max)) {
      ctx.addIssue({ code: "custom", message: `expected min <= max, got min ${o.min} and max ${o.max}`, input: value });
      return z.NEVER;
    }
  }
  ctx.addIssue({
    code: "custom",
    message: `expected an integer from 1 to 128, or {min, max} with integers from 1 to 128, got ${describeValue(value)}`,
    input: value,
  });
  return z.NEVER;
});

/** `checks_timeout`: a duration of at least 60 seconds, "auto", or null (never). */
const checksTimeout = z.unknown().transform((value, ctx): number | "auto" | null => {
  if (value === null || value === "auto") return value;
  const parsed = duration().safeParse(value);
  if (!parsed.success) {
    ctx.addIssue({
      code: "custom",
      message: `expected a duration of at least 60 seconds, "auto" or null, got ${describeValue(value)}`,
      input: value,
    });
    return z.NEVER;
  }
  if (parsed.data < 60) {
    ctx.addIssue({
      code: "custom",
      message: `expected a duration of at least 60 seconds, got ${parsed.data} seconds`,
      input: value,
    });
    return z.NEVER;
  }
  return parsed.data;
});

/** Keys shared by a queue rule and `defaults.queue_rule`. */
export const queueRuleFields = {
  queue_conditions: conditionList().optional(),
  merge_conditions: conditionList().optional(),
  branch_protection_injection_mode: z.enum(["queue", "merge", "none"]).optional(),
  batch_size: batchSize.optional(),
  batch_max_wait_time: duration().optional(),
  checks_timeout: checksTimeout.optional(),
  max_checks_retries: int(0).optional(),
  draft_bot_account: botAccount().optional(),
  merge_bot_account: botAccount().optional(),
  update_bot_account: botAccount().optional(),
  queue_branch_prefix: z.string().min(1).optional(),
  queue_branch_merge_method: z.literal("fast-forward").nullable().optional(),
  allow_queue_branch_edit: z.boolean().optional(),
  risk_aware_batching: z.boolean().optional(),
  batch_max_failure_resolution_attempts: int(0).nullable().optional(),
  merge_method: z
    .enum(MERGE_METHODS as [string, ...string[]])
    .nullable()
    .optional(),
  update_method: z.enum(["rebase", "merge"]).nullable().optional(),
  commit_message_template: z.string().nullable().optional(),
  commit_message_format: commitMessageFormat.nullable().optional(),
  allow_inplace_checks: z.boolean().optional(),
  autosquash: z.boolean().optional(),
  autoqueue: z.boolean().optional(),
  // Legacy keys (accepted, mapped, reported as deprecations).
  conditions: conditionList().optional(),
  routing_conditions: conditionList().optional(),
  speculative_checks: int(1, 128).optional(),
  allow_checks_interruption: z.boolean().optional(),
  disallow_checks_interruption_from_queues: z.array(z.string()).optional(),
  priority_rules: z.array(priorityRule).max(50).optional(),
};

function exclusive(a: string, b: string) {
  return (rule: Record<string, unknown>, ctx: z.RefinementCtx): void => {
    if (rule[a] !== undefined && rule[b] !== undefined) {
      ctx.addIssue({
        code: "custom",
        path: [a],
        message: `${a} and ${b} cannot both be set${a === "conditions" || a === "routing_conditions" ? ` (${a} is the deprecated name of ${b})` : ""}`,
      });
    }
  };
}

function refineRule(rule: Record<string, unknown>, ctx: z.RefinementCtx): void {
  exclusive("conditions", "merge_conditions")(rule, ctx);
  exclusive("routing_conditions", "queue_conditions")(rule, ctx);
  exclusive("commit_message_template", "commit_message_format")(rule, ctx);
}

/** One queue rule as written (no defaults). */
export const queueRule = z.strictObject({ name: z.string().min(1), ...queueRuleFields }).superRefine(refineRule);

/** `defaults.queue_rule`. */
export const queueRuleDefaults = z.strictObject(queueRuleFields).superRefine(refineRule);

/** The `queue_rules` section. */
export const queueRules = z.array(queueRule).max(50);

/** One queue rule as written: durations in seconds, no defaults. */
export type RawQueueRule = z.output<typeof queueRule>;
/** One queue rule as written: durations in seconds, no defaults. */
/** `defaults.queue_rule` as written. */
export type RawQueueRuleDefaults = z.output<typeof queueRuleDefaults>;
