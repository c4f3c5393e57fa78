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
 * - `flakyTestsTouched`: the files of its diff that are the file of a test known flaky on its base
 *   branch (CI Insights' health `flaky`, the "known flaky" of the queue's verdicts), read only when
 *   its queue rule has `risk_aware_batching`, from the list CI Insights keeps (the `flakyTests`
 *   reader services/main wires); 0 when the rule is off, CI Insights is off, or the read fails or
 *   takes longer than {@link FLAKY_READ_TIMEOUT_MS} (logged): entering never waits on ClickHouse.
 */
import type { Logger } from "pino";
import { isFailureCheckState, type PullRequestSnapshot } from "../config/index.js";
import { normaliseTestPath, type FlakyTestFilesQuery } from "../ci-insights/index.js";
import type { RiskSignals } from "../engine/index.js";
import { foreign } from "./reconciliation-facts.js";

/**
 * Reads the normalised files (no leading `./`) of the tests known flaky on a base branch; null
 * when CI Insights is off for the repository. Rejects when CI Insights cannot answer.
 */
export type FlakyTestFilesReader = (query: FlakyTestFilesQuery) => Promise<ReadonlySet<string> | null>;

/** The longest an enqueue waits for the known flaky tests, ms (then 0 is counted, logged). */
export const FLAKY_READ_TIMEOUT_MS = 2000;

/**
 * The files of `diff` (paths as the forge lists them) that are in `flakyFiles` (normalised), each
 * file counted once however it is spelled (`./a` = `a`) and however many flaky tests it holds.
 */
export function countFlakyTestsTouched(diff: readonly string[], flakyFiles: ReadonlySet<string>): number {
  if (flakyFiles.size === 0) return 0;
  let n = 0;
  for (const file of new Set(diff.map(normaliseTestPath))) if (flakyFiles.has(file)) n++;
  return n;
}

/**
 * `flakyTestsTouched` of `pr` (see the module header): 0 without a reader, with CI Insights off,
 * or when the read fails or exceeds `timeoutMs` (a warning; CI Insights off: a debug line). Never
 * rejects.
 */
export async function flakyTestsTouched(
  read: FlakyTestFilesReader | null,
  input: { repository: string; pr: PullRequestSnapshot; log: Logger; timeoutMs?: number },
): Promise<number> {
  const { repository, pr, log } = input;
  if (read === null || pr.files.length === 0) return 0;
  const where = { repository, pull_request: pr.number, base_branch: pr.base };
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), input.timeoutMs ?? FLAKY_READ_TIMEOUT_MS);
  });
  try {
    const files = await Promise.race([read({ repository, baseBranch: pr.base }), timeout]);
    if (files === "timeout") {
      log.warn(where, "known flaky tests not read in time; the pull request enters counting none");
      return 0;
    }
    if (files === null) {
      log.debug(where, "CI Insights is off; no known flaky tests counted");
      return 0;
    }
    return countFlakyTestsTouched(pr.files, files);
  } catch (err) {
    log.warn({ ...where, err }, "known flaky tests not read; the pull request enters counting none");
    return 0;
  } finally {
    clearTimeout(timer);
  }
}

/** The risk signals of `pr` (shape: engine RiskSignals; counts, never negative). */
export function riskSignalsOf(pr: PullRequestSnapshot, flakyTouched = 0): RiskSignals {
  return {
    ownCiFailures: foreign(pr.checks).filter((c) => isFailureCheckState(c.state)).length,
    flakyTestsTouched: flakyTouched,
    changedFiles: pr.files.length,
    changedLines: Math.max(0, pr.addedLines) + Math.max(0, pr.deletedLines),
  };
}
