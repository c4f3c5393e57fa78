/**
 * CI Insights' job retry rules on GitHub Actions (docs/ci-insights.md "Job retries", docs/github.md
 * "Webhooks"). A `workflow_run` completed without success (webhook-events.ts) has its failed jobs
 * read (`GET {r}/actions/runs/{run_id}/attempts/{attempt}/jobs`, every page: the jobs of that
 * attempt with their id, name, conclusion and URL); each is handed to the retry decision with the
 * workflow's name as its pipeline, the run's branch and head SHA, and its log read only if a rule
 * asks (job-logs.ts). GitHub re-runs only a completed run, so the decision waits for the run as a
 * whole, as Mergify's auto-retry does. The failed jobs are decided in GitHub's order until one is
 * retried (job-reruns.ts): a `pipeline` decision re-runs the whole run, a `job` decision its job
 * (and the jobs that need it). That re-run makes the run's next attempt, which holds the other
 * failed jobs with their result: they are decided when it completes, so a decision is counted only
 * when it can be acted on.
 * A re-run GitHub refuses is logged and not thrown: the decision was counted and logged already.
 * Each decision carries the job's check run and the run's attempt as its idempotency key: a
 * delivery processed again (redelivered after a failure part-way, or twice) gets the decision
 * taken before without counting it again, and its re-run is made only if the run is still at that
 * attempt (the first processing stopped before the re-run, or GitHub refused it).
 */
import type { RepoName } from "../types.js";
import { createGithubAppClient, type GithubAppClient, type GithubAppOptions, type GithubLogger } from "./client.js";
import { readJobLogTail } from "./job-logs.js";
import { currentAttempt, rerunJob, rerunWorkflowRun } from "./job-reruns.js";
import { repoParams } from "./repo-name.js";
import type { CompletedWorkflowRun } from "./workflow-run.js";

/** A finished GitHub Actions job, as the retry decision reads it. */
export interface GithubFinishedJob {
  repository: RepoName;
  /** The workflow's name. */
  pipeline: string;
  /** The job's name (its check run's). */
  job: string;
  branch: string;
  headSha: string;
  /** failure, timed_out or cancelled. */
  conclusion: string;
  /** The end of the job's log (job-logs.ts), read when called. */
  log: () => Promise<string>;
  workflowRunId: number;
  jobUrl: string | null;
  /** The decision's idempotency key: the check run (the job's id) and the run's attempt. */
  decisionKey: string;
}

/** CI Insights' retry decision, as the GitHub adapter asks it. */
export interface GithubJobRetryHook {
  /** Whether `repository` retries jobs at all (CI Insights on, a rule): else its runs cost no request. */
  wanted(repository: RepoName): Promise<boolean>;
  /**
   * Decides whether a failed job is retried, and how (`decideRetry`); null: not retried.
   * `replayed`: the decision was taken for this job and attempt before (`decisionKey`), counted then.
   */
  decide(job: GithubFinishedJob): Promise<{ mode: "job" | "pipeline"; replayed: boolean } | null>;
}

/** What was done for one completed run. */
export interface RunRetryOutcome {
  /** The failed jobs read, by name (none when the repository retries nothing). */
  failedJobs: string[];
  /** The re-run made: none, one job (by name), or the whole run. */
  rerun: { kind: "none" } | { kind: "job"; job: string } | { kind: "run" };
}

/** Job conclusions a retry rule may match (GitHub's; `error` exists only on the local CI). */
const RETRYABLE = new Set(["failure", "timed_out", "cancelled"]);
/** Failed jobs of one run handed to the decision at most (a matrix of hundreds is cut here). */
export const MAX_JOBS_PER_RUN = 50;

/**
 * The handler of completed workflow runs for `client`'s installations.
 * @param fetchFn the client's fetch (for the logs' signed URLs)
 */
export function githubJobRetries(
  client: Pick<GithubAppClient, "forRepo">,
  fetchFn: typeof fetch,
  decide: GithubJobRetryHook,
  log: GithubLogger,
): (run: CompletedWorkflowRun) => Promise<RunRetryOutcome> {
  return async (run) => {
    if (!(await decide.wanted(run.repo))) return { failedJobs: [], rerun: { kind: "none" } };
    const gh = await client.forRepo(run.repo);
    const p = repoParams(run.repo);
    const jobs = await gh.paginate(gh.rest.actions.listJobsForWorkflowRunAttempt, {
      ...p,
      run_id: run.runId,
      attempt_number: run.attempt,
      per_page: 100,
    });
    const failed = jobs.filter((j) => j.status === "completed" && RETRYABLE.has(j.conclusion ?? ""));
    let rerun: RunRetryOutcome["rerun"] = { kind: "none" };
    for (const j of failed.slice(0, MAX_JOBS_PER_RUN)) {
      const decision = await decide.decide({
        repository: run.repo,
        pipeline: run.workflow,
        job: j.name,
        branch: run.branch,
        headSha: run.headSha,
        conclusion: j.conclusion!,
        log: () => readJobLogTail(gh, fetchFn, p, j.id),
        workflowRunId: run.runId,
        jobUrl: j.html_url ?? null,
        decisionKey: `github:check-run:${j.id}:attempt:${run.attempt}`,
      });
      if (decision === null) continue;
      const mode = decision.mode;
      rerun = mode === "pipeline" ? { kind: "run" } : { kind: "job", job: j.name };
      try {
        // A decision taken before (a redelivery): re-run only if its re-run was never made (the
        // first processing failed before it, or GitHub refused it), i.e. the run is still at this attempt.
        if (decision.replayed && (await currentAttempt(gh, p, run.runId)) !== run.attempt) {
          rerun = { kind: "none" };
          break;
        }
        if (mode === "pipeline") await rerunWorkflowRun(gh, p, run.runId);
        else await rerunJob(gh, p, j.id);
      } catch (e) {
        log.error(
          { err: e, repository: run.repo, run: run.runId, job: j.name, mode },
          `GitHub refused the re-run of workflow run ${run.runId} that a retry rule decided; the decision stays logged`,
        );
      }
      break;
    }
    const failedJobs = failed.map((j) => j.name);
    return { failedJobs, rerun };
  };
}

const SILENT: GithubLogger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The job retries of the App `opts` describes (its own installation clients), for the webhook
 * route's `workflowRuns`.
 * @throws ForgeError invalid when the app id or private key is malformed
 */
export function createGithubJobRetries(
  opts: GithubAppOptions,
  decide: GithubJobRetryHook,
): (run: CompletedWorkflowRun) => Promise<RunRetryOutcome> {
  return githubJobRetries(createGithubAppClient(opts), opts.fetch ?? globalThis.fetch, decide, opts.log ?? SILENT);
}
