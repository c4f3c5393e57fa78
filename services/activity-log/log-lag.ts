/**
 * What a log read says about ClickHouse's availability and the log's lag (docs/activity-log.md
 * "The log's lag"; docs/reliability.md "ClickHouse outages and the log's lag"):
 * - the ClickHouse part of a read (`/logs`, `/logs/aggregate`) has a deadline of
 *   {@link LOG_READ_TIMEOUT_MS}; past it the read fails with DatabaseUnavailableError, which the
 *   gateway answers 503 `unavailable` with `Retry-After`, instead of waiting for the client
 *   library's 30 s request timeout;
 * - an answer carries {@link LOG_LAG_HEADER}: the age in whole seconds (rounded up) of the oldest
 *   event still waiting in the PostgreSQL outbox for the relay, when one waits; absent when the
 *   log is up to date. REST sends it as a response header, Connect and gRPC as response metadata.
 */
import type { HandlerContext } from "@connectrpc/connect";
import { DatabaseUnavailableError, isDatabaseUnavailable, withDeadline } from "../outage/index.js";

/** The deadline of the ClickHouse part of one log read, ms. */
export const LOG_READ_TIMEOUT_MS = 5000;

/** The response header of a log read whose events are still on their way: seconds of lag. */
export const LOG_LAG_HEADER = "x-yardmaster-log-lag";

/** What a log read needs for its deadline and its lag header. */
export interface LogLagDeps {
  /** Deadline of the ClickHouse query, ms (default {@link LOG_READ_TIMEOUT_MS}). */
  readTimeoutMs?: number;
  /** The age of the oldest event waiting in the outbox, seconds (0 when none): the lag. */
  lagSeconds?: () => Promise<number>;
}

/**
 * Runs the ClickHouse part of a log read under its deadline. A failure that says a database does
 * not answer (a refused connection says nothing of whose) is named as ClickHouse's.
 * @throws DatabaseUnavailableError ("ClickHouse") past the deadline or when ClickHouse does not
 *   answer; the query's other errors as they are
 */
export async function readWithDeadline<T>(deps: LogLagDeps, read: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await withDeadline("ClickHouse", deps.readTimeoutMs ?? LOG_READ_TIMEOUT_MS, read);
  } catch (e) {
    if (e instanceof DatabaseUnavailableError || !isDatabaseUnavailable(e)) throw e;
    throw new DatabaseUnavailableError("ClickHouse", "ClickHouse does not answer", { cause: e });
  }
}

/**
 * Sets {@link LOG_LAG_HEADER} on the answer when events wait in the outbox.
 * @throws the database's error when the outbox cannot be read
 */
export async function setLagHeader(
  deps: LogLagDeps,
  ctx: Pick<HandlerContext, "responseHeader"> | undefined,
): Promise<void> {
  if (!deps.lagSeconds || !ctx) return;
  const seconds = await deps.lagSeconds();
  if (seconds > 0) ctx.responseHeader.set(LOG_LAG_HEADER, String(Math.ceil(seconds)));
}
