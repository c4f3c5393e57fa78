/**
 * The queue benchmark chooses on some seeds and judges on others (docs/benchmarks.md "Rules and
 * targets"): a configuration is picked per target from the choosing seeds' figures only, and the
 * target's PASS or FAIL comes from that configuration's figures on the held-out seeds. Scripted
 * figures worked out by hand.
 */
import { describe, expect, it } from "vitest";
import {
  closeness,
  heldOutNames,
  heldOutVerdict,
  pickForTarget,
  referencePicks,
  splitSeeds,
  stableAndTested,
} from "../../bench/queue/held-out.js";
import type { PointFigures } from "../../bench/queue/summary.js";
import { defaultVerdict, type Target } from "../../bench/queue/verdicts.js";

const T: Target = { lambda: 8, p95: 60, runs: 0.8 };

function figures(p95Minutes: number, runsPerMerge: number, over: Partial<PointFigures> = {}): PointFigures {
  return {
    seeds: 3,
    merged: 1000,
    meanMinutes: p95Minutes / 2,
    p95Minutes,
    runsPerMerge,
    ciDPerMerge: runsPerMerge * 0.9,
    mergesPerHour: 7.6,
    unstable: false,
    goodDequeued: 0,
    untestedMerges: 0,
    ...over,
  };
}

/** The choosing stage: A meets the target narrowly, B with margin, C is cheap and slow, D fast and dear, E unstable. */
const choosing = [
  { name: "A", figures: figures(59, 0.79) },
  { name: "B", figures: figures(54, 0.76) },
  { name: "C", figures: figures(90, 0.6) },
  { name: "D", figures: figures(50, 0.95) },
  { name: "E", figures: figures(20, 0.3, { unstable: true }) },
];

describe("choosing on seeds 1-3, judging on held-out seeds 4-6", () => {
  it("splits the seeds: the held-out ones follow the choosing ones", () => {
    expect(splitSeeds(1, 3, 1500, 20000)).toEqual({
      choosing: [1, 2, 3],
      heldOut: [4, 5, 6],
      choosingPullRequests: 1500,
      heldOutPullRequests: 20000,
    });
  });

  it("measures how close a point is by its worse axis, and rules out what cannot pass", () => {
    expect(closeness(figures(66, 0.72), T)).toBeCloseTo(1.1, 10);
    expect(closeness(figures(48, 0.88), T)).toBeCloseTo(1.1, 10);
    expect(closeness(figures(20, 0.3, { unstable: true }), T)).toBe(Number.POSITIVE_INFINITY);
    expect(closeness(figures(50, 0.7, { goodDequeued: 1 }), T)).toBe(Number.POSITIVE_INFINITY);
    // The tests workload counts good pull requests sent back in a target of its own.
    expect(closeness(figures(50, 0.7, { goodDequeued: 1 }), T, stableAndTested)).toBeCloseTo(0.875, 10);
  });

  it("picks the configuration with the most margin on the choosing seeds, never an unstable one", () => {
    expect(pickForTarget(T, choosing)?.name).toBe("B");
    // None meets it: the nearest (C: runs ×0.75, p95 ×1.5; D: ×1.19 on runs).
    expect(
      pickForTarget(
        T,
        choosing.filter((m) => m.name !== "A" && m.name !== "B"),
      )?.name,
    ).toBe("D");
    expect(pickForTarget(T, [choosing[4]!])).toBeNull();
  });

  it("fails a target whose pick met it only on the seeds it was chosen on, even when another configuration meets it held out", () => {
    const pick = pickForTarget(T, choosing)!;
    const heldOutB = figures(63.5, 0.776);
    const v = heldOutVerdict(T, "λ=8/h", pick.name, pick.figures, heldOutB);
    expect(v.ok).toBe(false);
    expect(v.line).toMatch(
      /^FAIL {2}λ=8\/h: B, held out p95 63\.5 min at 0\.776 runs \(p95 ×1\.06 of its bound, runs ×0\.97; chosen at p95 54\.0, 0\.760 runs\)$/,
    );
    expect(heldOutVerdict(T, "λ=8/h", pick.name, pick.figures, figures(58, 0.77)).ok).toBe(true);
    expect(heldOutVerdict(T, "λ=8/h", null, null, null).line).toMatch(/^FAIL/);
  });

  it("measures on the held-out seeds the pick and the configurations the default is compared with, once each", () => {
    expect(referencePicks(T, choosing)).toEqual({ lowestP95: choosing[1], fewestRuns: choosing[1] });
    expect(heldOutNames(T, choosing)).toEqual(["B"]);
    // Nothing within the runs bound: the cheapest; nothing within the p95 bound: the fastest.
    const hard: Target = { lambda: 16, p95: 40, runs: 0.5 };
    expect(referencePicks(hard, choosing)).toEqual({ lowestP95: choosing[2], fewestRuns: choosing[3] });
    // The pick is the nearest on its worse axis: B (runs ×1.52), then A (×1.58), D (×1.9), C (p95 ×2.25).
    expect(heldOutNames(hard, choosing)).toEqual(["B", "C", "D"]);
  });

  it("judges the default against the references' held-out figures, not their choosing ones", () => {
    // Held out, B is slower (63.5 min) than chosen (54): the default at 62 min is within 10% of it.
    const def = figures(62, 0.8);
    expect(defaultVerdict(T, def, [{ name: "B", figures: figures(63.5, 0.78) }]).ok).toBe(true);
    expect(defaultVerdict(T, def, [choosing[1]!]).ok).toBe(false);
  });
});
