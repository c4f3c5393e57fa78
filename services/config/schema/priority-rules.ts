/**
 * `priority_rules` (docs/domain.md §1.4): `{name, conditions, priority, allow_checks_interruption}`,
 * at most 50 rules; the first matching rule gives a queued pull request its priority.
 */
import { z } from "zod";
import { conditionList, priority } from "./common.js";

/** One priority rule as written (no defaults). */
export const priorityRule = z.strictObject({
  name: z.string().min(1),
  conditions: conditionList(),
  priority: priority().optional(),
  allow_checks_interruption: z.boolean().optional(),
});

/** The `priority_rules` section. */
export const priorityRules = z.array(priorityRule).max(50);

/** One priority rule as written; `priority` already a number. */
export type RawPriorityRule = z.output<typeof priorityRule>;
