/**
 * Flaky tests in a history replay (docs/replay.md "Flaky tests"): `--flaky RATE` makes the
 * replay's local CI fail spuriously at RATE on named flaky tests, writing a JUnit report that
 * CI Insights stores (docs/ci-insights.md "Local CI"), so the test-aware queue retries the known
 * flaky ones and ignores the quarantined ones (docs/merge-queue.md "Verdicts from test results").
 *
 * The failures are spread evenly, not drawn: the CI counts its runs in the replayed repository
 * (k = 1, 2, ... in a counter file on the CI's machine, under a lock), and run k fails when
 * ⌊k·RATE⌋ > ⌊(k−1)·RATE⌋, so exactly ⌊n·RATE⌋ of the first n runs fail, and a replay repeated
 * with the same checks in the same order fails the same runs. The j-th failure falls on the
 * j-th named test, round robin (known flaky ones first, then quarantined ones).
 */
import { ReplayError } from "./errors.js";

/** The flaky tests of a replay and their failure rate (0 < rate ≤ 1, per CI run). */
export interface FlakyTests {
  rate: number;
  /** Known flaky on the base branch: the replay teaches CI Insights a failed and a passed run of each at A. */
  known: string[];
  /** Quarantined on the base branch by the replay before the first pull request. */
  quarantined: string[];
}

/** `--flaky-tests` when not given. */
export const DEFAULT_FLAKY_TESTS = ["replay.flaky_network", "replay.flaky_timing"];
/** `--quarantined-tests` when not given. */
export const DEFAULT_QUARANTINED_TESTS = ["replay.flaky_clock"];
/** Where the replay's CI writes its JUnit report, relative to the work tree (the check's `junit:` glob). */
export const REPORT_GLOB = ".yardmaster/replay-reports/*.xml";
/** The failing test of a `--ci` command that failed, and of a pull request broken on purpose. */
export const CI_TEST = "replay.ci";
export const BROKEN_TEST = "replay.broken_on_purpose";

/** A test name: what JUnit `<testcase name>` carries without a classname, safe in XML and shell. */
const TEST_NAME = /^[A-Za-z0-9_.:/-]{1,100}$/;
const RATE = /^(0(\.[0-9]{1,6})?|1(\.0{1,6})?|\.[0-9]{1,6})$/;
/** The most flaky tests a replay names (each is a test case in every run's report). */
const MAX_TESTS = 20;

/**
 * The flaky tests of `--flaky`, `--flaky-tests` and `--quarantined-tests`; null without `--flaky`.
 * @throws ReplayError naming the option: a rate outside (0, 1], a bad or repeated test name, a
 *   test list without `--flaky`, more than 20 tests, or none at all
 */
export function parseFlaky(raw: { flaky?: string; flakyTests?: string; quarantinedTests?: string }): FlakyTests | null {
  if (raw.flaky === undefined) {
    const given =
      raw.flakyTests !== undefined
        ? "--flaky-tests"
        : raw.quarantinedTests !== undefined
          ? "--quarantined-tests"
          : null;
    if (given !== null) throw new ReplayError(`${given}: needs --flaky RATE`);
    return null;
  }
  if (!RATE.test(raw.flaky.trim()) || !(Number(raw.flaky) > 0))
    throw new ReplayError(`--flaky: "${raw.flaky}" must be a rate above 0 and at most 1 (e.g. 0.1)`);
  const known = names("--flaky-tests", raw.flakyTests, DEFAULT_FLAKY_TESTS);
  const quarantined = names("--quarantined-tests", raw.quarantinedTests, DEFAULT_QUARANTINED_TESTS);
  const both = known.find((n) => quarantined.includes(n));
  if (both !== undefined) throw new ReplayError(`--quarantined-tests: ${both} is also in --flaky-tests`);
  if (known.length + quarantined.length === 0) throw new ReplayError("--flaky-tests: name at least one flaky test");
  if (known.length + quarantined.length > MAX_TESTS)
    throw new ReplayError(`--flaky-tests: at most ${MAX_TESTS} flaky and quarantined tests in all`);
  return { rate: Number(raw.flaky), known, quarantined };
}

function names(option: string, text: string | undefined, fallback: string[]): string[] {
  if (text === undefined) return [...fallback];
  const list = text
    .split(",")
    .map((n) => n.trim())
    .filter((n) => n !== "");
  for (const n of list) {
    if (!TEST_NAME.test(n) || n === CI_TEST || n === BROKEN_TEST)
      throw new ReplayError(`${option}: "${n}" is not a test name (letters, digits, _ . : / -, at most 100)`);
  }
  const repeated = list.find((n, i) => list.indexOf(n) !== i);
  if (repeated !== undefined) throw new ReplayError(`${option}: ${repeated} is named twice`);
  return list;
}

/**
 * The bash lines that end a CI run with flaky tests: draw whether this run fails spuriously (see
 * the module comment), write the JUnit report (`CI_TEST` with the command's result, `BROKEN_TEST`
 * for a pull request broken on purpose, one case per flaky test) and exit 1 when anything failed.
 * Expects `$ci` (the command's exit status) and `$broken` (non-empty when broken on purpose).
 * `counter` names the counter file (one per replayed repository).
 */
export function flakyEnding(flaky: FlakyTests, counter: string): string[] {
  const tests = [...flaky.known, ...flaky.quarantined];
  const ppm = Math.round(flaky.rate * 1_000_000);
  const failure = (name: string, message: string) =>
    `echo "<testcase name='${name}'><failure message='${message}'/></testcase>"`;
  const pass = (name: string) => `echo "<testcase name='${name}'/>"`;
  return [
    `dir="\${TMPDIR:-/tmp}/yardmaster-replay-flaky"; mkdir -p "$dir"; counter="$dir/${counter}"`,
    `k=$(flock "$counter.lock" sh -c 'k=$(( $(cat "$1" 2>/dev/null || echo 0) + 1 )); echo $k > "$1"; echo $k' _ "$counter")`,
    `failures=$(( k * ${ppm} / 1000000 )); spurious=""`,
    `if [ $failures -gt $(( (k - 1) * ${ppm} / 1000000 )) ]; then`,
    `  tests=(${tests.join(" ")}); spurious=\${tests[$(( (failures - 1) % ${tests.length} ))]}`,
    `  echo "spurious failure of $spurious (run $k of this replay's CI; yardmaster replay --flaky ${flaky.rate})"`,
    "fi",
    "mkdir -p .yardmaster/replay-reports",
    "{",
    "  echo '<testsuite name=\"replay\">'",
    `  if [ "$ci" -eq 0 ]; then ${pass(CI_TEST)}; else ${failure(CI_TEST, "the --ci command failed")}; fi`,
    `  if [ -n "$broken" ]; then ${failure(BROKEN_TEST, "broken on purpose by yardmaster replay --break")}; fi`,
    `  for t in ${tests.join(" ")}; do`,
    `    if [ "$t" = "$spurious" ]; then ${failure("$t", "spurious failure (yardmaster replay --flaky)")}; else ${pass("$t")}; fi`,
    "  done",
    "  echo '</testsuite>'",
    "} > .yardmaster/replay-reports/junit.xml",
    `if [ "$ci" -ne 0 ] || [ -n "$broken" ] || [ -n "$spurious" ]; then exit 1; fi`,
  ];
}
