/**
 * The errors of the local forge's git layer. Everything it throws is a {@link ForgeError}
 * (services/forge/types.ts); git's own failure (command, exit code, stderr) is kept in `cause`.
 * Kinds: not_found (missing repository, ref, commit), conflict (merge conflict, moved ref),
 * invalid (bad input git refuses), transient (anything else git reports: I/O, locks).
 */
import { ForgeError } from "../../types.js";
import { GitCommandError } from "./git-command.js";

/**
 * A merge that does not apply. `paths` names the conflicting files (empty when git could not
 * name any, e.g. unrelated histories); `pullRequest` names the pull request whose head did not
 * merge, when the operation was about pull requests.
 */
export class MergeConflictError extends ForgeError {
  constructor(
    message: string,
    /** Conflicting file paths, sorted, each once. */
    readonly paths: readonly string[],
    /** Number of the pull request that did not merge; null when not about a pull request. */
    readonly pullRequest: number | null,
    options?: { cause?: unknown },
  ) {
    super("conflict", message, undefined, options);
  }
}

/** True when `e` is a {@link MergeConflictError}. */
export function isMergeConflict(e: unknown): e is MergeConflictError {
  return e instanceof MergeConflictError;
}

/**
 * Wraps an unexpected git failure as a ForgeError of kind `transient` (git failed for a reason
 * the caller did not cause: I/O, a lock held by another process). ForgeErrors pass unchanged.
 * @param what a sentence naming the operation, e.g. "reading branch main"
 */
export function gitFailure(what: string, error: unknown): ForgeError {
  if (error instanceof ForgeError) return error;
  const detail = error instanceof GitCommandError ? `: ${firstLine(error.stderr)}` : "";
  return new ForgeError("transient", `git failed while ${what}${detail}`, undefined, { cause: error });
}

/** Runs `op` and converts any non-ForgeError failure with {@link gitFailure}. */
export async function withGitFailure<T>(what: string, op: () => Promise<T>): Promise<T> {
  try {
    return await op();
  } catch (error) {
    throw gitFailure(what, error);
  }
}

function firstLine(text: string): string {
  const line = text.split("\n").find((l) => l.trim() !== "") ?? "";
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}
