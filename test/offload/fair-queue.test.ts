/**
 * The admission of a worker pool's tasks among its callers (services/offload/fair-queue.ts,
 * docs/reliability.md "Tenants"): a caller flooding a full pool is refused, never another caller,
 * whose task gets in and starts before the flooder's next; tasks start in turn across callers;
 * a task that waits too long is refused as unavailable with a retry time.
 */
import { describe, expect, it } from "vitest";
import { domainErrorToConnect } from "../../services/contracts/index.js";
import { FairQueue, type Release } from "../../services/offload/fair-queue.js";
import type { PoolBusyError } from "../../services/offload/pool-busy.js";

/** Admits a task of `caller`, noting when it starts; `refused` holds its refusal, if any. */
function task(queue: FairQueue, caller: string, started: string[]) {
  const t: { release?: Release; refused?: PoolBusyError } = {};
  const admitted = queue.admit(caller).then(
    (release) => {
      started.push(caller);
      t.release = release;
    },
    (e: PoolBusyError) => (t.refused = e),
  );
  return Object.assign(t, { admitted });
}

const settle = () => new Promise((r) => setImmediate(r));

describe("a full pool", () => {
  it("refuses the flooding caller, never the other, whose task starts next", async () => {
    const queue = new FairQueue({ slots: 1, capacity: 4, maxWaitMs: 60_000 });
    const started: string[] = [];
    const flood = Array.from({ length: 6 }, () => task(queue, "flooder", started));
    await settle();
    // One runs, three wait, two are refused: the pool holds four.
    expect(flood.filter((t) => t.refused).map((t) => t.refused!.errorKind)).toEqual([
      "resource_exhausted",
      "resource_exhausted",
    ]);
    const other = task(queue, "other", started);
    await settle();
    // Room is made for the other caller: the flooder's newest waiting task is refused instead.
    expect(other.refused).toBeUndefined();
    expect(flood[3].refused?.message).toMatch(/this caller's share/);
    expect(queue.size).toBe(4);
    // The running task ends: the other caller's starts before the flooder's next.
    flood[0].release!();
    await other.admitted;
    expect(started).toEqual(["flooder", "other"]);
  });

  it("answers 429 with Retry-After to the caller over its share", async () => {
    const queue = new FairQueue({ slots: 1, capacity: 2, maxWaitMs: 60_000 });
    const started: string[] = [];
    const flood = [task(queue, "a", started), task(queue, "a", started), task(queue, "a", started)];
    await settle();
    expect(queue.refusalFor("a")).not.toBeNull();
    expect(queue.refusalFor("b")).toBeNull();
    const refusal = domainErrorToConnect(flood[2].refused);
    expect(refusal?.code).toBe(8); // resource_exhausted: REST 429
    expect(refusal?.metadata.get("retry-after")).toBe("2");
  });

  it("does not evict for a caller that already holds as much as the others", async () => {
    const queue = new FairQueue({ slots: 1, capacity: 3, maxWaitMs: 60_000 });
    const started: string[] = [];
    for (const caller of ["a", "b", "c"]) task(queue, caller, started);
    const late = task(queue, "a", started);
    await settle();
    expect(late.refused?.errorKind).toBe("resource_exhausted");
  });
});

it("starts waiting tasks in turn across callers, each caller's in arrival order", async () => {
  const queue = new FairQueue({ slots: 1, capacity: 10, maxWaitMs: 60_000 });
  const started: string[] = [];
  const tasks = ["a", "a", "a", "a", "b", "c", "b"].map((c) => task(queue, c, started));
  await settle();
  // One at a time: the task that started last ends, and the next starts.
  for (let i = 0; i < tasks.length; i++) {
    expect(started).toHaveLength(i + 1);
    tasks.filter((t) => t.release !== undefined).forEach((t) => t.release!());
    await settle();
  }
  expect(started).toEqual(["a", "b", "c", "a", "b", "a", "a"]);
});

it("refuses a task that waited too long as unavailable, and frees its place", async () => {
  const queue = new FairQueue({ slots: 1, capacity: 3, maxWaitMs: 50 });
  const started: string[] = [];
  const running = task(queue, "a", started);
  const waiting = task(queue, "b", started);
  await waiting.admitted;
  expect(waiting.refused?.errorKind).toBe("unavailable");
  expect(waiting.refused?.retryAfterSeconds).toBeGreaterThan(0);
  expect(domainErrorToConnect(waiting.refused)?.code).toBe(14); // unavailable: REST 503
  expect(queue.size).toBe(1);
  running.release!();
  expect(queue.size).toBe(0);
});
