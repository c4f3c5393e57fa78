/**
 * The double's answers to `CommitChecks` and `ReconcileFacts` (services/forge/github/reconcile-reads.ts),
 * and a commit's checks in GraphQL's shape (also PullSnapshot's). ReconcileFacts: a page of 50
 * pull requests by `updated_at`, newest first (the cursor is the count already given), the tips of
 * the branches `b0`, `b1` and the check suites and statuses of the commits `c0`..`c4`, in GitHub's
 * GraphQL shapes, built from the REST answers of the same state.
 */
import { findCommit, readRef } from "../../../../services/forge/local/git/index.js";
import type { Answer, HandlerContext } from "./double-answers.js";
import { handlers } from "./double-handlers.js";
import type { DoubleRepo } from "./double-state.js";
import type { GithubDouble } from "./github-double.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** Runs one of the double's REST handlers for `repo` (the GraphQL answers are built from the same state). */
export async function rest(
  double: GithubDouble,
  repo: DoubleRepo,
  operationId: string,
  params: Record<string, string>,
  query: Record<string, string>,
  token: string,
): Promise<Answer> {
  const ctx: HandlerContext = {
    double,
    repo,
    params: { owner: repo.owner, repo: repo.name, ...params },
    query: new URLSearchParams(query),
    body: {},
    token,
  };
  return handlers[operationId](ctx);
}

/**
 * A commit's `checkSuites` and `status` (services/forge/github/graphql-checks.ts selection) from
 * the double's check runs and combined status; null for a commit the repository does not have.
 */
export async function commitChecksJson(
  double: GithubDouble,
  repo: DoubleRepo,
  sha: string,
  token: string,
): Promise<Json> {
  if (!(await findCommit(repo.git, sha))) return null;
  const page = { per_page: "100", page: "1" };
  const [runs, status] = await Promise.all([
    rest(double, repo, "checks/list-for-ref", { ref: sha }, { ...page, filter: "latest" }, token),
    rest(double, repo, "repos/get-combined-status-for-ref", { ref: sha }, page, token),
  ]);
  const suites = new Map<number, { app: Json; runs: Json[] }>();
  for (const r of runs.body.check_runs as Json[]) {
    const suite = suites.get(r.app.id) ?? { app: { databaseId: r.app.id, slug: r.app.slug }, runs: [] };
    suite.runs.push({
      name: r.name,
      status: String(r.status).toUpperCase(),
      conclusion: r.conclusion ? String(r.conclusion).toUpperCase() : null,
      title: r.output?.title ?? null,
      detailsUrl: r.details_url,
      permalink: r.html_url,
      startedAt: r.started_at,
      completedAt: r.completed_at,
    });
    suites.set(r.app.id, suite);
  }
  return {
    checkSuites: {
      pageInfo: { hasNextPage: false },
      nodes: [...suites.values()].map((s) => ({
        app: s.app,
        checkRuns: { pageInfo: { hasNextPage: Boolean(runs.headers?.link) }, nodes: s.runs },
      })),
    },
    status: {
      contexts: (status.body.statuses as Json[]).map((s) => ({
        context: s.context,
        state: String(s.state).toUpperCase(),
        description: s.description,
        targetUrl: s.target_url,
        createdAt: s.created_at,
      })),
    },
  };
}

/** `CommitChecks`: one commit's checks. */
export async function commitChecks(double: GithubDouble, v: Record<string, unknown>, token: string): Promise<Answer> {
  const repo = double.repo(String(v.owner), String(v.name));
  const commit = repo ? await commitChecksJson(double, repo, String(v.sha), token) : null;
  return { status: 200, body: { data: { repository: repo ? { commit } : null } } };
}

/** `ReconcileFacts` for the repository of `v.owner`/`v.name`. */
export async function reconcileFacts(double: GithubDouble, v: Record<string, unknown>, token: string): Promise<Answer> {
  const repo = double.repo(String(v.owner), String(v.name));
  if (!repo) {
    return {
      status: 200,
      body: {
        data: { repository: null },
        errors: [{ type: "NOT_FOUND", path: ["repository"], message: "Could not resolve to a Repository" }],
      },
    };
  }
  const start = v.after ? Number(v.after) : 0;
  const list = await rest(
    double,
    repo,
    "pulls/list",
    {},
    { state: "all", sort: "updated", direction: "desc", per_page: "50", page: String(start / 50 + 1) },
    token,
  );
  const items = list.body as Json[];
  const end = start + items.length;
  const more = Boolean(list.headers?.link);
  const out: Record<string, unknown> = {
    pullRequests: {
      pageInfo: { hasNextPage: more, endCursor: more ? String(end) : null },
      nodes: items.map((p) => {
        const pull = repo.pull(p.number)!;
        return {
          number: p.number,
          state: pull.mergedAt ? "MERGED" : p.state === "open" ? "OPEN" : "CLOSED",
          baseRefName: p.base.ref,
          headRefOid: p.head.sha,
          updatedAt: p.updated_at,
          mergeCommit: pull.mergedAt && pull.mergeCommitSha ? { oid: pull.mergeCommitSha } : null,
          title: p.title,
          body: p.body ?? "",
          isDraft: p.draft,
          locked: p.locked,
          labels: { nodes: p.labels.map((l: Json) => ({ name: l.name })) },
          assignees: { nodes: p.assignees.map((a: Json) => ({ login: a.login })) },
          reviewRequests: {
            nodes: [
              ...p.requested_reviewers.map((u: Json) => ({ requestedReviewer: { login: u.login } })),
              ...p.requested_teams.map((t: Json) => ({ requestedReviewer: { slug: t.slug } })),
            ],
          },
          milestone: p.milestone ? { title: p.milestone.title } : null,
        };
      }),
    },
  };
  for (const k of ["b0", "b1"]) {
    const tip = await readRef(repo.git, String(v[k]));
    out[k] = tip ? { target: { oid: tip } } : null;
  }
  for (const k of ["c0", "c1", "c2", "c3", "c4"])
    out[k] = v[k] ? await commitChecksJson(double, repo, String(v[k]), token) : null;
  return { status: 200, body: { data: { repository: out } } };
}
