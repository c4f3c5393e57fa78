/**
 * The `rerun_checks` effect (docs/merge-queue.md "Verdicts from test results"): the failed jobs of a
 * check whose failing tests are all known flaky run once more, through ForgePort.rerunChecks. Safe
 * to perform twice (docs/reliability.md "Crashes: every effect exactly once"): the check's pull
 * request is read first, and when each named check is pending again or ended after the failed run
 * it replaces (test-facts.ts isRunBefore: by the forge's clock, else after the request), the jobs
 * already run again and nothing is done; a pull request whose head moved has a new check
 * coming, and nothing is done either. A forge error that is not worth retrying becomes
 * `check_rerun_failed` (the failure stands).
 */
import type { ForgeError, ForgePort } from "../forge/index.js";
import type { EngineEffect, EngineEventInput } from "../engine/index.js";
import { isRunBefore } from "./test-facts.js";

type RerunEffect = Extract<EngineEffect, { kind: "rerun_checks" }>;

/**
 * Performs one rerun_checks effect.
 * @returns check_rerun_failed when the forge refused, else nothing (the new results come as checks)
 * @throws ForgeError transient / rate_limited (to retry)
 */
export async function performRerun(
  forge: ForgePort,
  repo: string,
  effect: RerunEffect,
  isRetryable: (e: unknown) => e is ForgeError,
): Promise<EngineEventInput[]> {
  try {
    const pr = await forge.getPullRequest(repo, effect.number);
    if (pr.headSha !== effect.headSha) return [];
    const named = pr.checks.filter((c) => effect.checks.includes(c.name));
    if (named.length > 0 && named.every((c) => !isRunBefore(c, effect))) return [];
    await forge.rerunChecks(repo, {
      headSha: effect.headSha,
      branch: effect.draftBranch ?? pr.head,
      checks: effect.checks,
    });
    return [];
  } catch (e) {
    if (isRetryable(e)) throw e;
    return [{ type: "check_rerun_failed", checkId: effect.checkId, message: (e as Error).message }];
  }
}
