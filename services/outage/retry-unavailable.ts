/**
 * Work retried while a database is away (docs/reliability.md "Database outages"): a write that
 * failed because PostgreSQL does not answer ({@link isDatabaseUnavailable}) is tried again with
 * exponential backoff (250 ms doubling to 2 s, p-retry) until it succeeds or `maxRetryTimeMs` has
 * passed; any other error fails at once. Used where the work would otherwise be lost until a
 * lease or a timer runs out (the local CI worker's check run writes, the local forge's event
 * deliveries).
 */
import pRetry from "p-retry";
import { isDatabaseUnavailable } from "./database-unavailable.js";

/** Longest wait between two tries, ms: a database that returns is used within this. */
export const RETRY_MAX_DELAY_MS = 2000;

/**
 * Runs `fn` (given the try's number, from 1), retrying it while it fails with a
 * database-unavailable error.
 * @param opts.maxRetryTimeMs how long to keep trying, ms (default 5 min)
 * @param opts.onRetry called after each failed try with the error and the try's number (for logs)
 * @param opts.signal stops the retries (the last error is thrown)
 * @throws the last error once retries are exhausted, or the first error that is not an outage
 */
export function retryWhileUnavailable<T>(
  fn: (attempt: number) => Promise<T>,
  opts: { maxRetryTimeMs?: number; onRetry?: (error: Error, attempt: number) => void; signal?: AbortSignal } = {},
): Promise<T> {
  return pRetry(fn, {
    retries: Number.POSITIVE_INFINITY,
    minTimeout: 250,
    factor: 2,
    maxTimeout: RETRY_MAX_DELAY_MS,
    maxRetryTime: opts.maxRetryTimeMs ?? 300_000,
    signal: opts.signal,
    unref: true,
    shouldRetry: ({ error }) => isDatabaseUnavailable(error),
    onFailedAttempt: ({ error, attemptNumber }) => {
      if (isDatabaseUnavailable(error)) opts.onRetry?.(error, attemptNumber);
    },
  });
}
