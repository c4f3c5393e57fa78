/**
 * Verdicts from test results (docs/merge-queue.md "Verdicts from test results"): what a failed
 * check's test results (test-facts.ts) make of it. Failures only on quarantined tests pass the
 * check, which names them (checks_end `ignored_failing_tests`, the summary check of its pull
 * request); failures only on tests known flaky on the base branch run the failed jobs once more
 * before anything is bisected (`ci_insights.job_retried` by the built-in rule `known flaky tests`),
 * and an attempt failing again on those tests only is replaced by a fresh one, once per batch
 * ({@link retestForFlakes}: such a failure never sends a pull request back by itself);
 * results that have not arrived are waited for TEST_RESULTS_WAIT_MS, then the check's own
 * conclusion stands; anything else is a real failure, which keeps the member its tests point to
 * for the bisection (suspect-first, bisection.ts). Nothing here merges: a pass goes through the
 * same path as conditions true (outcomes.ts).
 */
import type { Ctx } from "./context.js";
import {
  KNOWN_FLAKY_RULE_ID,
  KNOWN_FLAKY_RULE_NAME,
  namedTests,
  onlyKnownFlaky,
  readTestFacts,
  suspectOf,
  TEST_RESULTS_POLL_MS,
  TEST_RESULTS_WAIT_MS,
  type TestFacts,
} from "./test-facts.js";
import type { Batch, CheckAttempt, Train } from "./state.js";

/** What the caller does next: nothing yet (`held`), conclude the check as passed, or as failed. */
export type TestVerdict = "held" | "pass" | "fail";

/**
 * Applies the facts of a check whose merge conditions are false (it is running, its checks
 * recorded) and says what the caller does with it; sets its test note, ignored tests or suspect.
 */
export function testVerdict(ctx: Ctx, train: Train, batch: Batch, check: CheckAttempt, facts: TestFacts): TestVerdict {
  const awaitedOut = check.testsAwait != null && ctx.now >= check.testsAwait.until;
  const reading = readTestFacts(facts, awaitedOut, check.rerun != null);
  if (reading.kind !== "await") check.testsAwait = null;
  switch (reading.kind) {
    case "await": {
      check.testsAwait ??= { since: ctx.now, until: ctx.now + TEST_RESULTS_WAIT_MS, nextLookAt: 0 };
      check.testsAwait.nextLookAt = Math.min(check.testsAwait.until, ctx.now + TEST_RESULTS_POLL_MS);
      return "held";
    }
    case "pending":
      return "held";
    case "pass": {
      check.ignoredTests = reading.ignored;
      check.testNote = `passed: its only failing tests are quarantined ${namedTests(reading.ignored)}`;
      if (check.number !== null && check.headSha !== null)
        ctx.emit({
          kind: "post_summary_check",
          number: check.number,
          headSha: check.headSha,
          conclusion: "success",
          title: `${batch.name} passed: quarantined failing tests ignored`,
          summary: `The checks of ${batch.name} failed only on tests quarantined on \`${train.branch}\`, which the merge queue ignores: ${namedTests(reading.ignored)}.`,
        });
      return "pass";
    }
    case "rerun":
      rerun(ctx, train, batch, check, { ...reading, replacedEndedAt: replacedEnds(facts, reading.jobs) });
      return "held";
    case "fail": {
      check.suspect = batch.members.length > 1 ? suspectOf(facts, batch.members) : null;
      check.flakyOnly =
        check.rerun != null && onlyKnownFlaky(facts)
          ? [...new Set(facts.failing.filter((t) => !t.quarantined).map((t) => t.name))]
          : null;
      if (check.flakyOnly && check.mode === "in_place" && (batch.flakyRetests ?? 0) < MAX_FLAKY_RETESTS) {
        // In place, a fresh check would test the same commit: its failed jobs run once more instead.
        batch.flakyRetests = (batch.flakyRetests ?? 0) + 1;
        const jobs = [...new Set(facts.failing.filter((t) => !t.quarantined).map((t) => t.job))];
        const tests = check.flakyOnly;
        check.flakyOnly = null;
        rerun(ctx, train, batch, check, { jobs, tests, replacedEndedAt: replacedEnds(facts, jobs) }, 2);
        return "held";
      }
      check.testNote = failureNote(facts, check, awaitedOut);
      return "fail";
    }
  }
}

function failureNote(facts: TestFacts, check: CheckAttempt, awaitedOut: boolean): string {
  const names = [...new Set(facts.failing.filter((t) => !t.quarantined).map((t) => t.name))];
  const count = Math.max(facts.failingCount ?? 0, facts.failing.length);
  if (awaitedOut && facts.awaiting.length > 0)
    return `the test results of ${facts.awaiting.join(", ")} did not arrive within ${TEST_RESULTS_WAIT_MS / 1000} s: the check's own conclusion stands`;
  if (check.rerun) return `failed again after a re-run for known flaky tests: failing tests ${namedTests(names)}`;
  if (count > facts.failing.length) return `${count} failing tests: too many to classify, a real failure`;
  if (names.length === 0) return "the failing checks have no failing test in their results: a real failure";
  const unknown = facts.failing.filter((t) => !t.quarantined && t.health === "unknown").map((t) => t.name);
  const suffix = unknown.length > 0 ? `; never run on the base branch before, not re-run ${namedTests(unknown)}` : "";
  return `real failure: failing tests ${namedTests(names)}${suffix}`;
}

/**
 * When the failed run of each re-run job ended (the facts' `endedAt`, the forge's clock): the
 * re-run's results are the runs that end later. The engine's clock alone cannot tell: it is read
 * when the runner's round begins, before the forge is, so the failed run may end after it.
 */
function replacedEnds(facts: TestFacts, jobs: readonly string[]): Record<string, number> {
  const ended = facts.endedAt ?? {};
  return Object.fromEntries(jobs.filter((job) => Object.hasOwn(ended, job)).map((job) => [job, ended[job]!]));
}

/**
 * Runs the failed jobs once more (`jobs`, for the flaky `tests`; `replacedEndedAt`: when each
 * failed run ended; `attempt` 2 for the re-test of a check in place): the effect, one
 * `ci_insights.job_retried` per job, the summary in progress.
 */
function rerun(
  ctx: Ctx,
  train: Train,
  batch: Batch,
  check: CheckAttempt,
  { jobs, tests, replacedEndedAt }: { jobs: string[]; tests: string[]; replacedEndedAt: Record<string, number> },
  attempt = 1,
): void {
  check.rerun = { requestedAt: ctx.now, jobs, tests, replacedEndedAt };
  ctx.emit({
    kind: "rerun_checks",
    checkId: check.id,
    batchId: batch.id,
    number: check.number!,
    headSha: check.headSha!,
    draftBranch: check.branch,
    checks: jobs,
    requestedAt: ctx.now,
    replacedEndedAt,
  });
  for (const job of jobs) {
    logKnownFlakyRetry(ctx, check.number, train.branch, {
      maxRetry: attempt === 1 ? 1 : 1 + MAX_FLAKY_RETESTS,
      mode: "job",
      attempt,
      match: { type: "known_flaky_tests", job, base_branch: train.branch, failing_tests: tests.slice(0, 20) },
      batch,
    });
  }
  ctx.emit({
    kind: "post_summary_check",
    number: check.number!,
    headSha: check.headSha!,
    conclusion: null,
    title: `${batch.name}: re-running ${jobs.join(", ")} (known flaky tests)`,
    summary: `Every failing test of ${batch.name} is known flaky on \`${train.branch}\` ${namedTests(tests)}: the failed jobs run once more before anything is bisected (rule \`${KNOWN_FLAKY_RULE_NAME}\`).`,
  });
}

/** check_rerun_failed: the re-run could not start; the failure stands (true: the caller fails the check). */
export function rerunFailed(check: CheckAttempt, message: string): boolean {
  if (check.phase !== "running" || !check.rerun) return false;
  check.testNote = `the re-run for known flaky tests could not start (${message}): the failure stands`;
  return true;
}

/** How many times a batch is checked again from scratch after an attempt failed twice on known flaky tests only. */
export const MAX_FLAKY_RETESTS = 1;

/**
 * An attempt that failed again after its re-run, and again only on quarantined or known flaky
 * tests (`check.flakyOnly`), names no culprit: the batch is checked again from scratch (a fresh
 * draft on the same ancestors; its own failed jobs may be re-run once more; a check in place has
 * its failed jobs run a second time instead, in {@link testVerdict}), at most
 * {@link MAX_FLAKY_RETESTS} times per batch, before such a failure counts as a real one (bisected,
 * or its only member sent back). The attempt ends with CHECKS_RETRIED, its reason naming the
 * tests, and `ci_insights.job_retried` (rule `known flaky tests`, `retry_mode: pipeline`) records
 * it. Returns true when the batch is re-tested (the caller stops there).
 * Rule: docs/merge-queue.md "Verdicts from test results".
 */
export function retestForFlakes(ctx: Ctx, batch: Batch, stop: (reason: string) => void): boolean {
  const check = batch.check;
  const tests = check?.flakyOnly ?? null;
  if (!check || tests === null || (batch.flakyRetests ?? 0) >= MAX_FLAKY_RETESTS) return false;
  const branch = ctx.pull(batch.members[0]!)?.baseRef ?? null;
  logKnownFlakyRetry(ctx, check.number, branch, {
    maxRetry: MAX_FLAKY_RETESTS,
    mode: "pipeline",
    attempt: (batch.flakyRetests ?? 0) + 1,
    match: {
      type: "known_flaky_tests_failed_again",
      jobs: check.rerun?.jobs ?? [],
      base_branch: branch,
      failing_tests: tests.slice(0, 20),
    },
    batch,
  });
  stop(
    `failed again after its re-run, only on known flaky tests ${namedTests(tests)}: no culprit, the batch is checked again from scratch (rule \`${KNOWN_FLAKY_RULE_NAME}\`)`,
  );
  batch.flakyRetests = (batch.flakyRetests ?? 0) + 1;
  return true;
}

/**
 * Logs `ci_insights.job_retried` by the built-in rule `known flaky tests` (docs/ci-insights.md
 * "Job retries"): `match` (the condition that matched) gains the batch's id, name and pull
 * requests; `mode` is `job` for a re-run of failed jobs, `pipeline` for a re-test from scratch.
 */
function logKnownFlakyRetry(
  ctx: Ctx,
  number: number | null,
  branch: string | null,
  o: { maxRetry: number; mode: "job" | "pipeline"; attempt: number; match: Record<string, unknown>; batch: Batch },
): void {
  ctx.log("ci_insights.job_retried", number, branch, `CI Insights retry rule: ${KNOWN_FLAKY_RULE_NAME}`, {
    rule_id: KNOWN_FLAKY_RULE_ID,
    rule_name: KNOWN_FLAKY_RULE_NAME,
    max_retry: o.maxRetry,
    retry_mode: o.mode,
    retry_attempt: o.attempt,
    condition_matches: [
      { ...o.match, batch_id: o.batch.id, batch_name: o.batch.name, pull_request_numbers: o.batch.members },
    ],
    outcome: "retried",
    workflow_run_id: null,
    job_url: null,
  });
}
