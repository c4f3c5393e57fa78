/**
 * An inbox input the runner cannot apply (docs/merge-queue.md "Runner", "An input that cannot be
 * applied"): a round that fails while applying one input, for a reason that is not transient,
 * blames that input; once such failures in a row reach {@link SET_ASIDE_AFTER} (a number of tries
 * and a time since the first, so that a passing outage of a disk or a forge sets nothing aside)
 * the runner moves it to `queue_inbox_set_aside`, so the inputs behind it are applied instead of
 * waiting for good.
 */
import { isPoolBusy } from "../offload/index.js";
import { isDatabaseUnavailable } from "../outage/index.js";
import { isRetryable } from "./effect-journal.js";
import { LockLostError } from "./lock-session.js";

/**
 * When an input is set aside: after at least `failures` consecutive failed rounds blamed on it,
 * the first at least `ms` milliseconds ago (with the runner's backoff, 5 s doubling to 5 min, the
 * 8th try, about 10.5 min after the first).
 */
export const SET_ASIDE_AFTER = { failures: 5, ms: 10 * 60_000 } as const;

/**
 * PostgreSQL SQLSTATE classes that say nothing about the data beyond an outage: resources, server
 * shutdown, lock and serialization conflicts (connections lost or refused are outage/'s).
 */
const TRANSIENT_SQLSTATE_CLASSES = new Set(["08", "40", "53", "55", "57", "58"]);

/**
 * Whether an error would likely not happen again on a retry, whatever input was being applied: a
 * forge error worth retrying, a database that does not answer (outage/database-unavailable.ts), a
 * repository lock this runner lost (lock-session.ts), a lock or serialization conflict, worker
 * threads too busy to take a task (offload's "busy": docs/reliability.md "Tenants"). Such
 * failures blame no input.
 * @param e anything thrown
 */
export function isTransientFailure(e: unknown): boolean {
  if (isRetryable(e) || e instanceof LockLostError || isDatabaseUnavailable(e) || isPoolBusy(e)) return true;
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && TRANSIENT_SQLSTATE_CLASSES.has(code.slice(0, 2));
}

/**
 * How long a repository whose processing failed `count` times in a row waits before the next try,
 * ms (docs/merge-queue.md "Runner", items 7 and 9): the platform's retry time for a rate limit;
 * 2 s for another forge error worth retrying; 250 ms doubling to 2 s for a database outage, a
 * lost lock, a conflict or busy worker threads (so the queue goes on within 2 s of the database's
 * return, or of a thread's); otherwise `backoff.first` doubling to `backoff.max`.
 */
export function retryDelayMs(e: unknown, count: number, backoff: { first: number; max: number }): number {
  if (isRetryable(e)) return e.kind === "rate_limited" && e.retryAfterMs ? e.retryAfterMs : 2000;
  if (isTransientFailure(e)) return Math.min(2000, 250 * 2 ** Math.min(count - 1, 10));
  return Math.min(backoff.max, backoff.first * 2 ** Math.min(count - 1, 30));
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
    const next =
      previous?.inputId === inputId
        ? { inputId, count: previous.count + 1, firstAt: previous.firstAt }
        : { inputId, count: 1, firstAt: at };
    this.last.set(repository, next);
    return { count: next.count, sinceFirstMs: at - next.firstAt };
  }

  /** Forgets a repository's count (a round succeeded, or the input was set aside). */
  clear(repository: string): void {
    this.last.delete(repository);
  }
}
