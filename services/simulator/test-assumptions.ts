/**
 * What a what-if on recorded traffic assumes of the repository's tests (docs/what-if.md
 * "Quarantines and retries"). With CI Insights enabled the queue reads test results: a check
 * failing only on quarantined tests passes, one failing only on known flaky tests runs once more
 * (docs/merge-queue.md "Verdicts from test results"). The traffic simulation then runs the
 * test-aware engine on the simulation's `tests` workload (simulation/test-workload.ts), with the
 * window's own measures:
 * - spurious rate f: CI runs that failed with no culprit among their pull requests (flakes taken
 *   as failures, checks passed on quarantined failures, failed jobs retried for known flaky
 *   tests) over CI runs (concluded checks plus retries);
 * - of those failures, the share on quarantined tests (the ignored ones) and on known flaky
 *   tests (the retried ones); the rest fail on tests nobody knows as flaky, real failures;
 * - no culprit's failing test is assumed known from its own CI (`attributable` 0): the log does
 *   not say it, so bisections halve.
 * With CI Insights off the queue is blind to tests, and so is the simulation: every spurious
 * failure is a real one at the recorded flake rate, as before.
 */
import type { RecordedTraffic } from "../activity-log/index.js";
import type { TestWorkload } from "../simulation/index.js";

/** The assumptions, and the workload they make (null: blind to tests). Rates and shares in [0, 1]. */
export interface TestAssumptions {
  testAware: boolean;
  spuriousRate: number;
  quarantinedShare: number;
  knownFlakyShare: number;
  workload: TestWorkload | null;
  /** The assumptions in one sentence. */
  note: string;
}

const percent = (x: number) => `${(x * 100).toFixed(1)}%`;

/** The assumptions for the traffic `t` of a repository whose queue reads test results when `aware`. */
export function testAssumptions(t: RecordedTraffic, aware: boolean): TestAssumptions {
  const concluded = t.ciDurationsMs.length;
  const runs = concluded + t.retries;
  const flakes = Math.round(t.flakeRate * concluded);
  const spurious = flakes + t.ignoredFailures + t.retries;
  const spuriousRate = runs === 0 ? 0 : Math.min(1, spurious / runs);
  if (!aware)
    return {
      testAware: false,
      spuriousRate: t.flakeRate,
      quarantinedShare: 0,
      knownFlakyShare: 0,
      workload: null,
      note: `blind to tests (CI Insights is off for the repository): ${percent(t.flakeRate)} of CI runs fail with no culprit, each a real failure`,
    };
  const quarantinedShare = spurious === 0 ? 0 : t.ignoredFailures / spurious;
  const knownFlakyShare = spurious === 0 ? 0 : t.retries / spurious;
  return {
    testAware: true,
    spuriousRate,
    quarantinedShare,
    knownFlakyShare,
    workload: { attributable: 0, spurious: spuriousRate, quarantinedShare, flakyShare: knownFlakyShare, aware: true },
    note:
      `test-aware (CI Insights is on): ${percent(spuriousRate)} of CI runs fail with no culprit, ` +
      `${percent(quarantinedShare)} of them on quarantined tests (ignored), ${percent(knownFlakyShare)} on known flaky tests ` +
      `(retried once), the rest on unknown tests (real failures); culprits not known from their own CI`,
  };
}
