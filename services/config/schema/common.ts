/**
 * Building blocks shared by the section schemas (docs/configuration.md "Keys and defaults"): condition
 * lists, durations, bot accounts, priorities, merge methods. Every schema here only validates
 * and converts; defaults are filled later, in one place (load/defaults.ts), so that explicit
 * values can be told from absent ones.
 */
import { z } from "zod";
import { parseConditionList } from "../conditions/tree.js";
import { DurationError, MAX_DURATION_SECONDS, parseDuration } from "../duration.js";
import type { Condition, MergeMethodSetting } from "../model.js";

/** A condition list (or `true`), parsed into condition trees. */
export function conditionList(): z.ZodType<Condition[] | true, unknown> {
  return z.unknown().transform((value, ctx) => {
    if (value === undefined) {
      ctx.addIssue({ code: "invalid_type", expected: "array", input: value, message: "missing" });
      return z.NEVER;
    }
    const { conditions, issues } = parseConditionList(value);
    for (const issue of issues)
      ctx.addIssue({ code: "custom", message: issue.message, path: issue.path, input: value });
    return conditions ?? z.NEVER;
  });
}

/**
 * A duration text (`"30 s"`, `"1 hour 30 min"`) or a number of seconds -> whole seconds, at most
 * {@link MAX_DURATION_SECONDS} (365 days).
 */
export function duration(): z.ZodType<number, unknown> {
  return z.unknown().transform((value, ctx) => {
    let seconds: number;
    if (typeof value === "number" && Number.isInteger(value) && value >= 0) seconds = value;
    else if (typeof value !== "string") {
      ctx.addIssue({
        code: "custom",
        message: `expected a duration such as "30 s", "5 min" or "1 hour 30 min", got ${describeValue(value)}`,
        input: value,
      });
      return z.NEVER;
    } else {
      try {
        seconds = parseDuration(value);
      } catch (e) {
        if (!(e instanceof DurationError)) throw e;
        ctx.addIssue({ code: "custom", message: e.message, input: value });
        return z.NEVER;
      }
    }
    if (seconds > MAX_DURATION_SECONDS) {
      ctx.addIssue({
        code: "custom",
        message: `a duration must be at most 365 days (${MAX_DURATION_SECONDS} seconds), got ${describeValue(value)}`,
        input: value,
      });
      return z.NEVER;
    }
    return seconds;
  });
}

/** A short description of a YAML value for messages: `the string "abc"`, `a list`, `nothing`. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return "nothing";
  if (Array.isArray(value)) return "a list";
  if (typeof value === "object") return "an object";
  if (typeof value === "string") return `the string ${JSON.stringify(value)}`;
  return `${typeof value === "number" ? "the number" : "the boolean"} ${String(value)}`;
}

const SIMPLE_TEMPLATE = /\{\{\s*([^}]*?)\s*\}\}/g;

/**
 * A text that may use `{{ variable }}` placeholders among `allowed` (docs/domain.md §1.8
 * "Templates"); null allowed.
 */
export function simpleTemplate(allowed: readonly string[]): z.ZodType<string | null, unknown> {
  return z
    .string()
    .nullable()
    .superRefine((value, ctx) => {
      if (value === null) return;
      for (const m of value.matchAll(SIMPLE_TEMPLATE)) {
        if (!/^[A-Za-z_]\w*$/.test(m[1])) {
          ctx.addIssue({
            code: "custom",
            message: `only plain {{ variable }} placeholders are allowed here (${allowed.join(", ")}), without filters or expressions; got {{ ${m[1]} }}`,
          });
        } else if (!allowed.includes(m[1])) {
          ctx.addIssue({
            code: "custom",
            message: `unknown template variable {{ ${m[1]} }}: allowed ${allowed.map((a) => `{{ ${a} }}`).join(", ")}`,
          });
        }
      }
    });
}

/** A user to impersonate: a login or `{{ author }}`, or null. */
export function botAccount(): z.ZodType<string | null, unknown> {
  return simpleTemplate(["author"]);
}

/** Priority aliases (docs/domain.md §1.4). */
export const PRIORITY_ALIASES: Readonly<Record<string, number>> = { low: 1000, medium: 2000, high: 3000 };

/** `low` | `medium` | `high` | an integer from 1 to 10000 -> a number. */
export function priority(): z.ZodType<number, unknown> {
  return z.unknown().transform((value, ctx) => {
    if (typeof value === "string" && value.toLowerCase() in PRIORITY_ALIASES)
      return PRIORITY_ALIASES[value.toLowerCase()];
    if (typeof value === "number" && Number.isInteger(value) && value >= 1 && value <= 10000) return value;
    ctx.addIssue({
      code: "custom",
      message: `expected low, medium, high or an integer from 1 to 10000, got ${describeValue(value)}`,
      input: value,
    });
    return z.NEVER;
  });
}

/** Merge methods of queue rules. */
export const MERGE_METHODS: readonly MergeMethodSetting[] = [
  "merge",
  "squash",
  "rebase",
  "fast-forward",
  "merge-batch",
];

/** An integer in [min, max]. */
export function int(min: number, max?: number): z.ZodInt {
  const base = z.int().min(min);
  return max === undefined ? base : base.max(max);
}

/** `commit_message_format` (docs/domain.md §1.2). */
export const commitMessageFormat = z.strictObject({
  title: z.enum(["inherit", "pr-title"]).optional(),
  body: z.enum(["inherit", "pr-body", "empty"]).optional(),
  trailers: z.array(z.enum(["co-authored-by", "approved-by", "merged-by"])).optional(),
});
