/**
 * ForgePort.rerunChecks on GitHub (docs/github.md "Operations"): the failed jobs of the GitHub
 * Actions workflow runs behind the named check runs of a commit run again.
 * - `GET /repos/{owner}/{repo}/commits/{ref}/check-runs?filter=latest`: the commit's latest check
 *   runs; those named and not successful give their check suite;
 * - `GET /repos/{owner}/{repo}/actions/runs?head_sha=`: the workflow runs of the commit; each whose
 *   `check_suite_id` is one of those suites
 * - `POST /repos/{owner}/{repo}/actions/runs/{run_id}/rerun-failed-jobs`
 *   (<https://docs.github.com/en/rest/actions/workflow-runs#re-run-failed-jobs-from-a-workflow-run>;
 *   the App needs "Actions: write").
 * A check run that no workflow run holds (another CI posts it) cannot be re-run from here: not_found
 * when none could be.
 */
import { ForgeError, type Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import type { RepoParams } from "./repo-name.js";

const UNSUCCESSFUL = new Set(["failure", "timed_out", "cancelled", "action_required", "startup_failure"]);

/** Re-runs the failed jobs of the workflow runs behind `checks` at `headSha`; returns the run ids. */
export async function rerunFailedJobs(
  gh: GithubOctokit,
  p: RepoParams,
  input: { headSha: Sha; checks: string[] },
): Promise<number[]> {
  const runs = await gh.paginate(gh.rest.checks.listForRef, {
    ...p,
    ref: input.headSha,
    filter: "latest",
    per_page: 100,
  });
  const suites = new Set(
    runs
      .filter((r) => input.checks.includes(r.name) && r.status === "completed" && UNSUCCESSFUL.has(r.conclusion ?? ""))
      .map((r) => r.check_suite?.id)
      .filter((id): id is number => typeof id === "number"),
  );
  if (suites.size === 0)
    throw new ForgeError("not_found", `no failed check run ${input.checks.join(", ")} on ${input.headSha}`);
  const { data } = await gh.rest.actions.listWorkflowRunsForRepo({ ...p, head_sha: input.headSha, per_page: 100 });
  const targets = data.workflow_runs.filter((w) => suites.has(w.check_suite_id ?? -1)).map((w) => w.id);
  if (targets.length === 0)
    throw new ForgeError(
      "not_found",
      `no GitHub Actions workflow run holds ${input.checks.join(", ")} on ${input.headSha}: only Actions jobs can be re-run`,
    );
  for (const run_id of targets) await gh.rest.actions.reRunWorkflowFailedJobs({ ...p, run_id });
  return targets;
}
