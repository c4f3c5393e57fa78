/**
 * A pull request's own signals of failure risk as the runner reads them when it enters the queue
 * (docs/merge-queue.md "Risk-aware batching"; the rule that makes them risky is the engine's,
 * services/engine/risk.ts). Read from the snapshot the runner already holds, so entering costs no
 * extra forge request:
 * - `ownCiFailures`: the check runs and commit statuses on its head SHA in a failure state
 *   (isFailureCheckState: failure, error, cancelled, timed out, action required), Yardmaster's own
 *   checks excluded. The forges list each check's latest run, so a failure already passed by a
 *   re-run does not count;
 * - `changedFiles`, `changedLines`: the diff's size (paths, added + deleted lines);
 * - `flakyTestsTouched`: 0, not read yet (CI Insights' flaky tests against the diff's files).
 */
import { isFailureCheckState, type PullRequestSnapshot } from "../config/index.js";
import type { RiskSignals } from "../engine/index.js";
import { foreign } from "./reconciliation-facts.js";

/** The risk signals of `pr` (shape: engine RiskSignals; counts, never negative). */
export function riskSignalsOf(pr: PullRequestSnapshot): RiskSignals {
  return {
    ownCiFailures: foreign(pr.checks).filter((c) => isFailureCheckState(c.state)).length,
    flakyTestsTouched: 0,
    changedFiles: pr.files.length,
    changedLines: Math.max(0, pr.addedLines) + Math.max(0, pr.deletedLines),
  };
}
