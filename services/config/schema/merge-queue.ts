/** `merge_queue` (docs/domain.md §1.3): global settings of the merge queue. */
import { z } from "zod";
import { int } from "./common.js";

/** The `merge_queue` section as written (no defaults). */
export const mergeQueue = z.strictObject({
  max_parallel_checks: int(1, 128).optional(),
  mode: z.enum(["serial", "parallel", "isolated"]).optional(),
  reset_on_external_merge: z.enum(["always", "never"]).optional(),
  skip_intermediate_results: z.boolean().optional(),
  queued_label: z.string().nullable().optional(),
  checking_label: z.string().nullable().optional(),
  dequeued_label: z.string().nullable().optional(),
  status_comments: z.enum(["all", "outcomes", "none"]).optional(),
  queue_controls_comment: z.boolean().optional(),
});

/** Output of {@link mergeQueue}. */
export type RawMergeQueue = z.output<typeof mergeQueue>;
