/**
 * The two files a replay commits on top of A (docs/replay.md "The replayed repository"), and the
 * marker that breaks a pull request on purpose:
 * - `.yardmaster/ci.yml`: one check, `replay`, that fails when the commit holds the directory
 *   `.yardmaster/replay-broken/` and otherwise runs the `--ci` command (default `true`: exits 0);
 * - `.yardmaster.yml`: the `--config` file, or {@link DEFAULT_REPLAY_CONFIG}.
 * The replayed pull request heads are the original commits, which carry no CI file: their own
 * pushes start no check, and the queue's checks (the drafts, built on the base) run the CI above.
 */
import { stringify } from "yaml";
import { flakyEnding, REPORT_GLOB, type FlakyTests } from "./flaky-tests.js";

/**
 * Where the replay commits its CI file ({@link ciFile}): the local forge's CI file
 * (docs/local-forge.md "CI file").
 */
export const CI_PATH = ".yardmaster/ci.yml";
/**
 * Where the replay commits its queue configuration (`--config` or {@link DEFAULT_REPLAY_CONFIG}):
 * the first configuration path the forge reads.
 */
export const CONFIG_PATH = ".yardmaster.yml";
/** A pull request broken by `--break` gets a file in this directory. */
export const BROKEN_DIR = ".yardmaster/replay-broken";
/** The name of the replay's check run. */
export const CHECK_NAME = "replay";
/** `--ci` when none is given: a command that exits 0. */
export const DEFAULT_CI_COMMAND = "true";

/**
 * The queue configuration of a replay when `--config` is not given. Batches of up to 4 pull
 * requests (a lone one waits at most 3 s for company), 2 batches checked at once (the local CI
 * has 2 slots by default), checks required on the drafts only (the heads carry no CI file),
 * merge commits (so the base's tree is the merge of the heads, like the original history), and
 * every batch rechecked when an outside change moves the base. Bisection is on (unlimited
 * failure resolution attempts, the default).
 */
export const DEFAULT_REPLAY_CONFIG = `# Written by yardmaster replay (docs/replay.md).
queue_rules:
  - name: replay
    batch_size:
      min: 2
      max: 4
    batch_max_wait_time: "3 s"
    branch_protection_injection_mode: merge
    merge_method: merge
merge_queue:
  max_parallel_checks: 2
  reset_on_external_merge: always
`;

/**
 * The CI file running `command` (a bash script). A commit broken on purpose runs it too, then
 * fails whatever it answered: a broken change fails its CI after the CI's time, as a failing
 * test suite does, so the replay's runs take the known duration of `command` whatever their
 * outcome (which calibrating a what-if needs: docs/what-if.md "Calibration"). With `flaky`
 * (`--flaky`) the run also fails spuriously on the flaky tests and writes a JUnit report
 * (flaky-tests.ts); `counter` names its run counter.
 * @throws RangeError when `command` is blank
 */
export function ciFile(command: string, flaky: { tests: FlakyTests; counter: string } | null = null): string {
  if (command.trim() === "") throw new RangeError("--ci: the command is empty");
  if (flaky !== null) return flakyCiFile(command, flaky.tests, flaky.counter);
  const run = [
    `if [ -d ${BROKEN_DIR} ]; then`,
    `  (${command}
  ) >/dev/null 2>&1`,
    `  echo "broken on purpose by yardmaster replay --break: $(ls ${BROKEN_DIR})"`,
    "  exit 1",
    "fi",
    command,
    "",
  ].join("\n");
  return `# Written by yardmaster replay (docs/replay.md).\n${stringify({ checks: [{ name: CHECK_NAME, run }] })}`;
}

/** {@link ciFile} with flaky tests: the command's status and the marker kept for the report. */
function flakyCiFile(command: string, tests: FlakyTests, counter: string): string {
  const run = [
    `broken=""; if [ -d ${BROKEN_DIR} ]; then broken="$(ls ${BROKEN_DIR})"; fi`,
    'if [ -n "$broken" ]; then',
    `  (${command}
  ) >/dev/null 2>&1; ci=0`,
    '  echo "broken on purpose by yardmaster replay --break: $broken"',
    "else",
    `  (${command}
  ); ci=$?`,
    "fi",
    ...flakyEnding(tests, counter),
    "",
  ].join("\n");
  return `# Written by yardmaster replay (docs/replay.md).\n${stringify({ checks: [{ name: CHECK_NAME, run, junit: REPORT_GLOB }] })}`;
}

/** The marker file of the pull request of replay order `order`, and its text. */
export function brokenMarker(order: number): { path: string; content: string } {
  return {
    path: `${BROKEN_DIR}/pull-${order}`,
    content: `Pull request ${order} of this replay fails CI on purpose (yardmaster replay --break).\n`,
  };
}
