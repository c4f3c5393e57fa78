/**
 * Yardmaster's own check run on a commit (ForgePort.upsertCheckRun; the queue summary,
 * docs/merge-queue.md "Events and effects" and docs/github.md "Operations"). The App's run with
 * that name on that head SHA is looked up (`GET .../commits/{sha}/check-runs?check_name=&app_id=`)
 * and updated (`PATCH .../check-runs/{id}`), or created (`POST .../check-runs`); a first post
 * (`input.fresh`: the queue's post on entering, not a resume after a crash) is created without the lookup.
 * GitHub limits `output.summary` to 65,535 characters: a longer one is cut with a note. The adapter keeps the ids
 * of the runs it wrote, so a later update of one is a single request (docs/github.md "Request budget"). The port's `error` state
 * is posted as `failure` (GitHub has no `error` conclusion); `pending` as no conclusion.
 */
import { ForgeError, type CheckRunInput } from "../types.js";
import { githubConclusion } from "./check-states.js";
import type { GithubOctokit } from "./client.js";
import { githubStatus } from "./errors.js";
import type { RepoParams } from "./repo-name.js";

/** GitHub's limit on a check run's summary and text, in characters. */
export const MAX_SUMMARY_CHARS = 65_535;
const CUT_NOTE = "\n\n… (cut: GitHub limits a summary to 65,535 characters)";

/** The summary as GitHub accepts it. */
export function fitSummary(summary: string): string {
  return summary.length <= MAX_SUMMARY_CHARS
    ? summary
    : summary.slice(0, MAX_SUMMARY_CHARS - CUT_NOTE.length) + CUT_NOTE;
}

/**
 * Creates or updates the App's check run `input.name` on `input.headSha`. With `knownId` (the run
 * this process created or found before) it is updated without the lookup; a 404 there falls back
 * to the lookup.
 * @returns the run's id
 * @throws ForgeError invalid for a completed run without a conclusion, or an empty name
 */
export async function upsertOwnCheckRun(
  gh: GithubOctokit,
  params: RepoParams,
  appId: number,
  input: CheckRunInput,
  knownId?: number,
): Promise<number> {
  if (input.name.trim() === "") throw new ForgeError("invalid", "name: a check run needs a name");
  const conclusion = input.conclusion === null ? null : githubConclusion(input.conclusion);
  if (input.status === "completed" && conclusion === null) {
    throw new ForgeError(
      "invalid",
      `conclusion: a completed check run needs a conclusion (got ${input.conclusion ?? "null"})`,
    );
  }
  const fields = {
    status: input.status,
    ...(input.status === "completed" ? { conclusion: conclusion as "success" } : {}),
    output: { title: input.title.slice(0, 1000) || input.name, summary: fitSummary(input.summary) },
  };
  if (knownId !== undefined) {
    try {
      await gh.rest.checks.update({ ...params, check_run_id: knownId, ...fields });
      return knownId;
    } catch (e) {
      if (githubStatus(e) !== 404) throw e;
    }
  }
  // A first post has nothing to find (ForgePort's CheckRunInput.fresh): created at once.
  const existing = input.fresh
    ? undefined
    : (
        await gh.rest.checks.listForRef({
          ...params,
          ref: input.headSha,
          check_name: input.name,
          app_id: appId,
          filter: "latest",
          per_page: 1,
        })
      ).data.check_runs[0];
  if (existing) {
    await gh.rest.checks.update({ ...params, check_run_id: existing.id, ...fields });
    return existing.id;
  }
  const { data: created } = await gh.rest.checks.create({
    ...params,
    name: input.name,
    head_sha: input.headSha,
    ...fields,
  });
  return created.id;
}
