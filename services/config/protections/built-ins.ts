/**
 * The headers of a pull request body that the built-in merge protections read
 * (docs/merge-protections.md "Built-in protections"; https://docs.mergify.com/merge-protections/builtin/):
 * `Depends-On:` (conditions/depends-on.ts parses those) and `Merge-After: <timestamp>`, the
 * standard timestamp of the conditions language (ISO-8601; no zone = UTC, `Z`, `+02:00` or
 * `[Europe/Paris]`). The key is case-insensitive, HTML comments are ignored, and only the first
 * `Merge-After:` line counts.
 */
import { parseTimestamp } from "../conditions/datetime.js";
import { ValueError } from "../conditions/value-error.js";

/** A `Merge-After:` header: its text, and the instant it names or why it names none. */
export interface MergeAfter {
  text: string;
  /** The instant (UTC); null when the text is not a timestamp. */
  at: Date | null;
  /** Why the text is not a timestamp; null when it is. */
  error: string | null;
}

const MERGE_AFTER = /^[ \t]*Merge-After:[ \t]*(.*?)[ \t]*$/im;

/** The first `Merge-After:` header of `body`, or null when there is none (or it is empty). */
export function parseMergeAfter(body: string): MergeAfter | null {
  const m = MERGE_AFTER.exec(body.replace(/<!--[\s\S]*?-->/g, ""));
  if (m === null || m[1] === "") return null;
  const text = m[1]!;
  try {
    return { text, at: parseTimestamp(text), error: null };
  } catch (e) {
    if (e instanceof ValueError) return { text, at: null, error: e.message };
    throw e;
  }
}
