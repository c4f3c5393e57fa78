/**
 * `pull_request_rules` (docs/domain.md §1.1): workflow automation rules
 * `{name, description, disabled: {reason}, conditions, actions}`, at most 200.
 */
import { z } from "zod";
import { actions } from "./actions.js";
import { conditionList } from "./common.js";

const pullRequestRule = z.strictObject({
  name: z.string().min(1),
  description: z.string().nullable().optional(),
  disabled: z.strictObject({ reason: z.string() }).nullable().optional(),
  conditions: conditionList(),
  actions,
});

/** The `pull_request_rules` section. */
export const pullRequestRules = z.array(pullRequestRule).max(200);

/** One pull request rule as written (no defaults). */
export type RawPullRequestRule = z.output<typeof pullRequestRule>;
