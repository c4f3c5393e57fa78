/**
 * `partition_rules` (docs/domain.md §1.5, legacy and deprecated in favour of `scopes`):
 * `{name, conditions, fallback_partition}`; at most one fallback partition, without conditions.
 */
import { z } from "zod";
import { conditionList } from "./common.js";

const partitionRule = z.strictObject({
  name: z.string().min(1),
  conditions: conditionList().optional(),
  fallback_partition: z.boolean().optional(),
});

/** The `partition_rules` section, with its fallback rules checked. */
export const partitionRules = z.array(partitionRule).superRefine((rules, ctx) => {
  let fallbacks = 0;
  rules.forEach((r, i) => {
    if (!r.fallback_partition) return;
    fallbacks++;
    if (fallbacks > 1)
      ctx.addIssue({
        code: "custom",
        path: [i, "fallback_partition"],
        message: "only one partition rule can be the fallback partition",
      });
    if (r.conditions !== undefined && r.conditions !== true && r.conditions.length > 0) {
      ctx.addIssue({
        code: "custom",
        path: [i, "conditions"],
        message: "the fallback partition cannot have conditions",
      });
    }
  });
});

/** One partition rule as written. */
export type RawPartitionRule = z.output<typeof partitionRule>;
