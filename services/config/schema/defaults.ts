/**
 * The `defaults` section (docs/domain.md §1.1): per-action default options
 * (`defaults.actions.<action>`) and default queue rule keys (`defaults.queue_rule`). A value
 * written in a rule wins over these, which win over the built-in defaults (load/defaults.ts).
 */
import { z } from "zod";
import { actions } from "./actions.js";
import { queueRuleDefaults } from "./queue-rules.js";

/** The `defaults` section. */
export const defaultsSection = z.strictObject({
  actions: actions.optional(),
  queue_rule: queueRuleDefaults.nullable().optional(),
});

/** Output of {@link defaultsSection}. */
export type RawDefaults = z.output<typeof defaultsSection>;
