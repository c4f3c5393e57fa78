/**
 * `scopes` (docs/domain.md §1.6): where scopes come from (file patterns or the API), barrier
 * files, the scope of merge queue pull requests and per-scope capacities.
 */
import { z } from "zod";
import { describeValue, int } from "./common.js";

const SCOPE_NAME = /^[A-Za-z0-9_-]{2,}$/;

/** What a scope name is (docs/domain.md §1.6: `^[A-Za-z0-9_-]+$`, at least 2 characters), and what was found. */
function scopeNameRule(found: unknown): string {
  return `expected a scope name of at least 2 characters among letters, digits, "_" and "-", got ${describeValue(found)}`;
}

/**
 * A scope name, as a key (`source.files`, `capacities`) or a value (`merge_queue_scope`): any
 * other value, a number or nothing included, is reported with the naming rule.
 */
const scopeName = z.unknown().transform((value, ctx) => {
  if (typeof value === "string" && SCOPE_NAME.test(value)) return value;
  ctx.addIssue({ code: "custom", message: scopeNameRule(value), input: value });
  return z.NEVER;
});
const scopeNameKey = z.string().check((ctx) => {
  if (!SCOPE_NAME.test(ctx.value))
    ctx.issues.push({ code: "custom", message: scopeNameRule(ctx.value), input: ctx.value });
});

const fileFilters = z.strictObject({
  include: z.array(z.string()).optional(),
  exclude: z.array(z.string()).optional(),
});

/** The `scopes` section as written (no defaults; load/defaults.ts fills them). */
export const scopes = z
  .strictObject({
    source: z
      .union([z.strictObject({ files: z.record(scopeNameKey, fileFilters) }), z.strictObject({ manual: z.null() })])
      .nullable()
      .optional(),
    barrier_files: z
      .strictObject({ include: z.array(z.string()).min(1), exclude: z.array(z.string()).optional() })
      .nullable()
      .optional(),
    merge_queue_scope: scopeName.optional(),
    capacities: z.record(scopeNameKey, int(1, 128)).optional(),
    default_capacity: int(1, 128).nullable().optional(),
  })
  .superRefine((s, ctx) => {
    if (s.barrier_files && !(s.source && "files" in s.source)) {
      ctx.addIssue({
        code: "custom",
        path: ["barrier_files"],
        message: "barrier_files needs a files source (source: {files: ...})",
      });
    }
  });

/** Output of {@link scopes}. */
export type RawScopes = z.output<typeof scopes>;
