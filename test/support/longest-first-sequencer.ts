/**
 * Test file order (vitest `sequence.sequencer`): the few files known to take minutes start first,
 * so that on a fresh clone (no timing cache) they do not start last and stretch the run; the rest
 * keep vitest's own order (failed, then slowest, then largest first). Longest-first is the classic
 * way to pack jobs on a few workers (vitest.config.ts runs 3).
 */
import { BaseSequencer, type TestSpecification } from "vitest/node";

/**
 * The slowest files, slowest first. Seconds in a clean-clone run on the 2-core development machine,
 * 2026-11-28, with the three GitHub scenarios since measured again alone, after they stopped waiting
 * out the double's secondary rate limit and a killed server's stop
 * (docs/contributing.md "The suite's time"): ~95, ~95 and ~80 at load 6-8, 37, 41 and 47 on a
 * quiet machine (from ~245, ~180 and ~245 in the suite), then ~75, ~70, ~60, ~55, ~50, ~50; the
 * dashboard states, CI Insights and merge protections files measured again alone after their
 * waits were cut (the same page, "What was cut"): ~50-55, ~45 and ~40-45 at load 3-9; the
 * replay's, ~35, is left to vitest's timing cache. Under the suite's own load the scenarios are still among
 * the longest and the least even (their kill cases), so they start first, one a worker, and the
 * rest fill in around them. Other files follow by vitest's own timing cache once it exists.
 */
const SLOWEST = [
  "test/forge/github/scenarios/merge-rulesets.test.ts",
  "test/forge/github/scenarios/linear-fast-forward.test.ts",
  "test/forge/github/scenarios/squash-strict.test.ts",
  "test/e2e/what-if.test.ts",
  // Fault tests (docs/reliability.md): servers killed and started again.
  "test/faults/random-kills.test.ts",
  "test/e2e/test-aware-queue.test.ts",
  "test/e2e/readme-walkthrough.test.ts",
  "test/e2e/dashboard-states.test.ts",
  "test/faults/tenant-isolation.test.ts",
  "test/faults/test-aware-crash.test.ts",
  "test/e2e/ci-insights-local.test.ts",
  "test/e2e/merge-protections.test.ts",
];

function rank(file: TestSpecification): number {
  const i = SLOWEST.findIndex((path) => file.moduleId.replaceAll("\\", "/").endsWith(path));
  return i < 0 ? SLOWEST.length : i;
}

/** vitest's BaseSequencer with {@link SLOWEST} moved to the front. */
export class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    return ordered
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map((x) => x.file);
  }
}
