/**
 * The GitHub test double's GraphQL endpoint (`POST /graphql`): the queries the adapter makes,
 * recognised by their exact text, answered from the double's state as GitHub's schema shapes them
 * (the adapter's queries are themselves validated against GitHub's public schema,
 * `@octokit/graphql-schema`, in octokit-fixtures.test.ts). An unknown query is a problem of the test.
 */
import { PULL_SNAPSHOT_QUERY } from "../../../../services/forge/github/pull-graphql.js";
import { UPDATE_REFS_MUTATION } from "../../../../services/forge/github/ref-updates.js";
import { COMMIT_CHECKS_QUERY, RECONCILE_QUERY } from "../../../../services/forge/github/reconcile-reads.js";
import { REVIEW_THREADS_QUERY } from "../../../../services/forge/github/review-threads.js";
import type { Answer } from "./double-answers.js";
import { pullSnapshot } from "./double-graphql-pull.js";
import { commitChecks, reconcileFacts } from "./double-graphql-reconcile.js";
import { updateRefsAnswer } from "./double-graphql-refs.js";
import type { GithubDouble } from "./github-double.js";

type GraphqlBody = { query?: string; variables?: Record<string, unknown> } | undefined;

/** Answers one GraphQL request (authentication: an installation token the double issued). */
export async function answerGraphql(double: GithubDouble, body: GraphqlBody, authorization: string): Promise<Answer> {
  const token = authorization.split(" ")[1] ?? "";
  if (!double.isInstallationToken(token)) return { status: 401, body: { message: "Bad credentials" } };
  if (body?.query === REVIEW_THREADS_QUERY) return reviewThreads(double, body.variables ?? {});
  if (body?.query === PULL_SNAPSHOT_QUERY) return pullSnapshot(double, body.variables ?? {}, token);
  if (body?.query === RECONCILE_QUERY) return reconcileFacts(double, body.variables ?? {}, token);
  if (body?.query === COMMIT_CHECKS_QUERY) return commitChecks(double, body.variables ?? {}, token);
  if (body?.query === UPDATE_REFS_MUTATION) return updateRefsAnswer(double, body.variables ?? {}, token);
  double.problems.push(`POST /graphql: unexpected query ${String(body?.query).slice(0, 80)}`);
  return { status: 200, body: { errors: [{ type: "INVALID", message: "unexpected query" }] } };
}

function reviewThreads(double: GithubDouble, v: Record<string, unknown>): Answer {
  for (const name of ["owner", "name", "number"])
    if (v[name] === undefined) double.problems.push(`POST /graphql: variable ${name} missing`);
  const repo = double.repo(String(v.owner), String(v.name));
  if (!repo || !repo.pull(Number(v.number))) {
    return {
      status: 200,
      body: {
        data: { repository: repo ? { pullRequest: null } : null },
        errors: [{ type: "NOT_FOUND", path: ["repository"], message: "Could not resolve to a PullRequest" }],
      },
    };
  }
  const all = repo.threads.get(Number(v.number)) ?? [];
  const start = v.cursor ? Number(v.cursor) : 0;
  const page = all.slice(start, start + 100);
  const end = start + page.length;
  return {
    status: 200,
    body: {
      data: {
        repository: {
          pullRequest: {
            reviewThreads: {
              pageInfo: { hasNextPage: end < all.length, endCursor: end < all.length ? String(end) : null },
              nodes: page.map((t) => ({ isResolved: t.isResolved, comments: { nodes: [{ body: t.body }] } })),
            },
          },
        },
      },
    },
  };
}
