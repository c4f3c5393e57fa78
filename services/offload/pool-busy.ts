/**
 * A worker pool's "busy" answer (fair-queue.ts): the task did not run, and trying again later is
 * the remedy. A refusal in the error model's words (contracts/domain-error.ts, `errorKind`):
 * `resource_exhausted` (429) for a caller over its share of a full pool, `unavailable` (503) for a
 * task that waited too long for a thread; both with `Retry-After` (docs/errors.md). The runner
 * retries such an answer within seconds, as it does a database outage (docs/reliability.md "Tenants").
 */
export class PoolBusyError extends Error {
  override readonly name = "PoolBusyError";
  /**
   * @param errorKind resource_exhausted (over its share) or unavailable (waited too long)
   * @param message one sentence for the caller
   * @param retryAfterSeconds when to try again, seconds (the `Retry-After` header)
   */
  constructor(
    readonly errorKind: "resource_exhausted" | "unavailable",
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(message);
  }
}

/** Whether `e` is a pool's busy answer (a thread boundary keeps the class: it never crosses one). */
export function isPoolBusy(e: unknown): e is PoolBusyError {
  return e instanceof PoolBusyError;
}
