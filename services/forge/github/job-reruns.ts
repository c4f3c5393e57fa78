/**
 * The GitHub Actions re-runs of CI Insights' job retry rules (docs/ci-insights.md "Job retries",
 * docs/github.md "Operations"), each needing "Actions: write":
 * - `job` mode: `POST /repos/{owner}/{repo}/actions/jobs/{job_id}/rerun` ("re-run a job and its
 *   dependent jobs in a workflow run",
 *   <https://docs.github.com/en/rest/actions/workflow-runs#re-run-a-job-from-a-workflow-run>);
 * - `pipeline` mode: `POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun` (every job of the run,
 *   <https://docs.github.com/en/rest/actions/workflow-runs#re-run-a-workflow>).
 * Each answers 201 with an empty body; a refusal is thrown as Octokit's RequestError.
 */
import type { GithubOctokit } from "./client.js";
import type { RepoParams } from "./repo-name.js";

/** Re-runs one job (and the jobs that need it) of a completed workflow run. */
export async function rerunJob(gh: GithubOctokit, p: RepoParams, jobId: number): Promise<void> {
  await gh.rest.actions.reRunJobForWorkflowRun({ ...p, job_id: jobId });
}

/** Re-runs every job of a completed workflow run. */
export async function rerunWorkflowRun(gh: GithubOctokit, p: RepoParams, runId: number): Promise<void> {
  await gh.rest.actions.reRunWorkflow({ ...p, run_id: runId });
}

/**
 * The run's latest attempt (`GET /repos/{owner}/{repo}/actions/runs/{run_id}`, its `run_attempt`,
 * <https://docs.github.com/en/rest/actions/workflow-runs#get-a-workflow-run>): greater than a
 * completed attempt once that attempt was re-run.
 */
export async function currentAttempt(gh: GithubOctokit, p: RepoParams, runId: number): Promise<number> {
  const { data } = await gh.rest.actions.getWorkflowRun({ ...p, run_id: runId });
  return data.run_attempt ?? 1;
}
