/**
 * `commands_restrictions` (docs/domain.md §1.1): per comment command (`@yardmaster queue`...),
 * the conditions its sender must match. Unlisted commands keep their defaults (load/defaults.ts).
 */
import { z } from "zod";
import { conditionList } from "./common.js";

/** Commands that can be restricted. */
export const RESTRICTABLE_COMMANDS = [
  "queue",
  "dequeue",
  "requeue",
  "backport",
  "copy",
  "rebase",
  "refresh",
  "squash",
  "update",
] as const;

const restriction = z.strictObject({ conditions: conditionList().optional() });

/** The `commands_restrictions` section: command -> `{conditions}`. */
export const commandsRestrictions = z.strictObject(
  Object.fromEntries(RESTRICTABLE_COMMANDS.map((c) => [c, restriction.optional()])) as Record<
    (typeof RESTRICTABLE_COMMANDS)[number],
    z.ZodOptional<typeof restriction>
  >,
);

/** Output of {@link commandsRestrictions}. */
export type RawCommandsRestrictions = z.output<typeof commandsRestrictions>;
