/**
 * The facts the engine reads to decide a failed check from its test results (docs/merge-queue.md
 * "Verdicts from test results"; engine/test-facts.ts): the failing tests of the check's failing
 * jobs (CI Insights, through the `testResults` reader services/main wires), the members each test
 * points to (its own CI failed it at its head SHA, or its diff touches the test's file), the jobs
 * whose results have not arrived, and the merge conditions evaluated again as if the jobs failing
 * only on quarantined (or quarantined and known flaky) tests had passed. The runner decides
 * nothing with them: the engine does.
 */
import type { CheckRun, EvaluatedCondition, PullRequestSnapshot, Truth } from "../config/index.js";
import type { CheckTestsAnswer, CheckTestsQuery } from "../ci-insights/index.js";
import { MAX_LISTED_FAILING_TESTS, type CheckAttempt, type TestFacts } from "../engine/index.js";

/** Reads CI Insights' facts about a failed check; null when CI Insights is off for the repository. */
export type TestResultsReader = (query: CheckTestsQuery) => Promise<CheckTestsAnswer | null>;

/** Check states whose failure test results may explain. */
const FAILED: ReadonlySet<string> = new Set(["failure", "error"]);

/** One member as evaluated: its snapshot (checks replaced by the check's) and its queue facts. */
export interface EvaluatedMember {
  snapshot: PullRequestSnapshot;
  evaluate: (snapshot: PullRequestSnapshot) => EvaluatedCondition;
}

const and = (values: Truth[]): Truth =>
  values.includes(false) ? false : values.includes("pending") ? "pending" : true;

/** What a re-run for known flaky tests replaced (engine CheckAttempt `rerun`, or the rerun_checks effect). */
export interface ReplacedRuns {
  /** When the re-run was asked (epoch ms, the queue's clock). */
  requestedAt: number;
  /** When the failed run of each job ended (epoch ms, the forge's clock); absent when not known. */
  replacedEndedAt?: Record<string, number>;
}

/**
 * Whether run `c` of a re-run job is the run the re-run replaced rather than the re-run's own: it
 * is not pending and ended no later than the failed run the queue saw (by the forge's clock; the
 * round's clock is read before the forge, so that run may end after `requestedAt`), or, when that
 * end is not known, before the re-run was asked; a run that ended with no end time is the run
 * before too (docs/reliability.md "Crashes: every effect exactly once").
 */
export function isRunBefore(c: CheckRun, rerun: ReplacedRuns): boolean {
  if (c.state === "pending") return false;
  if (c.completedAt === null) return true;
  const ended = rerun.replacedEndedAt;
  if (ended !== undefined && Object.hasOwn(ended, c.name)) return c.completedAt.getTime() <= ended[c.name]!;
  return c.completedAt.getTime() < rerun.requestedAt;
}

/**
 * The checks of a check re-run for known flaky tests as they stand for it: a named check that is
 * the run before (isRunBefore) counts as pending (on GitHub the new check run appears a moment
 * after the re-run is asked).
 */
export function afterRerun(checks: CheckRun[], check: CheckAttempt): CheckRun[] {
  const rerun = check.rerun;
  if (!rerun) return checks;
  return checks.map((c) => (rerun.jobs.includes(c.name) && isRunBefore(c, rerun) ? { ...c, state: "pending" } : c));
}

/** When each failed check of `jobs` ended (epoch ms, the latest run of a name), for `tests.endedAt`. */
function endedAt(checks: readonly CheckRun[], jobs: readonly string[]): Record<string, number> {
  const ended = new Map<string, number>();
  for (const c of checks) {
    if (!jobs.includes(c.name) || !FAILED.has(c.state) || c.completedAt === null) continue;
    ended.set(c.name, Math.max(ended.get(c.name) ?? 0, c.completedAt.getTime()));
  }
  return Object.fromEntries(ended);
}

const normalise = (path: string) => path.replace(/^\.\//, "");

/**
 * The `tests` of a check_results event whose conditions are false, or undefined when there is
 * nothing to say (no reader, CI Insights off, no failing check that tests could explain).
 */
export async function gatherTestFacts(
  read: TestResultsReader | null,
  input: {
    repository: string;
    baseBranch: string;
    headSha: string;
    checks: CheckRun[];
    members: EvaluatedMember[];
  },
): Promise<TestFacts | undefined> {
  if (read === null) return undefined;
  const jobs = [...new Set(input.checks.filter((c) => FAILED.has(c.state)).map((c) => c.name))];
  if (jobs.length === 0) return undefined;
  const answer = await read({
    repository: input.repository,
    baseBranch: input.baseBranch,
    headSha: input.headSha,
    jobs,
    pulls: input.members.map((m) => ({ number: m.snapshot.number, headSha: m.snapshot.headSha })),
    limit: MAX_LISTED_FAILING_TESTS,
  });
  if (answer === null) return undefined;
  const passing = (pass: (t: CheckTestsAnswer["failing"][number]) => boolean) => {
    const names = answer.jobs
      .filter((j) => j.results === "stored" && !j.truncated && j.failing > 0)
      .map((j) => j.name)
      .filter((job) => answer.failing.filter((t) => t.job === job).every(pass));
    const checks = input.checks.map((c) => (names.includes(c.name) ? { ...c, state: "success" as const } : c));
    return and(input.members.map((m) => m.evaluate({ ...m.snapshot, checks }).match));
  };
  const listed = answer.failing.slice(0, MAX_LISTED_FAILING_TESTS);
  const seen = answer.jobs.reduce((n, j) => n + j.failing, 0);
  return {
    failing: listed.map((t) => {
      const file = normalise(t.file);
      const touching = file === "" ? [] : input.members.filter((m) => m.snapshot.files.map(normalise).includes(file));
      return {
        name: t.name,
        job: t.job,
        quarantined: t.quarantined,
        health: t.health,
        suspects: [
          ...t.failedInOwnCi.map((number) => ({ number, reason: "failed_in_own_ci" as const })),
          ...touching.map((m) => ({ number: m.snapshot.number, reason: "touches_test_file" as const })),
        ].slice(0, 100),
      };
    }),
    ...(seen > listed.length ? { failingCount: seen } : {}),
    awaiting: answer.jobs.filter((j) => j.results === "awaited").map((j) => j.name),
    withoutQuarantined: passing((t) => t.quarantined),
    withoutKnownFlaky: passing((t) => t.quarantined || t.health === "flaky"),
    endedAt: endedAt(input.checks, jobs),
  };
}
