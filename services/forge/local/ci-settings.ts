/**
 * `YARDMASTER_CI_SLOTS`: how many checks the local CI runs at once on this machine (default 2;
 * docs/local-forge.md "CI jobs"). Read here until the service's settings carry it.
 */
import { z } from "zod";
import { DEFAULT_CI_SLOTS } from "./local-forge.js";

const Slots = z.coerce.number().int("must be a whole number").min(1, "must be at least 1").max(256, "must be at most 256");

/**
 * The CI slot count from an environment.
 * @throws Error naming YARDMASTER_CI_SLOTS when it is set and not a whole number in 1..256
 */
export function ciSlotsFromEnvironment(env: NodeJS.ProcessEnv): number {
  const raw = env.YARDMASTER_CI_SLOTS;
  if (raw === undefined || raw.trim() === "") return DEFAULT_CI_SLOTS;
  const parsed = Slots.safeParse(raw.trim());
  if (!parsed.success) throw new Error(`YARDMASTER_CI_SLOTS: ${parsed.error.issues[0]!.message} (got "${raw}")`);
  return parsed.data;
}
