/**
 * The test results of a failed check, as the runner hands them to the engine with `check_results`
 * (docs/merge-queue.md "Verdicts from test results"), and the engine's reading of them: which
 * decision they call for, and which member of the batch they point to. The runner gathers the
 * facts (CI Insights' failing tests of the check's jobs, their quarantine and health on the base
 * branch, the merge conditions evaluated as if some failing checks had passed); the decision is
 * made here, so the runner, the simulation and the property tests drive the same rule.
 */
import { z } from "zod";
import { deterministicUuid } from "./ids.js";

/** How long results that have not arrived when a check fails are waited for, in milliseconds (2 min). */
export const TEST_RESULTS_WAIT_MS = 120_000;
/** How often the check is evaluated again while its results are awaited, in milliseconds. */
export const TEST_RESULTS_POLL_MS = 10_000;
/** Key prefix of the timer that has the runner evaluate a check whose test results are awaited (then `<check id>`). */
export const TEST_RESULTS_TIMER_PREFIX = "test-results/";
/** The failing tests listed in one check's facts at most; a check with more fails as it is. */
export const MAX_LISTED_FAILING_TESTS = 200;
/** The built-in retry rule of the queue (logged by `ci_insights.job_retried`). */
export const KNOWN_FLAKY_RULE_NAME = "known flaky tests";
/** Its id: the same UUID everywhere, derived from its name. */
export const KNOWN_FLAKY_RULE_ID = deterministicUuid("yardmaster", "retry-rule", 1);

const truth = z.union([z.literal(true), z.literal(false), z.literal("pending")]);
const pullNumber = z.number().int().positive();

/** Why a failing test points to a member of the batch. */
export const SUSPECT_REASONS = ["failed_in_own_ci", "touches_test_file"] as const;
export type SuspectReason = (typeof SUSPECT_REASONS)[number];

/** One failing test of the check (its latest execution in that job at the check's head SHA failed). */
const failingTest = z.object({
  name: z.string().min(1).max(4096),
  /** The check (CI job) it failed in. */
  job: z.string().min(1).max(255),
  /** A quarantine holds for it on the base branch. */
  quarantined: z.boolean(),
  /** Its health on the base branch (docs/ci-insights.md "Health"); unknown when it never ran there. */
  health: z.enum(["flaky", "broken", "healthy", "unknown"]),
  /**
   * Members of the batch it points to: `failed_in_own_ci` when the pull request's own CI (at its
   * head SHA) failed this test before it entered the queue; `touches_test_file` for each member
   * whose diff touches the test's file.
   */
  suspects: z
    .array(z.object({ number: pullNumber, reason: z.enum(SUSPECT_REASONS) }))
    .max(100)
    .default([]),
});

/** The schema of `check_results.tests` (see {@link TestFacts}). */
export const testFactsSchema = z.object({
  failing: z.array(failingTest).max(MAX_LISTED_FAILING_TESTS),
  /** Failing tests in all, when more than `failing` lists (then no decision but a real failure). */
  failingCount: z.number().int().nonnegative().optional(),
  /** Failing checks whose test results have not arrived yet (they report tests; none is stored for this head SHA). */
  awaiting: z.array(z.string().min(1).max(255)).max(100).default([]),
  /** The merge conditions as if each failing check whose failing tests are all quarantined had passed. */
  withoutQuarantined: truth,
  /** The merge conditions as if each failing check whose failing tests are all quarantined or known flaky had passed. */
  withoutKnownFlaky: truth,
  /**
   * When each failing check (CI job) ended, epoch milliseconds UTC as the forge reports it, by check
   * name (a check the forge gives no end time is absent; absent altogether from older events): a
   * re-run's results are the runs that end later (test-verdicts.ts).
   */
  endedAt: z
    .record(z.string().min(1).max(255), z.number().int().nonnegative())
    .refine((ended) => Object.keys(ended).length <= 100, "endedAt names at most 100 checks")
    .optional(),
});

/**
 * The schema of `check_rerun_failed` (events.ts): the failed jobs of a check re-run for known flaky
 * tests could not run again (the forge refused: no Actions workflow holds the check, permission
 * missing); the check fails as it was.
 */
export const checkRerunFailedSchema = z.object({
  type: z.literal("check_rerun_failed"),
  checkId: z.string().min(1),
  message: z.string(),
});

/**
 * What the runner read about a failed check's tests (absent from `check_results`: the queue is
 * blind to tests there, as when CI Insights is off).
 */
export type TestFacts = z.output<typeof testFactsSchema>;
/** One failing test of {@link TestFacts}. */
export type FailingTestFact = TestFacts["failing"][number];

/** A member the failing tests point to, and why. */
export interface Suspect {
  number: number;
  reason: SuspectReason;
}

/**
 * What the facts call for on a check whose merge conditions are false:
 * - `await`: results have not arrived (and the wait has not run out);
 * - `pending`: the conditions could still hold once the other checks conclude;
 * - `pass`: every failing check fails only on quarantined tests (a tested tree by definition);
 * - `rerun`: every failing test is quarantined or known flaky on the base branch, at least one flaky,
 *   and the check was not re-run for them yet: its failed jobs run once more;
 * - `fail`: a real failure (a test never seen before is never retried).
 */
export type TestReading =
  | { kind: "await" }
  | { kind: "pending" }
  | { kind: "pass"; ignored: string[] }
  | { kind: "rerun"; jobs: string[]; tests: string[] }
  | { kind: "fail" };

const listed = (facts: TestFacts) => facts.failingCount === undefined || facts.failingCount <= facts.failing.length;

/**
 * The decision of the module header for a check whose conditions are false. `awaitedOut`: the wait
 * for missing results has run out (the check's own conclusion then stands); `rerunDone`: the check
 * was re-run for known flaky tests already (a second failure fails the attempt: see
 * {@link onlyKnownFlaky} for the re-test that may follow).
 */
export function readTestFacts(facts: TestFacts, awaitedOut: boolean, rerunDone: boolean): TestReading {
  if (facts.awaiting.length > 0 && !awaitedOut) return { kind: "await" };
  if (!listed(facts) || facts.failing.length === 0) return { kind: "fail" };
  const quarantined = facts.failing.filter((t) => t.quarantined);
  if (facts.withoutQuarantined === true && quarantined.length > 0)
    return { kind: "pass", ignored: [...new Set(quarantined.map((t) => t.name))] };
  if (facts.withoutQuarantined === "pending") return { kind: "pending" };
  const others = facts.failing.filter((t) => !t.quarantined);
  const allFlaky = others.length > 0 && others.every((t) => t.health === "flaky");
  if (rerunDone || !allFlaky || facts.withoutKnownFlaky === false) return { kind: "fail" };
  if (facts.withoutKnownFlaky === "pending") return { kind: "pending" };
  return {
    kind: "rerun",
    jobs: [...new Set(others.map((t) => t.job))],
    tests: [...new Set(others.map((t) => t.name))],
  };
}

/**
 * Whether a failure names nobody: its failing tests are all listed and arrived, every one is
 * quarantined or known flaky on the base branch (at least one flaky), and the merge conditions hold
 * without their checks. Such a failure, even after its re-run, is no evidence against a pull
 * request: the batch is checked again from scratch once before it counts (test-verdicts.ts).
 */
export function onlyKnownFlaky(facts: TestFacts): boolean {
  if (!listed(facts) || facts.awaiting.length > 0 || facts.withoutKnownFlaky !== true) return false;
  const others = facts.failing.filter((t) => !t.quarantined);
  return others.length > 0 && others.every((t) => t.health === "flaky");
}

/**
 * The one member of the batch the failing tests point to, or null. Each real failing test (not
 * quarantined) names the members whose own CI failed it, else the one member whose diff touches
 * its file (several touching it name none); tests naming nobody say nothing; two tests naming
 * different members, or one naming several, leave no suspect.
 */
export function suspectOf(facts: TestFacts, members: readonly number[]): Suspect | null {
  if (!listed(facts)) return null;
  let found: Suspect | null = null;
  for (const test of facts.failing) {
    if (test.quarantined) continue;
    const own = test.suspects.filter((s) => members.includes(s.number));
    const byCi = own.filter((s) => s.reason === "failed_in_own_ci");
    const pick = byCi.length > 0 ? byCi : own.filter((s) => s.reason === "touches_test_file");
    const numbers = new Set(pick.map((s) => s.number));
    if (numbers.size > 1) return null;
    if (numbers.size === 0) continue;
    const s = pick[0]!;
    if (found !== null && found.number !== s.number) return null;
    if (found === null || s.reason === "failed_in_own_ci") found = { number: s.number, reason: s.reason };
  }
  return found;
}

/** The sentence naming tests in summaries and notes: `(2): a, b` (the first 20). */
export function namedTests(names: readonly string[]): string {
  const shown = names.slice(0, 20).join(", ");
  return `(${names.length}): ${shown}${names.length > 20 ? ", ..." : ""}`;
}
