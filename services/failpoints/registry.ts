/**
 * Named failpoints (docs/reliability.md "Failpoints"): `await failpoint("name")` in code does
 * nothing unless the name is armed, by `YARDMASTER_FAILPOINTS` in a server process
 * ({@link armFailpointsFromEnvironment}) or by a test in its own process ({@link armFailpoint}).
 * Disarmed, a failpoint costs one size check of an empty map and returns `undefined` (nothing to
 * await). The style is FreeBSD fail(9) and TiKV fail-rs: the action, and how many hits it
 * applies to, are configuration, never code.
 */
import { writeSync } from "node:fs";
import { FailpointSpecError, parseActions, parseFailpointSpec, type FailpointTerm } from "./grammar.js";

/** What an armed failpoint throws for a `throw` action. */
export class FailpointError extends Error {
  override readonly name = "FailpointError";
  constructor(
    readonly failpoint: string,
    message: string,
  ) {
    super(`failpoint ${failpoint}: ${message}`);
  }
}

/** A test's own action: called at each hit (in-process tests only; fail-rs' cfg_callback). */
export type FailpointCallback = (name: string) => void | Promise<void>;

type Armed = { terms: FailpointTerm[]; used: number } | { callback: FailpointCallback };

/** The environment variable that arms failpoints in a server process. */
export const FAILPOINTS_VARIABLE = "YARDMASTER_FAILPOINTS";

const armed = new Map<string, Armed>();

/**
 * Arms `name` with actions in the grammar of docs/reliability.md (`kill`, `2*off->kill`,
 * `throw(boom)`, `sleep(200)`), or with a callback run at every hit; replaces what was armed.
 * @throws FailpointSpecError when the actions do not parse
 */
export function armFailpoint(name: string, action: string | FailpointCallback): void {
  armed.set(name, typeof action === "function" ? { callback: action } : { terms: parseActions(action), used: 0 });
}

/** Disarms one failpoint. */
export function disarmFailpoint(name: string): void {
  armed.delete(name);
}

/** Disarms every failpoint (tests: afterEach). */
export function disarmAll(): void {
  armed.clear();
}

/**
 * Arms the failpoints of `YARDMASTER_FAILPOINTS` (none when unset or blank).
 * @returns the names armed
 * @throws FailpointSpecError whose message names the variable and the entry that does not parse
 */
export function armFailpointsFromEnvironment(env: NodeJS.ProcessEnv = process.env): string[] {
  const text = env[FAILPOINTS_VARIABLE];
  if (text === undefined || text.trim() === "") return [];
  let spec: Map<string, FailpointTerm[]>;
  try {
    spec = parseFailpointSpec(text);
  } catch (e) {
    throw new FailpointSpecError(`${FAILPOINTS_VARIABLE}: ${(e as Error).message}`);
  }
  for (const [name, terms] of spec) armed.set(name, { terms, used: 0 });
  return [...spec.keys()];
}

/**
 * A failpoint: nothing unless `name` is armed; armed, its current term's action runs (kill, throw,
 * sleep, off, or the test's callback).
 * @returns undefined, or a promise for a sleep or an asynchronous callback
 * @throws FailpointError for a `throw` action
 */
export function failpoint(name: string): Promise<void> | undefined {
  if (armed.size === 0) return undefined;
  const entry = armed.get(name);
  if (entry === undefined) return undefined;
  if ("callback" in entry) return Promise.resolve(entry.callback(name));
  const action = currentAction(entry);
  if (action === null) return undefined;
  switch (action.kind) {
    case "off":
      return undefined;
    case "kill":
      // Synchronous, so the line is out before the process is gone (a test reads it).
      writeSync(2, `failpoint ${name}: kill\n`);
      process.kill(process.pid, "SIGKILL");
      return undefined;
    case "throw":
      throw new FailpointError(name, action.message);
    case "sleep":
      return new Promise((resolve) => setTimeout(resolve, action.ms));
  }
}

/** The action of this hit; moves past exhausted counted terms; null once every term is used up. */
function currentAction(entry: { terms: FailpointTerm[]; used: number }): FailpointTerm["action"] | null {
  let hit = entry.used++;
  for (const term of entry.terms) {
    if (term.count === null) return term.action;
    if (hit < term.count) return term.action;
    hit -= term.count;
  }
  return null;
}

export { FailpointSpecError };
