/**
 * The flaky tests' part of the replay's report (docs/replay.md "Flaky tests"), from the run's
 * activity log:
 * - retries: checks whose failed job ran once more because every failing test was known flaky
 *   (`ci_insights.job_retried` by the queue's built-in rule `known flaky tests`, outcome `retried`);
 * - ignored failures: checks that passed although their job failed, every failing test
 *   quarantined (`action.queue.checks_end` with `ignored_failing_tests`), one per check;
 * - good pull requests sent back: dequeued without merging although not broken on purpose (a
 *   flaky failure taken as a real one: a test never seen, or a known flaky one failing its retry).
 */
import { KNOWN_FLAKY_RULE_NAME } from "../engine/index.js";
import type { FlakyTests } from "./flaky-tests.js";
import type { LogEvent } from "./log-reader.js";

/** The flaky tests' figures. */
export interface FlakyReport {
  rate: number;
  known: string[];
  quarantined: string[];
  /** Failed jobs run again for known flaky tests (each a CI run beyond the checks started). */
  retries: number;
  /** Checks passed on quarantined failures: the check's batch and the failing tests ignored. */
  ignoredFailures: { batch: string; tests: string[] }[];
  /** Pull request numbers dequeued without being broken on purpose. */
  goodSentBack: number[];
}

/** Builds the flaky part; `dequeued` is the report's, with each pull request's replay order. */
export function flakyReport(
  flaky: FlakyTests,
  events: readonly LogEvent[],
  dequeued: readonly { order: number; number: number }[],
  breaks: ReadonlySet<number>,
): FlakyReport {
  const retries = events.filter(
    (e) =>
      e.type === "ci_insights.job_retried" &&
      e.metadata.rule_name === KNOWN_FLAKY_RULE_NAME &&
      e.metadata.outcome === "retried",
  ).length;
  const ignoredFailures = events.flatMap((e) => {
    const members = e.metadata.pull_request_numbers;
    const ignored = e.metadata.ignored_failing_tests;
    const first = Array.isArray(members) && members.length > 0 && Number(members[0]) === e.pullRequest;
    if (e.type !== "action.queue.checks_end" || !first || !Array.isArray(ignored) || ignored.length === 0) return [];
    return [{ batch: String(e.metadata.batch_name ?? ""), tests: ignored.map(String) }];
  });
  return {
    rate: flaky.rate,
    known: [...flaky.known],
    quarantined: [...flaky.quarantined],
    retries,
    ignoredFailures,
    goodSentBack: dequeued.filter((d) => !breaks.has(d.order)).map((d) => d.number),
  };
}
