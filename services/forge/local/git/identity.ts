/**
 * Who authors and commits what the local forge writes, and when. The committer is always
 * Yardmaster; dates are always given by the caller (time is injected, so a test or a replay
 * produces the same SHAs every run). Rules: docs/local-forge.md "Identity and dates".
 */
import { ForgeError } from "../../types.js";

/** A git identity: name and email (no `<`, `>` or line breaks). */
export interface GitIdentity {
  name: string;
  email: string;
}

/** An identity with a date as git stores it: seconds since the Unix epoch and a `+hhmm` offset. */
export interface DatedIdentity extends GitIdentity {
  /** Seconds since 1970-01-01T00:00:00Z. */
  timestamp: number;
  /** UTC offset as written by git, e.g. "+0000", "-0700". */
  offset: string;
}

/** Yardmaster's own identity: committer of every commit the local forge creates. */
export const YARDMASTER_IDENTITY: GitIdentity = Object.freeze({ name: "Yardmaster", email: "yardmaster@localhost" });

/**
 * Converts a `Date` to a dated identity in UTC (`+0000`), whole seconds (git has no subsecond dates).
 * @throws ForgeError invalid for an invalid Date or one before the epoch
 */
export function datedIdentity(identity: GitIdentity, date: Date): DatedIdentity {
  const ms = date.getTime();
  if (!Number.isFinite(ms) || ms < 0)
    throw new ForgeError("invalid", `commit date must be a valid date after 1970-01-01, got ${String(date)}`);
  validateIdentity(identity);
  return { ...identity, timestamp: Math.floor(ms / 1000), offset: "+0000" };
}

/**
 * The environment variables that make `git commit-tree` use these identities and dates.
 * @throws ForgeError invalid when a name or email holds `<`, `>` or a newline (git refuses them)
 */
export function identityEnvironment(author: DatedIdentity, committer: DatedIdentity): Record<string, string> {
  validateIdentity(author);
  validateIdentity(committer);
  return {
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_AUTHOR_DATE: `@${author.timestamp} ${author.offset}`,
    GIT_COMMITTER_NAME: committer.name,
    GIT_COMMITTER_EMAIL: committer.email,
    GIT_COMMITTER_DATE: `@${committer.timestamp} ${committer.offset}`,
  };
}

function validateIdentity(identity: GitIdentity): void {
  for (const [field, value] of [
    ["name", identity.name],
    ["email", identity.email],
  ] as const) {
    if (/[<>\n\0]/.test(value))
      throw new ForgeError("invalid", `identity ${field} "${value}" may not contain <, > or a line break`);
  }
  if (identity.name.trim() === "") throw new ForgeError("invalid", "identity name cannot be empty");
}
