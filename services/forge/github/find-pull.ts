/**
 * Finding a pull request by its branches on GitHub: `GET /repos/{owner}/{repo}/pulls` filtered by
 * `head` (`owner:branch`, a branch of the repository itself) and `base`
 * (https://docs.github.com/en/rest/pulls/pulls#list-pull-requests). One request, no snapshot.
 */
import type { GithubOctokit } from "./client.js";
import type { RepoParams } from "./repo-name.js";

/** The number of the open pull request from `head` into `base`, or null. @throws the Octokit error */
export async function findOpenPull(
  gh: GithubOctokit,
  params: RepoParams,
  head: string,
  base: string,
): Promise<number | null> {
  const { data } = await gh.rest.pulls.list({
    ...params,
    state: "open",
    head: `${params.owner}:${head}`,
    base,
    per_page: 1,
  });
  return data[0]?.number ?? null;
}
