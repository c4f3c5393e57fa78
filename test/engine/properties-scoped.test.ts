/**
 * Property-based invariants of the engine in parallel and isolated modes (scopes), where the base
 * may receive untested combinations of disjoint scopes by design: every step's metadata, state and
 * dequeue impact are checked; at the end nothing merged twice or lost, no merge called exact that
 * was not, events paired. Replay a failure with ENGINE_PROPERTY_SEED=<seed>.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { runs, scenarios } from "./scenario-generators.js";
import { runScenario } from "./scenario-runner.js";

describe("engine invariants in parallel and isolated modes", () => {
  it("hold over 4,000 random scenarios", () => {
    let merged = 0;
    const seen = new Set<string>();
    fc.assert(
      fc.property(scenarios(["parallel", "isolated"]), (s) => {
        const outcome = runScenario(s);
        merged += outcome.merged;
        outcome.seen.forEach((x) => seen.add(x));
        expect(outcome.problems).toEqual([]);
      }),
      runs(4000),
    );
    expect(merged).toBeGreaterThan(500);
    for (const expected of ["CHECKS_FAILED", "BATCH_AHEAD_FAILED", "MERGE_QUEUE_RESET", "BATCH_SCOPES_CHANGED"])
      expect(seen, expected).toContain(expected);
  });
});
