/**
 * The App's own check runs that a branch requires (docs/github.md "Landing a batch", the "Yardmaster" check). The queue's
 * summary check ("Yardmaster") stays in progress while a pull request is queued and concludes after
 * the merge; a branch that requires it would refuse every merge the queue makes. So, just before
 * a landing, each required check the App itself posts on the commit being landed is concluded
 * `success` ("Merging"): the queue's own checks passed, which is what that check reports.
 * Nothing is read when the branch requires none of the App's check names.
 */
import type { Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import type { RequiredCheck } from "./landing-rules.js";
import type { RepoParams } from "./repo-name.js";

/**
 * Concludes, on `sha`, the App's check runs among `required` whose name is in `ownNames`.
 * @returns the names concluded now
 */
export async function concludeOwnRequiredChecks(
  gh: GithubOctokit,
  params: RepoParams,
  sha: Sha,
  required: readonly RequiredCheck[],
  own: { appId: number; names: readonly string[] },
): Promise<string[]> {
  const names = required
    .filter((c) => own.names.includes(c.context) && (c.appId === null || c.appId === own.appId))
    .map((c) => c.context);
  if (names.length === 0) return [];
  const { data } = await gh.rest.checks.listForRef({
    ...params,
    ref: sha,
    app_id: own.appId,
    filter: "latest",
    per_page: 100,
  });
  const concluded: string[] = [];
  for (const name of names) {
    const run = data.check_runs.find((r) => r.name === name);
    if (run && run.status === "completed" && run.conclusion === "success") continue;
    const output = {
      title: "Merging",
      summary: "The merge queue's checks passed: the merge queue is landing this commit.",
    };
    if (run) {
      await gh.rest.checks.update({
        ...params,
        check_run_id: run.id,
        status: "completed",
        conclusion: "success",
        output,
      });
    } else {
      await gh.rest.checks.create({
        ...params,
        name,
        head_sha: sha,
        status: "completed",
        conclusion: "success",
        output,
      });
    }
    concluded.push(name);
  }
  return concluded;
}
