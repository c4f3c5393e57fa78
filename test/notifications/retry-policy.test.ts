/** When a delivery is retried and how long it waits (docs/notifications.md "Retries"). */
import { describe, expect, it } from "vitest";
import { describeFailure, MAX_ATTEMPTS, outcomeOf, retryDelayMs } from "../../services/notifications/index.js";

describe("what an answer means", () => {
  // biome-ignore format: a table, one row per line
  const cases: [number | null, number, string][] = [
    [200, 1, "delivered"], [204, 3, "delivered"],
    [500, 1, "retry"], [503, 11, "retry"], [408, 1, "retry"], [429, 1, "retry"], [null, 1, "retry"],
    [500, MAX_ATTEMPTS, "failed"], [null, MAX_ATTEMPTS, "failed"],
    [301, 1, "failed"], [400, 1, "failed"], [401, 1, "failed"], [404, 1, "failed"], [410, 1, "failed"],
  ];
  it.each(cases)("status %s at attempt %s: %s", (status, attempt, outcome) => {
    expect(outcomeOf(status, attempt)).toBe(outcome);
  });
});

describe("the backoff", () => {
  it("doubles from the base, capped at an hour, within ±20%", () => {
    const mid = () => 0.5;
    expect([1, 2, 3, 4].map((n) => retryDelayMs(n, 10_000, mid))).toEqual([10_000, 20_000, 40_000, 80_000]);
    expect(retryDelayMs(12, 10_000, mid)).toBe(3_600_000);
    expect(retryDelayMs(1, 10_000, () => 0)).toBe(8_000);
    expect(retryDelayMs(1, 10_000, () => 0.999999)).toBe(12_000);
    expect(retryDelayMs(60, 10_000, mid)).toBe(3_600_000);
  });

  it("gives up after about 3.4 hours with the default base", () => {
    let total = 0;
    for (let n = 1; n < MAX_ATTEMPTS; n++) total += retryDelayMs(n, 10_000, () => 0.5);
    expect(total / 3_600_000).toBeCloseTo(3.42, 1);
  });
});

describe("failures in words", () => {
  it("says a timeout, a refused connection, or the error's message", () => {
    expect(describeFailure(Object.assign(new Error("x"), { name: "TimeoutError" }), 10_000)).toBe(
      "timed out after 10 s",
    );
    expect(describeFailure(new TypeError("fetch failed", { cause: { code: "ECONNREFUSED" } }), 10_000)).toBe(
      "connection refused",
    );
    expect(describeFailure(new Error("something else"), 10_000)).toBe("something else");
  });
});
