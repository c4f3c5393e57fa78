/**
 * Admission to a worker pool's threads, shared fairly among its callers (docs/reliability.md
 * "Tenants"): a caller is whatever the pool's user names (an API credential, a repository).
 *
 * - At most `slots` tasks run at once (the pool's threads) and `capacity` are in the pool,
 *   running and waiting.
 * - Waiting tasks start in turn across callers, the one served least recently first (round
 *   robin), each caller's own in arrival order: a caller with one task waits behind at most one
 *   task of each other caller, however many the others sent.
 * - A full pool makes room for a caller below its share: the newest waiting task of the caller
 *   holding the most is refused instead, when that caller holds at least two more than the
 *   newcomer (after the exchange it holds at least as many). So the caller over its share is
 *   answered "busy", never another one. Max-min fairness,
 *   as a network link shares its bandwidth among flows
 *   (https://en.wikipedia.org/wiki/Max-min_fairness).
 * - A task that waited `maxWaitMs` without starting is refused as unavailable: no request waits
 *   without bound behind the others, even when every thread is stuck at its time limit.
 */
import { PoolBusyError } from "./pool-busy.js";

/** Bounds of a {@link FairQueue}. */
export interface FairQueueOptions {
  /** Tasks running at once. */
  slots: number;
  /** Tasks running and waiting at most. */
  capacity: number;
  /** How long a task may wait before it starts, milliseconds. */
  maxWaitMs: number;
}

interface Waiting {
  start: () => void;
  refuse: (e: PoolBusyError) => void;
  timer: NodeJS.Timeout;
}

/** Frees the slot a task held (call once, when the task is over). */
export type Release = () => void;

/** Seconds a caller over its share is told to wait (`Retry-After`): one task of another caller's. */
const OVER_SHARE_RETRY_SECONDS = 2;

/** The admission of one pool (see the module comment). */
export class FairQueue {
  private running = 0;
  /** Tasks per caller, running and waiting. */
  private readonly held = new Map<string, number>();
  /** Waiting tasks per caller, oldest first. */
  private readonly waiting = new Map<string, Waiting[]>();
  private waitingCount = 0;
  /** When each caller with tasks in the pool last had one started (a counter of starts). */
  private readonly lastStart = new Map<string, number>();
  private starts = 0;

  constructor(readonly options: FairQueueOptions) {}

  /** Tasks running and waiting. */
  get size(): number {
    return this.running + this.waitingCount;
  }

  /** Tasks of `caller` in the pool, running and waiting. */
  heldBy(caller: string): number {
    return this.held.get(caller) ?? 0;
  }

  /** The refusal a task of `caller` would get now, or null when it would be admitted. */
  refusalFor(caller: string): PoolBusyError | null {
    if (this.size < this.options.capacity || this.evictable(caller) !== null) return null;
    return this.fullFor(caller);
  }

  /**
   * Waits until a task of `caller` may run.
   * @returns the function that frees its slot once it is over
   * @throws PoolBusyError resource_exhausted when the pool is full and `caller` holds its share;
   *   unavailable when it waited `maxWaitMs`
   */
  admit(caller: string): Promise<Release> {
    if (this.size >= this.options.capacity) {
      const victim = this.evictable(caller);
      if (victim === null) return Promise.reject(this.fullFor(caller));
      this.drop(victim, this.waiting.get(victim)!.at(-1)!, overShare());
    }
    this.held.set(caller, this.heldBy(caller) + 1);
    if (this.running < this.options.slots && this.waitingCount === 0) {
      this.running++;
      this.lastStart.set(caller, ++this.starts);
      return Promise.resolve(this.releaser(caller));
    }
    return new Promise<Release>((resolve, reject) => {
      const entry: Waiting = {
        start: () => resolve(this.releaser(caller)),
        refuse: reject,
        timer: setTimeout(
          () => this.drop(caller, entry, waitedTooLong(this.options.maxWaitMs)),
          this.options.maxWaitMs,
        ),
      };
      entry.timer.unref?.();
      const own = this.waiting.get(caller);
      if (own) own.push(entry);
      else this.waiting.set(caller, [entry]);
      this.waitingCount++;
    });
  }

  /** The caller whose waiting task to refuse so that `caller` gets in: the one holding most, if at least two more than `caller`. */
  private evictable(caller: string): string | null {
    let best: string | null = null;
    for (const other of this.waiting.keys()) if (best === null || this.heldBy(other) > this.heldBy(best)) best = other;
    if (best === null || best === caller || this.heldBy(best) <= this.heldBy(caller) + 1) return null;
    return best;
  }

  private fullFor(caller: string): PoolBusyError {
    const own = this.heldBy(caller);
    if (own > 0 && own * this.callers() >= this.options.capacity) return overShare();
    return new PoolBusyError(
      "resource_exhausted",
      "the server is busy with other large requests: retry in a few seconds",
      OVER_SHARE_RETRY_SECONDS,
    );
  }

  /** Callers with tasks in the pool. */
  private callers(): number {
    return this.held.size;
  }

  /** Removes a waiting task and refuses it. */
  private drop(caller: string, entry: Waiting, error: PoolBusyError): void {
    const own = this.waiting.get(caller);
    const i = own?.indexOf(entry) ?? -1;
    if (!own || i < 0) return;
    own.splice(i, 1);
    if (own.length === 0) this.waiting.delete(caller);
    this.waitingCount--;
    clearTimeout(entry.timer);
    this.forget(caller);
    entry.refuse(error);
  }

  private forget(caller: string): void {
    const n = this.heldBy(caller) - 1;
    if (n > 0) this.held.set(caller, n);
    else {
      this.held.delete(caller);
      this.lastStart.delete(caller);
    }
  }

  private releaser(caller: string): Release {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.running--;
      this.forget(caller);
      this.next();
    };
  }

  /** Starts waiting tasks while slots are free, the caller served least recently first. */
  private next(): void {
    while (this.running < this.options.slots && this.waitingCount > 0) {
      let caller: string | null = null;
      for (const c of this.waiting.keys())
        if (caller === null || (this.lastStart.get(c) ?? 0) < (this.lastStart.get(caller) ?? 0)) caller = c;
      const own = this.waiting.get(caller!)!;
      const entry = own.shift()!;
      if (own.length === 0) this.waiting.delete(caller!);
      this.waitingCount--;
      clearTimeout(entry.timer);
      this.running++;
      this.lastStart.set(caller!, ++this.starts);
      entry.start();
    }
  }
}

function overShare(): PoolBusyError {
  return new PoolBusyError(
    "resource_exhausted",
    "this caller's share of the server's workers is in use: wait for its requests before sending more",
    OVER_SHARE_RETRY_SECONDS,
  );
}

function waitedTooLong(ms: number): PoolBusyError {
  return new PoolBusyError(
    "unavailable",
    `no worker thread was free within ${ms / 1000} s: retry shortly`,
    Math.max(1, Math.ceil(ms / 10_000)),
  );
}
