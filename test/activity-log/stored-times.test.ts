/**
 * The relay's record of stored event times (services/activity-log/stored-times.ts), which decides
 * when a cached `/logs` page may answer: it never says "nothing there" for a range that may hold
 * an event, also after it forgot old times to stay bounded.
 */
import { describe, expect, it } from "vitest";
import type { LogFilters } from "../../services/activity-log/log-filters.js";
import { kindMatch, kindOf, type KindFields } from "../../services/activity-log/stored-kinds.js";
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

  it("answers for the events a filter selects only, and 'maybe' for the unknown and the forgotten", () => {
    const fields = (over: Partial<KindFields>): KindFields => ({
      type: "action.label",
      pullRequest: "1",
      baseRef: "main",
      outcome: "success",
      trigger: "test",
      batchPull: null,
      ...over,
    });
    const t = new StoredTimes();
    const seq = t.sequence;
    t.record([
      { repository: "a/x", receivedAtMs: 100, fields: fields({ type: "action.comment", pullRequest: "3" }) },
      { repository: "a/x", receivedAtMs: 100, fields: fields({ pullRequest: "2" }) },
      { repository: "a/x", receivedAtMs: 300, fields: fields({ baseRef: "x\uDC00" }) },
    ]);
    const labels = kindMatch({ repository: "a/x", eventType: { mode: "include", values: ["action.label"] } });
    const pr1 = kindMatch({ repository: "a/x", pullRequest: { mode: "include", values: [1n] } });
    expect(t.storedSince("a/x", seq, 0, 200, labels)).toBe(true);
    expect(t.storedSince("a/x", seq, 0, 200, pr1)).toBe(false);
    expect(t.mayHold("a/x", null, 0, 200, pr1)).toBe(false);
    // A base ref ClickHouse may store otherwise: no kind, selected by every filter.
    expect(t.mayHold("a/x", null, 200, 400, pr1)).toBe(true);
    for (let i = 0; i < 10_000; i++)
      t.record([{ repository: "a/x", receivedAtMs: 1000 + i, fields: fields({ pullRequest: "2" }) }]);
    expect(t.storedSince("a/x", seq + 1, 5000, 5001, pr1)).toBe(true);
    expect(t.mayHold("a/x", null, 1000, 1001, pr1)).toBe(true);
    expect(t.mayHold("a/x", null, 10_000, 10_999, pr1)).toBe(false);
  });

  it("selects kinds as the SQL of the filters does: none is -1 or '', excluded sets keep it", () => {
    const none = kindOf({
      type: "action.label",
      pullRequest: null,
      baseRef: null,
      outcome: "failure",
      trigger: "t",
      batchPull: null,
    })!;
    const match = (f: Omit<LogFilters, "repository">) => kindMatch({ repository: "a/x", ...f })(none);
    expect(match({})).toBe(true);
    expect(match({ pullRequest: { mode: "include", values: [1n] } })).toBe(false);
    expect(match({ pullRequest: { mode: "exclude", values: [1n] } })).toBe(true);
    expect(match({ batchPull: { mode: "exclude", values: [0n] } })).toBe(true);
    expect(match({ baseRef: "main" })).toBe(false);
    expect(
      match({ outcome: { mode: "include", values: ["failure"] }, trigger: { mode: "include", values: ["t"] } }),
    ).toBe(true);
    expect(match({ outcome: { mode: "exclude", values: ["failure"] } })).toBe(false);
    expect(match({ eventType: { mode: "exclude", values: ["action.label"] } })).toBe(false);
    // A filter text ClickHouse may read otherwise selects every kind.
    expect(match({ baseRef: "\uD800" })).toBe(true);
    expect(
      kindOf({
        type: "action.label",
        pullRequest: "1e3",
        baseRef: null,
        outcome: "success",
        trigger: "t",
        batchPull: null,
      }),
    ).toBeNull();
  });
});
