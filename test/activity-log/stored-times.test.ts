/**
 * The relay's record of stored event times (services/activity-log/stored-times.ts), which decides
 * when a cached `/logs` page may answer: it never says "nothing there" for a range that may hold
 * an event, also after it forgot old times to stay bounded.
 */
import { describe, expect, it } from "vitest";
import { StoredTimes } from "../../services/activity-log/stored-times.js";

const rows = (repository: string, ...times: number[]) => times.map((receivedAtMs) => ({ repository, receivedAtMs }));

describe("StoredTimes", () => {
  it("knows which ranges hold a recorded event, per repository, and what was recorded since a batch", () => {
    const t = new StoredTimes();
    t.record(rows("a/x", 100, 200));
    const seq = t.sequence;
    t.record(rows("a/x", 150));
    t.record(rows("b/y", 300));
    expect(t.mayHold("a/x", null, 101, 200)).toBe(true);
    expect(t.mayHold("a/x", null, 151, 200)).toBe(false);
    expect(t.mayHold("a/x", null, 201, 1000)).toBe(false);
    expect(t.mayHold("b/y", null, 0, 300)).toBe(false);
    expect(t.storedSince("a/x", seq, 0, 150)).toBe(false);
    expect(t.storedSince("a/x", seq, 0, 151)).toBe(true);
    expect(t.storedSince("b/y", seq, 0, 1000)).toBe(true);
  });

  it("counts every event stored before it began as possibly anywhere up to the latest of them", () => {
    const t = new StoredTimes();
    expect(t.mayHold("a/x", 500, 400, 450)).toBe(true);
    expect(t.mayHold("a/x", 500, 501, 600)).toBe(false);
  });

  it("answers 'maybe' for what it forgot, however many events it saw", () => {
    const t = new StoredTimes();
    const first = t.sequence;
    for (let i = 0; i < 10_000; i++) t.record(rows("a/x", i * 2));
    expect(t.mayHold("a/x", null, 1, 2)).toBe(true);
    expect(t.storedSince("a/x", first, 1, 2)).toBe(true);
    expect(t.mayHold("a/x", null, 19_997, 19_998)).toBe(false);
  });
});
