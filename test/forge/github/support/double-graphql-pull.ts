/**
 * The GitHub test double's answer to `PullSnapshot` (services/forge/github/pull-graphql.ts): one
 * pull request in GraphQL's shapes (https://docs.github.com/en/graphql/reference/objects#pullrequest),
 * built from the REST answers of the same state so both APIs agree: its attributes from `pulls/get`
 * (`mergeable` MERGEABLE / CONFLICTING / UNKNOWN, `mergeStateStatus` the upper-cased
 * `mergeable_state`: https://docs.github.com/en/graphql/reference/enums#mergeablestate and
 * #mergestatestatus; labels without a numeric id, as GraphQL's `Label` has none), a page of files,
 * commits, reviews and threads (`hasNextPage` when the REST list has more), the last commit (the
 * head) with its check suites and statuses, and `baseRef.compare(headRef:)` resolved as a ref of
 * the base repository (`refs/pull/<n>/head`, which GitHub keeps for every pull request:
 * https://docs.github.com/en/pull-requests/collaborating-with-pull-requests/reviewing-changes-in-pull-requests/checking-out-pull-requests-locally).
 */
import { commitsBehind, findCommit, readRef } from "../../../../services/forge/local/git/index.js";
import type { Answer } from "./double-answers.js";
import { commitChecksJson, rest } from "./double-graphql-reconcile.js";
import { once } from "./double-memo.js";
import type { GithubDouble } from "./github-double.js";

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

const page = <T>(nodes: T[]) => ({ pageInfo: { hasNextPage: false }, nodes });

/** The PullRequest fields of pull-facts.ts from the REST pull request `p`. */
function pullFactsJson(p: Json): Json {
  const merged = Boolean(p.merged || p.merged_at);
  return {
    number: p.number,
    title: p.title,
    body: p.body ?? "",
    url: p.html_url,
    state: merged ? "MERGED" : String(p.state).toUpperCase(),
    merged,
    mergedAt: p.merged_at,
    closedAt: p.closed_at,
    createdAt: p.created_at,
    updatedAt: p.updated_at,
    isDraft: Boolean(p.draft),
    locked: p.locked,
    additions: p.additions,
    deletions: p.deletions,
    mergeable: p.mergeable === true ? "MERGEABLE" : p.mergeable === false ? "CONFLICTING" : "UNKNOWN",
    mergeStateStatus: String(p.mergeable_state ?? "unknown").toUpperCase(),
    baseRefName: p.base.ref,
    baseRefOid: p.base.sha,
    headRefName: p.head.ref,
    headRefOid: p.head.sha,
    author: p.user ? { login: p.user.login, databaseId: p.user.id } : null,
    headRepository: p.head.repo ? { nameWithOwner: p.head.repo.full_name } : null,
    headRepositoryOwner: { login: String(p.head.label).split(":")[0] },
    mergeCommit: merged && p.merge_commit_sha ? { oid: p.merge_commit_sha } : null,
    mergedBy: p.merged_by ? { login: p.merged_by.login } : null,
    milestone: p.milestone ? { title: p.milestone.title } : null,
    labels: page((p.labels as Json[]).map((l) => ({ name: l.name, color: l.color, isDefault: l.default }))),
    assignees: page(((p.assignees ?? []) as Json[]).map((a) => ({ login: a.login }))),
    reviewRequests: page([
      ...((p.requested_reviewers ?? []) as Json[]).map((u) => ({ requestedReviewer: { login: u.login } })),
      ...((p.requested_teams ?? []) as Json[]).map((t) => ({ requestedReviewer: { slug: t.slug } })),
    ]),
  };
}

/** `PullSnapshot` for pull request `v.number` of `v.owner`/`v.name`. */
export async function pullSnapshot(double: GithubDouble, v: Record<string, unknown>, token: string): Promise<Answer> {
  const repo = double.repo(String(v.owner), String(v.name));
  const pull = repo?.pull(Number(v.number));
  if (!repo || !pull) {
    return {
      status: 200,
      body: {
        data: { repository: repo ? { nameWithOwner: repo.fullName, pullRequest: null } : null },
        errors: [{ type: "NOT_FOUND", path: ["repository"], message: "Could not resolve to a PullRequest" }],
      },
    };
  }
  const n = { pull_number: String(pull.number) };
  const pages = { per_page: "100", page: "1" };
  const more = (a: Answer) => Boolean(a.headers?.link);
  // The pull request first: its read is what moves a head GitHub updates in the background (update-branch).
  const facts = (await rest(double, repo, "pulls/get", n, {}, token)).body as Json;
  const head = String(facts.head.sha);
  const [files, commits, reviews, headChecks] = await Promise.all([
    rest(double, repo, "pulls/list-files", n, pages, token),
    rest(double, repo, "pulls/list-commits", n, pages, token),
    rest(double, repo, "pulls/list-reviews", n, pages, token),
    commitChecksJson(double, repo, head, token),
  ]);
  const allThreads = repo.threads.get(pull.number) ?? [];
  const threads = {
    pageInfo: { hasNextPage: allThreads.length > 100 },
    nodes: allThreads.slice(0, 100).map((t) => ({ isResolved: t.isResolved, comments: { nodes: [{ body: t.body }] } })),
  };
  const baseTip = await readRef(repo.git, `refs/heads/${facts.base.ref}`);
  const compareHead = await readRef(repo.git, String(v.pullRef));
  const compare =
    baseTip && compareHead && (await findCommit(repo.git, compareHead))
      ? {
          behindBy: await once(`behind ${repo.git.gitDir} ${baseTip} ${compareHead}`, () =>
            commitsBehind(repo.git, baseTip, compareHead),
          ),
          headTarget: { oid: compareHead },
        }
      : null;
  return {
    status: 200,
    body: {
      data: {
        repository: {
          nameWithOwner: repo.fullName,
          pullRequest: {
            ...pullFactsJson(facts),
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
            head: { nodes: headChecks ? [{ commit: { oid: head, ...headChecks } }] : [] },
            baseRef: baseTip ? { target: { oid: baseTip }, compare } : null,
          },
        },
      },
    },
  };
}
