/**
 * A wake-up signal for a watcher's loop (docs/api.md "Streams"): `notify()` from a change
 * notification, `wait()` in the loop. A notification that arrives while the loop is busy is kept,
 * so the next `wait()` returns at once: a change is never slept through.
 */
export class Wakeup {
  private pending = false;
  private resolve: (() => void) | undefined;

  /** Wakes the current or the next {@link wait}. */
  notify(): void {
    this.pending = true;
    this.resolve?.();
  }

  /**
   * Resolves at the first of: a notification (since the last wait returned), `timeoutMs` elapsed,
   * `signal` aborted.
   * @returns true when notified, false on timeout or abort
   */
  async wait(timeoutMs: number, signal: AbortSignal): Promise<boolean> {
    if (!this.pending && !signal.aborted) {
      let timer: NodeJS.Timeout | undefined;
      const done = () => this.resolve?.();
      await new Promise<void>((resolve) => {
        this.resolve = resolve;
        timer = setTimeout(resolve, timeoutMs);
        signal.addEventListener("abort", done, { once: true });
      });
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      this.resolve = undefined;
    }
    const notified = this.pending;
    this.pending = false;
    return notified;
  }
}

/** Resolves after `ms` milliseconds, or at once when `signal` is aborted. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  if (ms <= 0 || signal.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done, { once: true });
  });
}
