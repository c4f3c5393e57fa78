/**
 * `merge_protections` and `merge_protections_settings` (docs/domain.md §1.1): rules that must
 * hold before merging, and how they are reported.
 */
import { z } from "zod";
import { conditionList } from "./common.js";

const mergeProtection = z.strictObject({
  name: z.string().min(1),
  description: z.string().nullable().optional(),
  if: conditionList(),
  success_conditions: conditionList(),
});

/** The `merge_protections` section (at most 100 rules). */
export const mergeProtections = z.array(mergeProtection).max(100);

/** The `merge_protections` section (at most 100 rules). */
/** The `merge_protections_settings` section as written. */
export const mergeProtectionsSettings = z.strictObject({
  reporting_method: z.enum(["check-runs", "deployments"]).optional(),
  post_comment: z.boolean().optional(),
  auto_merge: z.boolean().optional(),
  auto_merge_conditions: conditionList().nullable().optional(),
});

/** One merge protection as written. */
export type RawMergeProtection = z.output<typeof mergeProtection>;
/** One merge protection as written. */
/** Output of {@link mergeProtectionsSettings}. */
export type RawMergeProtectionsSettings = z.output<typeof mergeProtectionsSettings>;
