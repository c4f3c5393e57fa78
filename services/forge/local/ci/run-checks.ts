/**
 * The local CI runner: runs the checks of `.yardmaster/ci.yml` at one commit, each in its own
 * temporary work tree of that exact commit, at most `slots.capacity` at once across every run,
 * and reports each check as soon as it ends (the local forge turns these into check runs, so
 * `check-success=test` holds). No CI file: no checks. A CI file that does not parse: one failed
 * check named `yardmaster/ci-config` whose output is the error. docs/local-forge.md "CI runner".
 */
import { tmpdir } from "node:os";
import { isForgeError, type Sha } from "../../types.js";
import { readFile, rememberForCommits, resolveCommit, type BareRepo } from "../git/index.js";
import { CI_CONFIG_PATH, CiConfigError, parseCiConfig, type CiCheck, type CiConfig } from "./ci-config.js";
import type { CiSlots } from "./ci-slots.js";
import { DEFAULT_OUTPUT_LIMIT_BYTES } from "./output-tail.js";
import { runCommand, type CommandOutcome } from "./run-command.js";
import { createWorktree } from "./worktree.js";
import { readReportFiles, type ReportFile } from "./report-files.js";

/** Name of the check that reports an unreadable CI file. */
export const CI_CONFIG_CHECK = "yardmaster/ci-config";

/** State of a finished check: success (exit 0), failure (other exit), timed_out, cancelled, error (could not run). */
export type CheckResultState = "success" | "failure" | "timed_out" | "cancelled" | "error";

/** A finished check. Times are UTC from the runner's clock. */
export interface CheckResult {
  name: string;
  state: CheckResultState;
  /** Exit code of the script; null when it was killed, cancelled before starting, or never ran. */
  exitCode: number | null;
  /** Combined stdout and stderr (the last `outputLimitBytes`), plus Yardmaster's notes. */
  output: string;
  /** When the check got its slot; null when cancelled before that. */
  startedAt: Date | null;
  completedAt: Date;
}

/** What the runner needs; one instance per process, shared by every run. */
export interface CiRunnerDeps {
  /** CI slots shared by every run. */
  slots: CiSlots;
  /** Clock for startedAt/completedAt (default: the system clock). */
  now?: () => Date;
  /** Timeout of a check without one, in seconds (default 3600). */
  defaultTimeoutSeconds?: number;
  /** Output kept per check, in bytes (default 1 MiB). */
  outputLimitBytes?: number;
  /** Milliseconds between SIGTERM and SIGKILL when ending a check (default 5000). */
  killGraceMs?: number;
  /** Environment given to every check before CI variables (default: PATH, HOME, locale, TZ, TMPDIR, USER, SHELL, TERM of this process). */
  baseEnv?: Record<string, string>;
  /** Where temporary work trees go (default: the OS temporary directory). */
  tempRoot?: string;
}

/** Input of {@link runCommitChecks}. */
export interface RunChecksInput {
  repo: BareRepo;
  /** The commit under test (any revision; resolved once). */
  sha: string;
  /** Cancels every check of this run: running ones are killed, waiting ones never start. */
  signal?: AbortSignal;
  /** Called when a check gets its slot, before its work tree is made. */
  onStarted?: (event: { name: string; startedAt: Date }) => void | Promise<void>;
  /** Called as soon as a check ends, with its result. */
  onCompleted?: (result: CheckResult) => void | Promise<void>;
  /**
   * Called when a check that names JUnit reports (`junit:`) ended, in its work tree, with the
   * reports read (report-files.ts): CI Insights stores them, and a failure whose failing tests
   * are all quarantined becomes a success (docs/ci-insights.md "Local CI").
   */
  reports?: (input: ReportsInput) => Promise<ReportsVerdict>;
  /** Called after a check ended other than success: whether a retry rule re-runs it, the check alone or every check. */
  retry?: (result: CheckResult) => Promise<"job" | "pipeline" | null>;
}

/** What {@link RunChecksInput.reports} is given. */
export interface ReportsInput {
  check: string;
  state: CheckResultState;
  exitCode: number | null;
  files: ReportFile[];
  /** What the search left out. */
  notes: string[];
}

/** What the reports say about the check: lines for its output, and whether its failure is only quarantined tests. */
export interface ReportsVerdict {
  lines: string[];
  onlyQuarantinedFailures: boolean;
}

/** Variables of this process passed to checks by default. */
const PASSED_VARIABLES = ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR", "USER", "LOGNAME", "SHELL", "TERM"];

/**
 * Reads the CI file at `sha` (remembered per commit when `sha` is a full SHA: a commit's file
 * never changes; a parse error is not remembered).
 * @returns null when the commit has no CI file; a copy the caller may change
 * @throws CiConfigError when it does not parse; ForgeError not_found when `sha` is no commit
 */
export async function loadCiConfig(repo: BareRepo, sha: Sha): Promise<CiConfig | null> {
  const config = await rememberForCommits(repo, "ci-config", [sha], async () => {
    const text = await readFile(repo, sha, CI_CONFIG_PATH);
    return text === null ? null : parseCiConfig(text);
  });
  return structuredClone(config);
}

/**
 * Runs every check of the commit and reports each as it ends.
 * @returns the results in file order (empty when the commit has no CI file)
 * @throws ForgeError not_found when `sha` is no commit; the first error a callback threw (after
 *   every check has ended)
 */
export async function runCommitChecks(deps: CiRunnerDeps, input: RunChecksInput): Promise<CheckResult[]> {
  const now = deps.now ?? (() => new Date());
  const sha = await resolveCommit(input.repo, input.sha);
  let config: CiConfig | null;
  try {
    config = await loadCiConfig(input.repo, sha);
  } catch (error) {
    if (!(error instanceof CiConfigError)) throw error;
    const startedAt = now();
    await input.onStarted?.({ name: CI_CONFIG_CHECK, startedAt });
    const result: CheckResult = {
      name: CI_CONFIG_CHECK,
      state: "failure",
      exitCode: null,
      output: `${error.message}\n`,
      startedAt,
      completedAt: now(),
    };
    await input.onCompleted?.(result);
    return [result];
  }
  if (config === null) return [];
  const rerun = { all: false };
  const settled = await Promise.allSettled(
    config.checks.map((check) => runOneCheck(deps, input, sha, check, now, rerun)),
  );
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === "rejected");
  if (failed !== undefined) throw failed.reason;
  // A retry rule in pipeline mode: every check of the commit runs again, once per decision.
  if (rerun.all && !input.signal?.aborted) return runCommitChecks(deps, input);
  return settled.map((s) => (s as PromiseFulfilledResult<CheckResult>).value);
}

async function runOneCheck(
  deps: CiRunnerDeps,
  input: RunChecksInput,
  sha: Sha,
  check: CiCheck,
  now: () => Date,
  rerun: { all: boolean },
): Promise<CheckResult> {
  for (;;) {
    const result = await runOneCheckOnce(deps, input, sha, check, now);
    if (result.state === "success" || result.state === "cancelled" || input.retry === undefined) return result;
    const mode = await input.retry(result);
    if (mode === null || input.signal?.aborted) return result;
    if (mode === "pipeline") {
      rerun.all = true;
      return result;
    }
  }
}

async function runOneCheckOnce(
  deps: CiRunnerDeps,
  input: RunChecksInput,
  sha: Sha,
  check: CiCheck,
  now: () => Date,
): Promise<CheckResult> {
  let release: (() => void) | null = null;
  try {
    release = await deps.slots.acquire(input.signal);
  } catch {
    const result: CheckResult = {
      name: check.name,
      state: "cancelled",
      exitCode: null,
      output: "[yardmaster: cancelled before it started]\n",
      startedAt: null,
      completedAt: now(),
    };
    await input.onCompleted?.(result);
    return result;
  }
  let result: CheckResult;
  try {
    const startedAt = now();
    await input.onStarted?.({ name: check.name, startedAt });
    const { state, exitCode, output } = await runInWorktree(deps, input, sha, check);
    result = { name: check.name, state, exitCode, output, startedAt, completedAt: now() };
  } finally {
    release();
  }
  await input.onCompleted?.(result);
  return result;
}

async function runInWorktree(
  deps: CiRunnerDeps,
  input: RunChecksInput,
  sha: Sha,
  check: CiCheck,
): Promise<Pick<CheckResult, "state" | "exitCode" | "output">> {
  if (input.signal?.aborted)
    return { state: "cancelled", exitCode: null, output: "[yardmaster: cancelled before it started]\n" };
  let worktree;
  try {
    worktree = await createWorktree(input.repo, sha, deps.tempRoot ?? tmpdir());
  } catch (error) {
    const cause = isForgeError(error) && error.cause instanceof Error ? `\n${error.cause.message}` : "";
    return {
      state: "error",
      exitCode: null,
      output: `[yardmaster: ${error instanceof Error ? error.message : String(error)}]${cause}\n`,
    };
  }
  let outcome: CommandOutcome;
  let problem: string | null = null;
  try {
    outcome = await runCommand({
      run: check.run,
      cwd: worktree.dir,
      env: { ...(deps.baseEnv ?? passedEnvironment()), CI: "true", YARDMASTER_SHA: sha, YARDMASTER_CHECK: check.name },
      timeoutMs: (check.timeoutSeconds ?? deps.defaultTimeoutSeconds ?? 3600) * 1000,
      outputLimitBytes: deps.outputLimitBytes ?? DEFAULT_OUTPUT_LIMIT_BYTES,
      killGraceMs: deps.killGraceMs ?? 5000,
      signal: input.signal,
    });
  } catch (error) {
    await worktree.remove();
    throw error;
  }
  let state: CheckResultState =
    outcome.ending === "exited"
      ? outcome.exitCode === 0
        ? "success"
        : "failure"
      : outcome.ending === "spawn_failed" || outcome.ending === "lost"
        ? "error"
        : outcome.ending;
  let notes = "";
  if (check.reports.length > 0 && input.reports && state !== "cancelled") {
    try {
      const { files, notes: left } = await readReportFiles(worktree.dir, check.reports);
      const verdict = await input.reports({ check: check.name, state, exitCode: outcome.exitCode, files, notes: left });
      if (verdict.onlyQuarantinedFailures && state === "failure") state = "success";
      notes = verdict.lines.map((l) => `[yardmaster: ${l}]\n`).join("");
    } catch (error) {
      notes = `[yardmaster: the test reports were not stored: ${error instanceof Error ? error.message : String(error)}]\n`;
    }
  }
  problem = await worktree.remove();
  const output = `${outcome.output}${notes}${problem === null ? "" : `[yardmaster: ${problem}]\n`}`;
  return { state, exitCode: outcome.exitCode, output };
}

function passedEnvironment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_VARIABLES) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return env;
}
