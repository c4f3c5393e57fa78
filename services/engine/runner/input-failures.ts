/**
 * An inbox input the runner cannot apply (docs/merge-queue.md "Runner", "An input that cannot be
 * applied"): a round that fails while applying one input, for a reason that is not transient,
 * blames that input; once such failures in a row reach {@link SET_ASIDE_AFTER} (a number of tries
 * and a time since the first, so that a passing outage of a disk or a forge sets nothing aside)
 * the runner moves it to `queue_inbox_set_aside`, so the inputs behind it are applied instead of
 * waiting for good.
 */
import { isRetryable } from "./effect-executor.js";

/**
 * When an input is set aside: after at least `failures` consecutive failed rounds blamed on it,
 * the first at least `ms` milliseconds ago (with the runner's backoff, 5 s doubling to 5 min, the
 * 8th try, about 10.5 min after the first).
 */
export const SET_ASIDE_AFTER = { failures: 5, ms: 10 * 60_000 } as const;

/** PostgreSQL SQLSTATE classes that say nothing about the data: connection, resources, server shutdown, lock conflicts. */
const TRANSIENT_SQLSTATE_CLASSES = new Set(["08", "40", "53", "55", "57", "58"]);
/** Node socket errors (and pg's own connection messages) of a database or forge that went away. */
const TRANSIENT_SYSTEM_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EPIPE", "EHOSTUNREACH", "ENOTFOUND", "EAI_AGAIN"]);
const TRANSIENT_MESSAGES = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i;

/**
 * Whether an error would likely not happen again on a retry, whatever input was being applied: a
 * forge error worth retrying, a lost or refused database connection, a lock or serialization
 * conflict. Such failures blame no input.
 * @param e anything thrown
 */
export function isTransientFailure(e: unknown): boolean {
  if (isRetryable(e)) return true;
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === "string") {
    if (/^[0-9A-Z]{5}$/.test(code) && TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2))) return true;
    if (TRANSIENT_SYSTEM_CODES.has(code)) return true;
  }
  return e instanceof Error && TRANSIENT_MESSAGES.test(e.message);
}

/**
 * Consecutive failures blamed on one input, per repository (in this process; a restart counts
 * again from zero). A failure blamed on another input, or on none, starts the count again.
 */
export class InputFailureCount {
  private readonly last = new Map<string, { inputId: string; count: number; firstAt: number }>();

  /**
   * Records a failed round of `repository`.
   * @param inputId the inbox id (decimal string) being applied when it failed, or null when the failure blames no input
   * @param at when it failed, epoch ms
   * @returns the consecutive failures blamed on that input and how long since the first, ms (0, 0 when none is blamed)
   */
  record(repository: string, inputId: string | null, at: number): { count: number; sinceFirstMs: number } {
    if (inputId === null) {
      this.last.delete(repository);
      return { count: 0, sinceFirstMs: 0 };
    }
    const previous = this.last.get(repository);
    const next = previous?.inputId === inputId ? { inputId, count: previous.count + 1, firstAt: previous.firstAt } : { inputId, count: 1, firstAt: at };
    this.last.set(repository, next);
    return { count: next.count, sinceFirstMs: at - next.firstAt };
  }

  /** Forgets a repository's count (a round succeeded, or the input was set aside). */
  clear(repository: string): void {
    this.last.delete(repository);
  }
}
