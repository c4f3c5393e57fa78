/**
 * Where each step of a running replay stands (docs/replay.md "While it runs"), updated from what
 * the service shows: the forge's pull requests, the queue's status, the log's `action.queue.leave`
 * events. A pull request is **resolved** once merged, dequeued (left the queue without merging
 * and is not back in it), refused by the queue, or never opened; an outside change once pushed
 * or refused. `changed()` lets the steps that wait (outside changes) wake on every update.
 */

/** The state of one replayed pull request. */
export type PullState =
  | { kind: "pending" }
  | { kind: "opened"; number: number }
  | { kind: "queued"; number: number }
  | { kind: "merged"; number: number }
  | { kind: "dequeued"; number: number; code: string; reason: string }
  | { kind: "not_queued"; number: number; reason: string }
  | { kind: "not_opened"; reason: string };

/** The state of one outside change. */
export type PushState =
  | { kind: "pending" }
  | { kind: "waiting" }
  | { kind: "pushed"; sha: string }
  | { kind: "refused"; reason: string };

/** What the service showed at one poll. */
export interface Observation {
  /** Pull request numbers merged (the log, or the forge). */
  merged: ReadonlySet<number>;
  /** Numbers in the queue now (batches, sub-batches, waiting). */
  inQueue: ReadonlySet<number>;
  /** The last `action.queue.leave` of each pull request that left without merging. */
  left: ReadonlyMap<number, { code: string; reason: string }>;
  /** Pull requests the queue refused to take, with its reply. */
  refused: ReadonlyMap<number, string>;
}

const RESOLVED = new Set(["merged", "dequeued", "not_queued", "not_opened"]);

/** The replay's bookkeeping; orders are 1-based replay orders, pushes are indexed in plan order. */
export class ReplayTracker {
  readonly pulls = new Map<number, PullState>();
  readonly pushes: PushState[];
  private waiters: (() => void)[] = [];

  constructor(pullOrders: readonly number[], pushCount: number) {
    for (const order of pullOrders) this.pulls.set(order, { kind: "pending" });
    this.pushes = Array.from({ length: pushCount }, () => ({ kind: "pending" }) as PushState);
  }

  /** Records a step's own outcome (opened, refused, pushed...). */
  setPull(order: number, state: PullState): void {
    this.pulls.set(order, state);
    this.notify();
  }

  setPush(index: number, state: PushState): void {
    this.pushes[index] = state;
    this.notify();
  }

  /** Applies one poll's observation to the pull requests opened so far. */
  observe(seen: Observation): void {
    for (const [order, state] of this.pulls) {
      if (!("number" in state) || state.kind === "merged") continue;
      const n = state.number;
      if (seen.merged.has(n)) this.pulls.set(order, { kind: "merged", number: n });
      else if (seen.inQueue.has(n)) this.pulls.set(order, { kind: "queued", number: n });
      else if (seen.left.has(n)) this.pulls.set(order, { kind: "dequeued", number: n, ...seen.left.get(n)! });
      else if (seen.refused.has(n))
        this.pulls.set(order, { kind: "not_queued", number: n, reason: seen.refused.get(n)! });
    }
    this.notify();
  }

  /** Numbers of the pull requests opened whose state is not known yet (not seen in the queue). */
  unknownNumbers(): number[] {
    return [...this.pulls.values()].flatMap((s) => (s.kind === "opened" ? [s.number] : []));
  }

  /** True when the pull request of `order` is resolved. */
  isResolved(order: number): boolean {
    return RESOLVED.has(this.pulls.get(order)?.kind ?? "pending");
  }

  /** True when every pull request and outside change is resolved. */
  allResolved(): boolean {
    return (
      [...this.pulls.keys()].every((o) => this.isResolved(o)) &&
      this.pushes.every((p) => p.kind === "pushed" || p.kind === "refused")
    );
  }

  /** Counts for the progress bar. */
  counts(): { resolved: number; queued: number; merged: number; dequeued: number; pushed: number } {
    const states = [...this.pulls.values()];
    const count = (...kinds: string[]) => states.filter((s) => kinds.includes(s.kind)).length;
    const pushed = this.pushes.filter((p) => p.kind === "pushed" || p.kind === "refused").length;
    return {
      resolved: count("merged", "dequeued", "not_queued", "not_opened") + pushed,
      queued: count("queued", "opened"),
      merged: count("merged"),
      dequeued: count("dequeued", "not_queued", "not_opened"),
      pushed,
    };
  }

  /** Resolves at the next update. */
  changed(): Promise<void> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  private notify(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}
