/**
 * The whole configuration file (docs/domain.md §1.1): a closed mapping of sections, unknown
 * keys are errors. A section written empty (`queue_rules:`) counts as absent. `$schema` (an
 * editor hint some files carry) is accepted and ignored.
 */
import { z } from "zod";
import { commandsRestrictions } from "./commands-restrictions.js";
import { defaultsSection } from "./defaults.js";
import { mergeProtections, mergeProtectionsSettings } from "./merge-protections.js";
import { mergeQueue } from "./merge-queue.js";
import { partitionRules } from "./partition-rules.js";
import { priorityRules } from "./priority-rules.js";
import { pullRequestRules } from "./pull-request-rules.js";
import { queueRules } from "./queue-rules.js";
import { scopes } from "./scopes.js";

/** Top-level sections, in the order documentation lists them. */
export const SECTIONS = [
  "extends",
  "shared",
  "defaults",
  "queue_rules",
  "merge_queue",
  "priority_rules",
  "scopes",
  "partition_rules",
  "pull_request_rules",
  "commands_restrictions",
  "merge_protections",
  "merge_protections_settings",
] as const;

/** The whole file; its output is the raw configuration load/effective.ts turns into a Configuration. */
export const configurationFile = z.strictObject({
  $schema: z.string().optional(),
  extends: z.string().min(1).nullable().optional(),
  // Anchor storage: any shape (one real file keeps its anchors in a list).
  shared: z.unknown().optional(),
  defaults: defaultsSection.nullable().optional(),
  queue_rules: queueRules.nullable().optional(),
  merge_queue: mergeQueue.nullable().optional(),
  priority_rules: priorityRules.nullable().optional(),
  scopes: scopes.nullable().optional(),
  partition_rules: partitionRules.nullable().optional(),
  pull_request_rules: pullRequestRules.nullable().optional(),
  commands_restrictions: commandsRestrictions.nullable().optional(),
  merge_protections: mergeProtections.nullable().optional(),
  merge_protections_settings: mergeProtectionsSettings.nullable().optional(),
});

/** A validated file before defaults and extends. */
export type RawConfiguration = z.output<typeof configurationFile>;
