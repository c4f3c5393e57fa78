/**
 * The bounds of the work one configuration text may cost (docs/configuration.md "Limits"), so that
 * no text, however written, holds a process for long or fills its memory. Each is far above what
 * real files use: of the 202 real files in test/fixtures/config/real-configs the largest has 561
 * YAML nodes, the deepest nests 12 levels and the most aliases are 39.
 */
import type { ConfigError } from "../model.js";

/**
 * The largest configuration text read, in bytes of UTF-8: 1 MiB, the simulators' request limit
 * too. Checked before anything is parsed; bytes rather than characters, so that a text of
 * multi-byte characters is bounded like any other.
 */
export const MAX_CONFIGURATION_BYTES = 1_048_576;

/** Most YAML nodes (keys, values, list items, mappings and lists) in a text. */
export const MAX_NODES = 50_000;

/** Deepest nesting of mappings and lists (a top-level mapping is level 1). */
export const MAX_DEPTH = 64;

/** Most aliases (`*name`) written in a text. */
export const MAX_ALIASES = 1_000;

/** Most nodes the aliases may expand to (aliases of aliases multiply: "billion laughs"). */
export const MAX_ALIAS_EXPANSION = 10_000;

/** Errors listed for one text; the others are counted in one last error. */
export const MAX_REPORTED_ERRORS = 100;

/** Deprecations listed for one text (of the real files, the most has 33). */
export const MAX_REPORTED_DEPRECATIONS = 1_000;

/** UTF-8 length of a text, in bytes. */
export function byteLength(text: string): number {
  return Buffer.byteLength(text, "utf8");
}

/** The error of a text over {@link MAX_CONFIGURATION_BYTES}. */
export function tooLarge(bytes: number): ConfigError {
  return {
    path: [],
    line: null,
    column: null,
    message: `the file is ${bytes} bytes long; a configuration is at most ${MAX_CONFIGURATION_BYTES} bytes (1 MiB)`,
  };
}

/**
 * At most {@link MAX_REPORTED_ERRORS} errors, in the order given, then one error without a
 * position counting the rest: `and 209575 more errors (the first 100 are listed)`.
 */
export function capErrors(errors: ConfigError[]): ConfigError[] {
  if (errors.length <= MAX_REPORTED_ERRORS) return errors;
  const rest = errors.length - MAX_REPORTED_ERRORS;
  const summary = `and ${rest} more error${rest === 1 ? "" : "s"} (the first ${MAX_REPORTED_ERRORS} are listed)`;
  return [...errors.slice(0, MAX_REPORTED_ERRORS), { path: [], line: null, column: null, message: summary }];
}
