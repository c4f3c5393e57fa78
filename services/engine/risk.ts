/**
 * A pull request's predicted failure risk, from its own signals as the runner reads them when it
 * enters the queue (docs/merge-queue.md "Risk-aware batching"), and the rule that makes it risky.
 * With a queue rule's `risk_aware_batching`, batch formation (formation.ts) ends a batch with a
 * risky pull request (alone when it comes first): a smaller batch puts fewer innocents behind a
 * likely failure, and the risky member is the one halving holds as its elimination candidate
 * (bisection.ts), so a failing batch whose other members pass names it after one round. Measured
 * on the benchmark's `tests` workload (docs/benchmarks.md "Risk-aware batching").
 */
import { z } from "zod";
import type { EngineQueueRule } from "./config.js";

const count = z.number().int().nonnegative().max(1_000_000_000);

/** The schema of a queued pull request's `risk` (see {@link RiskSignals}). */
export const riskSignalsSchema = z.object({
  /**
   * Runs of its own CI at its head SHA that failed before it entered the queue, re-runs included
   * (a check that failed then passed on a re-run counts 1).
   */
  ownCiFailures: count.default(0),
  /** Tests known flaky on the base branch (docs/ci-insights.md "Health") whose files its diff touches. */
  flakyTestsTouched: count.default(0),
  /** Files its diff changes. */
  changedFiles: count.default(0),
  /** Lines its diff adds or removes. */
  changedLines: count.default(0),
});

/** A pull request's own signals of failure risk (what the runner knew when it entered the queue). */
export type RiskSignals = z.infer<typeof riskSignalsSchema>;

/** Files changed from which a pull request counts as risky. */
export const RISKY_CHANGED_FILES = 50;
/** Lines changed from which a pull request counts as risky. */
export const RISKY_CHANGED_LINES = 2000;

/**
 * The signal that makes `signals` risky, or null when none does: its own CI failed before it
 * entered the queue; it touches a test known flaky; it changes at least {@link RISKY_CHANGED_FILES}
 * files or {@link RISKY_CHANGED_LINES} lines. Null signals (none known): not risky.
 */
export function riskReason(signals: RiskSignals | null | undefined): string | null {
  if (!signals) return null;
  if (signals.ownCiFailures > 0) return "its own CI failed before it was queued";
  if (signals.flakyTestsTouched > 0) return "it touches a test known flaky";
  if (signals.changedFiles >= RISKY_CHANGED_FILES) return `it changes ${signals.changedFiles} files`;
  if (signals.changedLines >= RISKY_CHANGED_LINES) return `it changes ${signals.changedLines} lines`;
  return null;
}

/**
 * Whether a pull request with `signals` ends its batch under `rule` (`risk_aware_batching` on and
 * the pull request risky): formation.ts makes it the batch's last member, or checks it alone when
 * it is the first.
 */
export function endsBatch(rule: EngineQueueRule, signals: RiskSignals | null | undefined): boolean {
  return (rule.riskAwareBatching ?? false) && riskReason(signals) !== null;
}
