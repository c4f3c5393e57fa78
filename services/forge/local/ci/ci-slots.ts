/**
 * The CI slots: how many checks may run at once on this machine, shared by every run of the
 * local CI runner (one instance per process). Waiters are served first come, first served; a
 * waiter whose AbortSignal fires leaves the queue. docs/local-forge.md "CI runner".
 */

/** Thrown by {@link CiSlots.acquire} when its signal aborts before a slot is free. */
export class SlotWaitAborted extends Error {
  override readonly name = "AbortError";
}

/** A counting semaphore for CI processes. */
export class CiSlots {
  private used = 0;
  private readonly queue: { grant: (release: () => void) => void }[] = [];

  /** @param capacity number of checks that may run at once (a positive whole number) */
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`CI slots must be a positive whole number, got ${capacity}`);
  }

  /** Slots taken now. */
  get inUse(): number {
    return this.used;
  }

  /** Checks waiting for a slot now. */
  get waiting(): number {
    return this.queue.length;
  }

  /**
   * Waits for a free slot.
   * @returns a release function (idempotent) that frees the slot
   * @throws SlotWaitAborted when `signal` aborts first (no slot is taken)
   */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(new SlotWaitAborted("cancelled while waiting for a CI slot"));
    if (this.used < this.capacity) {
      this.used++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        grant: (release: () => void) => {
          signal?.removeEventListener("abort", onAbort);
          resolve(release);
        },
      };
      const onAbort = () => {
        const index = this.queue.indexOf(waiter);
        if (index >= 0) this.queue.splice(index, 1);
        reject(new SlotWaitAborted("cancelled while waiting for a CI slot"));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(waiter);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next === undefined) this.used--;
      else next.grant(this.releaser()); // the slot passes straight to the next waiter
    };
  }
}
