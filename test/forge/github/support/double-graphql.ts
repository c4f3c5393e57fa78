/**
 * The GitHub test double's GraphQL endpoint (`POST /graphql`): the queries the adapter makes,
 * recognised by their exact text, answered from the double's state as GitHub's schema shapes them
 * (the adapter's queries are themselves validated against GitHub's public schema,
 * `@octokit/graphql-schema`, in octokit-fixtures.test.ts). An unknown query is a problem of the test.
 */
import { PULL_SNAPSHOT_QUERY } from "../../../../services/forge/github/pull-graphql.js";
import { COMMIT_CHECKS_QUERY, RECONCILE_QUERY } from "../../../../services/forge/github/reconcile-reads.js";
import { REVIEW_THREADS_QUERY } from "../../../../services/forge/github/review-threads.js";
import { commitsBehind, findCommit, readRef } from "../../../../services/forge/local/git/index.js";
import type { Answer } from "./double-answers.js";
import { commitChecks, commitChecksJson, reconcileFacts, rest } from "./double-graphql-reconcile.js";
import { once } from "./double-memo.js";
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

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const PATCH_STATUS: Record<string, string> = {
  added: "ADDED",
  removed: "DELETED",
  modified: "MODIFIED",
  renamed: "RENAMED",
  copied: "COPIED",
  changed: "CHANGED",
};

/**
 * `PullSnapshot` (services/forge/github/pull-graphql.ts): the pull request's files, commits,
 * reviews and threads, the head commit's check suites and statuses, the base ref and its
 * comparison with the head, each a page of GitHub's GraphQL shapes built from the REST answers of
 * the same state (`hasNextPage` when the REST list has more than the page).
 */
async function pullSnapshot(double: GithubDouble, v: Record<string, unknown>, token: string): Promise<Answer> {
  const repo = double.repo(String(v.owner), String(v.name));
  const pull = repo?.pull(Number(v.number));
  if (!repo || !pull) {
    return {
      status: 200,
      body: {
        data: { repository: repo ? { pullRequest: null, head: null, base: null } : null },
        errors: [{ type: "NOT_FOUND", path: ["repository"], message: "Could not resolve to a PullRequest" }],
      },
    };
  }
  const n = { pull_number: String(pull.number) };
  const page = { per_page: "100", page: "1" };
  const more = (a: Answer) => Boolean(a.headers?.link);
  const head = String(v.head);
  const [files, commits, reviews, headChecks] = await Promise.all([
    rest(double, repo, "pulls/list-files", n, page, token),
    rest(double, repo, "pulls/list-commits", n, page, token),
    rest(double, repo, "pulls/list-reviews", n, page, token),
    commitChecksJson(double, repo, head, token),
  ]);
  const threads = reviewThreads(double, { owner: v.owner, name: v.name, number: v.number }).body.data.repository
    .pullRequest.reviewThreads;
  const baseRef = String(v.baseRef);
  const baseTip = baseRef.startsWith("refs/heads/") ? await readRef(repo.git, baseRef) : null;
  const headOid = String(v.headRef);
  const compare =
    baseTip && (await findCommit(repo.git, headOid))
      ? {
          behindBy: await once(`behind ${repo.git.gitDir} ${baseTip} ${headOid}`, () =>
            commitsBehind(repo.git, baseTip, headOid),
          ),
        }
      : null;
  return {
    status: 200,
    body: {
      data: {
        repository: {
          pullRequest: {
            files: {
              pageInfo: { hasNextPage: more(files) },
              nodes: (files.body as Json[]).map((f) => ({ path: f.filename, changeType: PATCH_STATUS[f.status] })),
            },
            commits: {
              pageInfo: { hasNextPage: more(commits) },
              nodes: (commits.body as Json[]).map((c) => ({
                commit: {
                  oid: c.sha,
                  message: c.commit.message,
                  author: { name: c.commit.author?.name ?? null, date: c.commit.author?.date ?? null },
                  committer: { name: c.commit.committer?.name ?? null, date: c.commit.committer?.date ?? null },
                  parents: { nodes: (c.parents as Json[]).map((p) => ({ oid: p.sha })) },
                  signature: c.commit.verification?.verified ? { isValid: true } : null,
                },
              })),
            },
            reviews: {
              pageInfo: { hasNextPage: more(reviews) },
              nodes: (reviews.body as Json[]).map((r) => ({
                state: r.state,
                submittedAt: r.submitted_at ?? null,
                author: r.user ? { login: r.user.login } : null,
              })),
            },
            reviewThreads: threads,
          },
          head: headChecks,
          base: baseTip ? { target: { oid: baseTip }, compare } : null,
        },
      },
    },
  };
}
