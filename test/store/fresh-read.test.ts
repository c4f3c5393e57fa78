/**
 * Coalesced fresh reads (services/store/fresh-read.ts): many concurrent callers share few reads,
 * and a caller is never answered by a read that started before its call (so a change made before
 * the call is always in the answer).
 */
import { describe, expect, it } from "vitest";
import { FreshRead } from "../../services/store/index.js";

/** A value source whose reads resolve when the test says so; `value` is read when a read starts. */
function source() {
  let value = 0;
  const pending: (() => void)[] = [];
  let reads = 0;
  const read = async () => {
    reads++;
    const seen = value;
    await new Promise<void>((r) => pending.push(r));
    return seen;
  };
  return {
    read,
    set: (v: number) => (value = v),
    reads: () => reads,
    /** Lets the reads started so far finish. */
    finish: async () => {
      while (pending.length) pending.shift()!();
      await new Promise((r) => setImmediate(r));
    },
  };
}

describe("FreshRead", () => {
  it("answers 50 concurrent callers with two reads: the one running and one started after them", async () => {
    const s = source();
    const fresh = new FreshRead<string, number>(s.read);
    const first = fresh.get("a");
    await new Promise((r) => setImmediate(r));
    const rest = Array.from({ length: 50 }, () => fresh.get("a"));
    await s.finish();
    await s.finish();
    expect(await first).toBe(0);
    expect(await Promise.all(rest)).toEqual(rest.map(() => 0));
    expect(s.reads()).toBe(2);
  });

  it("never answers a caller with a read that started before its call", async () => {
    const s = source();
    const fresh = new FreshRead<string, number>(s.read);
    const before = fresh.get("a");
    await new Promise((r) => setImmediate(r));
    // A change committed while the first read runs, then a call: the call must see it.
    s.set(1);
    const after = fresh.get("a");
    await s.finish();
    await s.finish();
    expect(await before).toBe(0);
    expect(await after).toBe(1);
  });

  it("keeps keys apart, and after a failed read the next call reads again", async () => {
    let fail = true;
    const fresh = new FreshRead<string, string>(async (k) => {
      if (fail) throw new Error("down");
      return k;
    });
    await expect(fresh.get("a")).rejects.toThrow("down");
    fail = false;
    expect(await Promise.all([fresh.get("a"), fresh.get("b")])).toEqual(["a", "b"]);
  });

  it("spaces the reads of a key that follow each other by the interval given", async () => {
    const starts: number[] = [];
    const fresh = new FreshRead<string, number>(async () => starts.push(performance.now()), 40);
    for (let i = 0; i < 4; i++) await Promise.all([fresh.get("a"), fresh.get("a")]);
    expect(starts.length).toBeGreaterThanOrEqual(4);
    // Timers may fire a fraction of a millisecond early by performance.now(): spaced, not back to back.
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(35);
  });
});
