/**
 * Review threads of a pull request, resolved and unresolved (`review-threads-resolved` /
 * `review-threads-unresolved`, docs/domain.md §2.2): each thread is named by the body of its
 * first comment, as Mergify does. The REST API does not expose thread resolution, so this is the
 * one GraphQL query of the adapter (docs/github.md "Pull request attributes").
 */
import type { GithubOctokit } from "./client.js";
import type { RepoParams } from "./repo-name.js";

/** The query, exported so the GitHub test double can recognise it. */
export const REVIEW_THREADS_QUERY = `query ReviewThreads($owner: String!, $name: String!, $number: Int!, $cursor: String) {
  repository(owner: $owner, name: $name) {
    pullRequest(number: $number) {
      reviewThreads(first: 100, after: $cursor) {
        pageInfo { hasNextPage endCursor }
        nodes { isResolved comments(first: 1) { nodes { body } } }
      }
    }
  }
}`;

interface ThreadsPage {
  repository: {
    pullRequest: {
      reviewThreads: {
        pageInfo: { hasNextPage: boolean; endCursor: string | null };
        nodes: { isResolved: boolean; comments: { nodes: { body: string }[] } }[];
      };
    } | null;
  } | null;
}

/** At most this many pages of 100 threads are read (10,000 threads). */
const MAX_PAGES = 100;

/**
 * Reads every review thread of a pull request.
 * @returns the first-comment bodies of resolved and of unresolved threads, in GitHub's order
 * @throws the GraphQL client's error (the caller maps it with errors.ts)
 */
export async function readReviewThreads(
  gh: GithubOctokit,
  repo: RepoParams,
  number: number,
): Promise<{ resolved: string[]; unresolved: string[] }> {
  const resolved: string[] = [],
    unresolved: string[] = [];
  let cursor: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const data: ThreadsPage = await gh.graphql<ThreadsPage>(REVIEW_THREADS_QUERY, {
      owner: repo.owner,
      name: repo.repo,
      number,
      cursor,
    });
    const threads = data.repository?.pullRequest?.reviewThreads;
    if (!threads) break;
    for (const t of threads.nodes) (t.isResolved ? resolved : unresolved).push(t.comments.nodes[0]?.body ?? "");
    if (!threads.pageInfo.hasNextPage || !threads.pageInfo.endCursor) break;
    cursor = threads.pageInfo.endCursor;
  }
  return { resolved, unresolved };
}
