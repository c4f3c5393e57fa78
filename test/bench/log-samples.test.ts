/**
 * The log benchmark's latencies (bench/log/percentiles.ts, docs/activity-log.md "Benchmark"): each
 * p95 comes from at least 200 timed runs after the warm-ups, the nearest-rank 95th percentile of them.
 */
import { describe, expect, it } from "vitest";
import { MIN_SAMPLES, measure, percentile } from "../../bench/log/percentiles.js";

describe("the log benchmark's samples", () => {
  it("times 200 runs after 3 warm-ups by default, each with its own run index", async () => {
    const calls: number[] = [];
    const l = await measure(async (i) => {
      calls.push(i);
    });
    expect(MIN_SAMPLES).toBe(200);
    expect(l.runs).toBe(200);
    expect(calls.slice(0, 3)).toEqual([-1, -2, -3]);
    expect(calls.slice(3)).toEqual(Array.from({ length: 200 }, (_, i) => i));
  });

  it("takes p95 of 200 samples as the 190th smallest: the 10 slowest are above it", () => {
    const samples = Array.from({ length: 200 }, (_, i) => i + 1);
    expect(percentile(samples, 95)).toBe(190);
    expect(percentile(samples, 50)).toBe(100);
  });
});
