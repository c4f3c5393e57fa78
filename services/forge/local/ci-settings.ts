/**
 * The local CI's settings from the environment (docs/local-forge.md "CI jobs"), read here until the
 * service's settings carry them:
 * - `YARDMASTER_CI_SLOTS`: how many checks the local CI runs at once on this machine (default 2);
 * - `YARDMASTER_CI_LEASE_SECONDS`: how long a CI job's claim holds without renewal (default 60), so
 *   how soon another process (or this one, restarted) takes over the jobs of a worker that died.
 */
import { z } from "zod";
import { DEFAULT_CI_SLOTS } from "./local-forge.js";

const LeaseSeconds = z.coerce
  .number()
  .int("must be a whole number of seconds")
  .min(4, "must be at least 4")
  .max(3600, "must be at most 3600");

const Slots = z.coerce
  .number()
  .int("must be a whole number")
  .min(1, "must be at least 1")
  .max(256, "must be at most 256");

/**
 * A variable's value checked by `schema`; undefined when it is unset or blank.
 * @throws Error naming the variable, with the schema's message and the value given
 */
function numberFromEnvironment(env: NodeJS.ProcessEnv, name: string, schema: z.ZodType<number>): number | undefined {
  const raw = env[name];
  if (raw === undefined || raw.trim() === "") return undefined;
  const parsed = schema.safeParse(raw.trim());
  if (!parsed.success) throw new Error(`${name}: ${parsed.error.issues[0]!.message} (got "${raw}")`);
  return parsed.data;
}

/**
 * The CI slot count from an environment.
 * @throws Error naming YARDMASTER_CI_SLOTS when it is set and not a whole number in 1..256
 */
export function ciSlotsFromEnvironment(env: NodeJS.ProcessEnv): number {
  return numberFromEnvironment(env, "YARDMASTER_CI_SLOTS", Slots) ?? DEFAULT_CI_SLOTS;
}

/**
 * The CI job lease from an environment: `{}` when `YARDMASTER_CI_LEASE_SECONDS` is unset (the
 * worker's defaults: 60 000 ms, renewed every 15 000 ms), else that many seconds in milliseconds,
 * renewed every quarter of it.
 * @throws Error naming YARDMASTER_CI_LEASE_SECONDS when it is set and not a whole number in 4..3600
 */
export function ciLeaseFromEnvironment(env: NodeJS.ProcessEnv): { leaseMs?: number; heartbeatMs?: number } {
  const seconds = numberFromEnvironment(env, "YARDMASTER_CI_LEASE_SECONDS", LeaseSeconds);
  return seconds === undefined ? {} : { leaseMs: seconds * 1000, heartbeatMs: seconds * 250 };
}
