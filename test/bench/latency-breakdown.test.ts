/**
 * The benchmark's latency classes (bench/queue/latency-breakdown.ts) on a real simulated run:
 * every merged pull request falls in exactly one class, the classes say what happened to it in
 * the log, and the slowest 5% are attributed in full.
 */
import { describe, expect, it } from "vitest";
import { LatencyTagger } from "../../bench/queue/latency-breakdown.js";
import { openLoop } from "../../bench/queue/runs.js";

describe("latency breakdown of a simulated queue", () => {
  const tagger = new LatencyTagger();
  const report = openLoop(
    { batchSize: { min: 2, max: 4 }, batchMaxWaitSeconds: 600, maxParallelChecks: 6 },
    8,
    600,
    3,
    tagger.observe,
  );
  const classes = tagger.breakdown(report);

  it("puts every merged pull request in one class, and the slowest 5% in full", () => {
    expect(classes.reduce((a, c) => a + c.merged, 0)).toBe(report.merged);
    expect(classes.reduce((a, c) => a + c.share, 0)).toBeCloseTo(1, 9);
    expect(classes.reduce((a, c) => a + c.shareOfSlowest, 0)).toBeCloseTo(1, 9);
  });

  it("separates clean merges from pull requests whose own batch failed, which wait longer", () => {
    const clean = classes.find((c) => c.name === "clean")!;
    const failed = classes.find((c) => c.name === "in a failed batch")!;
    expect(clean.share).toBeGreaterThan(0.5);
    expect(clean.meanMinutes).toBeGreaterThanOrEqual(30); // one 30-minute CI run at least
    expect(failed.meanMinutes).toBeGreaterThan(2 * 30); // the failed check, then bisection
    expect(classes.map((c) => c.name)).toContain("BATCH_AHEAD_FAILED");
  });
});
