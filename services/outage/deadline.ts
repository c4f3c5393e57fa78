/**
 * A bounded wait on a database: a read that gets no answer within its deadline fails with
 * {@link DatabaseUnavailableError} (and is aborted through its signal), so a frozen ClickHouse or
 * PostgreSQL never holds a request or a readiness probe for the client library's own 30 s
 * timeout (docs/reliability.md "ClickHouse outages and the log's lag").
 */
import { DatabaseUnavailableError, type DatabaseName } from "./database-unavailable.js";

/**
 * Runs `fn` with an AbortSignal that fires after `ms` milliseconds; rejects with
 * DatabaseUnavailableError naming `database` at that moment, whether or not `fn` heeds the signal
 * (its later outcome is ignored).
 * @throws DatabaseUnavailableError after `ms`; whatever `fn` throws before
 */
export async function withDeadline<T>(
  database: DatabaseName,
  ms: number,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new DatabaseUnavailableError(database, `${database} did not answer within ${ms} ms`);
      // Rejected before the abort: work that settles on abort must not win the race.
      reject(error);
      controller.abort(error);
    }, ms);
  });
  const work = fn(controller.signal);
  // After the deadline the work's own failure (the abort) is nobody's business.
  work.catch(() => {});
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
