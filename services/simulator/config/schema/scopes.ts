/**
 * `scopes` (research/domain.md §1.6): where scopes come from (file patterns or the API), barrier
 * files, the scope of merge queue pull requests and per-scope capacities.
 */
import { z } from "zod";
import { int } from "./common.js";

const SCOPE_NAME = /^[A-Za-z0-9_-]+$/;
const scopeName = z.string().refine((s) => s.length >= 2 && SCOPE_NAME.test(s), { message: "expected a scope name of at least 2 characters among letters, digits, _ and -" });

const fileFilters = z.strictObject({
  include: z.array(z.string()).optional(),
  exclude: z.array(z.string()).optional(),
});

/** The `scopes` section as written (no defaults; load/defaults.ts fills them). */
export const scopes = z.strictObject({
  source: z
    .union([
      z.strictObject({ files: z.record(scopeName, fileFilters) }),
      z.strictObject({ manual: z.null() }),
    ])
    .nullable()
    .optional(),
  barrier_files: z
    .strictObject({ include: z.array(z.string()).min(1), exclude: z.array(z.string()).optional() })
    .nullable()
    .optional(),
  merge_queue_scope: scopeName.optional(),
  capacities: z.record(scopeName, int(1, 128)).optional(),
  default_capacity: int(1, 128).nullable().optional(),
}).superRefine((s, ctx) => {
  if (s.barrier_files && !(s.source && "files" in s.source)) {
    ctx.addIssue({ code: "custom", path: ["barrier_files"], message: "barrier_files needs a files source (source: {files: ...})" });
  }
});

/** Output of {@link scopes}. */
export type RawScopes = z.output<typeof scopes>;
