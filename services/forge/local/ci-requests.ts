/**
 * Asking the local CI to run a commit's checks (docs/local-forge.md "CI jobs"): inside a write,
 * a durable job is queued with one pending check run per check of `.yardmaster/ci.yml` at that
 * commit (so `check-pending` holds at once), older jobs of the same branch are cancelled
 * (superseded: the branch moved), and the worker is woken after the commit.
 */
import { localForgeStore as store } from "../../store/index.js";
import { CI_CONFIG_CHECK, CiConfigError, loadCiConfig } from "./ci/index.js";
import type { BareRepo } from "./git/index.js";
import { LOCAL_CI_APP } from "./core.js";
import type { WriteContext } from "./write-context.js";

/** How a write reaches the running CI worker, if any (set once the worker exists). */
export interface CiSignals {
  /** A job was queued: claim it soon. */
  kick(): void;
  /** These jobs were cancelled: stop them if they run here. */
  cancelled(jobIds: readonly number[]): void;
}

/** A CI request. */
export interface CheckRequest {
  sha: string;
  /** The branch whose next move supersedes this job; null for a bare commit. */
  branch: string | null;
  /** Why (kept on the job): "pull request opened", "speculative branch", "ci run"... */
  reason: string;
  /**
   * An explicit re-run: runs even when the commit's checks ran already, and cancels the
   * commit's queued and running jobs first. Otherwise a commit whose job is queued, running or
   * done is not run again.
   */
  rerun?: boolean;
}

/**
 * The check names a commit declares: its CI file's checks in order, `yardmaster/ci-config` when
 * the file does not parse, none when there is no file.
 */
export async function declaredChecks(git: BareRepo, sha: string): Promise<string[]> {
  try {
    const config = await loadCiConfig(git, sha);
    return config === null ? [] : config.checks.map((c) => c.name);
  } catch (error) {
    if (error instanceof CiConfigError) return [CI_CONFIG_CHECK];
    throw error;
  }
}

/**
 * Cancels the queued and running jobs of `branch` other than those of `keepSha`, marks their
 * unfinished check runs cancelled (emitting checks_changed), and stops them after the commit.
 */
export async function cancelSupersededJobs(
  ctx: WriteContext,
  signals: CiSignals,
  branch: string,
  keepSha: string | null,
): Promise<void> {
  const ids = await store.cancelCiJobsOfBranch(ctx.client, ctx.repo.id, branch, keepSha, ctx.now);
  await afterCancel(ctx, signals, ids);
}

async function afterCancel(ctx: WriteContext, signals: CiSignals, ids: number[]): Promise<void> {
  if (ids.length === 0) return;
  for (const sha of await store.cancelCheckRunsOfCiJobs(ctx.client, ids, ctx.now))
    ctx.emit({ kind: "checks_changed", repo: ctx.repo.fullName, sha });
  ctx.afterCommit(() => signals.cancelled(ids));
}

/**
 * Queues a CI job for a commit (see {@link CheckRequest}).
 * @returns the job id and its check names; jobId null when nothing was queued (no checks declared,
 *   or the commit's checks already ran and this is not a re-run)
 * @throws ForgeError not_found when the commit does not exist
 */
export async function requestChecks(
  ctx: WriteContext,
  signals: CiSignals,
  request: CheckRequest,
): Promise<{ jobId: number | null; checks: string[] }> {
  if (request.branch !== null)
    await cancelSupersededJobs(ctx, signals, request.branch, request.rerun ? null : request.sha);
  if (request.rerun)
    await afterCancel(ctx, signals, await store.cancelCiJobsOfCommit(ctx.client, ctx.repo.id, request.sha, ctx.now));
  const checks = await declaredChecks(ctx.git, request.sha);
  if (checks.length === 0) return { jobId: null, checks };
  if (!request.rerun && (await store.hasLiveCiJob(ctx.client, ctx.repo.id, request.sha)))
    return { jobId: null, checks };
  const jobId = await store.insertCiJob(ctx.client, {
    repositoryId: ctx.repo.id,
    sha: request.sha,
    branch: request.branch,
    reason: request.reason,
    now: ctx.now,
  });
  for (const name of checks) {
    await store.insertCheckRun(ctx.client, {
      repositoryId: ctx.repo.id,
      sha: request.sha,
      name,
      state: "pending",
      description: "queued",
      detailsUrl: null,
      app: LOCAL_CI_APP,
      output: "",
      ciJobId: jobId,
      startedAt: null,
      completedAt: null,
      now: ctx.now,
    });
  }
  ctx.emit({ kind: "checks_changed", repo: ctx.repo.fullName, sha: request.sha });
  ctx.afterCommit(() => signals.kick());
  return { jobId, checks };
}
