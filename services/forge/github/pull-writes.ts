/**
 * Writing pull requests (ForgePort.openDraftPullRequest, updatePullRequest, closePullRequest).
 * A draft is opened with `POST .../pulls` and `draft: true`; where GitHub does not offer drafts
 * (private repositories on some plans answer 422 "Draft pull requests are not supported"), a
 * regular pull request is opened instead, as the check still runs on it (docs/github.md
 * "Known differences"). Edits and closing are `PATCH .../pulls/{n}`.
 */
import { ForgeError } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubMessage, githubStatus } from "./errors.js";
import type { RepoParams } from "./repo-name.js";

/**
 * Opens a draft pull request from `head` into `base`.
 * @returns its number
 */
export async function openDraft(
  gh: GithubOctokit,
  params: RepoParams,
  input: { head: string; base: string; title: string; body: string },
): Promise<number> {
  if (input.title.trim() === "") throw new ForgeError("invalid", "title: a pull request needs a title");
  const body = { ...params, head: input.head, base: input.base, title: input.title, body: input.body };
  try {
    const { data } = await gh.rest.pulls.create({ ...body, draft: true });
    return data.number;
  } catch (e) {
    if (githubStatus(e) !== 422 || !/draft/i.test(githubMessage(e))) throw e;
    const { data } = await gh.rest.pulls.create(body);
    return data.number;
  }
}

/** Edits the title and/or body; nothing to change is no request at all. */
export async function editPull(
  gh: GithubOctokit,
  params: RepoParams,
  number: number,
  input: { title?: string; body?: string },
): Promise<void> {
  if (input.title === undefined && input.body === undefined) return;
  if (input.title !== undefined && input.title.trim() === "")
    throw new ForgeError("invalid", "title: a pull request needs a title");
  await gh.rest.pulls.update({
    ...params,
    pull_number: number,
    ...(input.title !== undefined ? { title: input.title } : {}),
    ...(input.body !== undefined ? { body: input.body } : {}),
  });
}

/**
 * Closes a pull request without merging it. Closing a closed one is harmless, and so is closing a
 * merged one (the batch's pull request after it landed), which GitHub answers 422.
 */
export async function closePull(gh: GithubOctokit, params: RepoParams, number: number): Promise<void> {
  try {
    await gh.rest.pulls.update({ ...params, pull_number: number, state: "closed" });
  } catch (e) {
    if (githubStatus(e) !== 422) throw e;
    const { data } = await gh.rest.pulls.get({ ...params, pull_number: number });
    if (data.state === "open") throw e;
  }
}
