/**
 * GitHub JSON objects for the test double's answers, each built from the example GitHub's OpenAPI
 * description gives for that answer, with the fields the test state decides replaced. Where an
 * example lacks a property its own schema requires, the property is added (the double's answers
 * are checked against the schemas, so the examples' gaps would otherwise fail every test).
 */
import type { CommitDetails } from "../../../../services/forge/local/git/index.js";
import { GithubOpenApi } from "./openapi.js";
import type { DoublePull, DoubleRepo } from "./double-state.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

const api = () => GithubOpenApi.load();
const API = "https://api.github.com";

const iso = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, "Z");

/** A simple-user object for `login`. */
export function userJson(login: string, id: number, type = "User"): Json {
  const u = api().example("pulls/get", 200).user;
  return {
    ...u,
    login,
    id,
    type,
    node_id: `U_${id}`,
    url: `${API}/users/${login}`,
    html_url: `https://github.com/${login}`,
  };
}

/** A team-simple/team object. */
export function teamJson(slug: string, id: number): Json {
  const t = structuredClone(api().example("pulls/get", 200).requested_teams[0]);
  return { ...t, id, slug, name: slug, type: "organization", parent: null };
}

/** A label object. */
export function labelJson(l: { id: number; name: string; color: string; default: boolean }): Json {
  const t = structuredClone(api().example("pulls/get", 200).labels[0]);
  return { ...t, id: l.id, name: l.name, color: l.color, default: l.default, node_id: `LA_${l.id}` };
}

/** A repository object (the `full-repository` of `repos/get`, also used inside pull requests). */
export function repoJson(
  repo: { fullName: string; id: number; defaultBranch: string },
  permissions?: { pull: boolean; push: boolean; admin: boolean },
): Json {
  const r = api().example("repos/get", 200);
  const [owner, name] = repo.fullName.split("/");
  const out = {
    ...r,
    id: repo.id,
    node_id: `R_${repo.id}`,
    name,
    full_name: repo.fullName,
    owner: userJson(owner, repo.id + 1_000_000, "Organization"),
    default_branch: repo.defaultBranch,
    html_url: `https://github.com/${repo.fullName}`,
    url: `${API}/repos/${repo.fullName}`,
    language: r.language ?? null,
  };
  // Only forks carry their parent and source repositories.
  delete out.parent;
  delete out.source;
  if (permissions) out.permissions = { ...permissions, triage: permissions.pull, maintain: permissions.admin };
  else delete out.permissions;
  return out;
}

/** The `commit` object of the REST commits/merges/compare answers. */
export function commitJson(repoName: string, c: CommitDetails, verified = false): Json {
  const t = api().example("repos/merge", 201);
  const person = (who: CommitDetails["authorIdentity"]) => ({
    name: who.name,
    email: who.email,
    date: iso(new Date(who.timestamp * 1000)),
  });
  return {
    ...t,
    sha: c.sha,
    node_id: `C_${c.sha}`,
    url: `${API}/repos/${repoName}/commits/${c.sha}`,
    html_url: `https://github.com/${repoName}/commit/${c.sha}`,
    commit: {
      ...t.commit,
      message: c.message.replace(/\n$/, ""),
      author: person(c.authorIdentity),
      committer: person(c.committerIdentity),
      tree: { sha: c.tree, url: `${API}/repos/${repoName}/git/trees/${c.tree}` },
      verification: {
        verified,
        reason: verified ? "valid" : "unsigned",
        signature: null,
        payload: null,
        verified_at: null,
      },
    },
    author: null,
    committer: null,
    parents: c.parents.map((p) => ({
      sha: p,
      url: `${API}/repos/${repoName}/commits/${p}`,
      html_url: `https://github.com/${repoName}/commit/${p}`,
    })),
    files: [],
  };
}

/** The `git-commit` object of the Git data API. */
export function gitCommitJson(repoName: string, c: CommitDetails): Json {
  const t = api().example("git/create-commit", 201);
  const person = (who: CommitDetails["authorIdentity"]) => ({
    name: who.name,
    email: who.email,
    date: iso(new Date(who.timestamp * 1000)),
  });
  return {
    ...t,
    sha: c.sha,
    node_id: `C_${c.sha}`,
    url: `${API}/repos/${repoName}/git/commits/${c.sha}`,
    html_url: `https://github.com/${repoName}/commit/${c.sha}`,
    author: person(c.authorIdentity),
    committer: person(c.committerIdentity),
    message: c.message.replace(/\n$/, ""),
    tree: { sha: c.tree, url: `${API}/repos/${repoName}/git/trees/${c.tree}` },
    parents: c.parents.map((p) => ({
      sha: p,
      url: `${API}/repos/${repoName}/git/commits/${p}`,
      html_url: `https://github.com/${repoName}/commit/${p}`,
    })),
  };
}

/** A git-ref object. */
export function refJson(repoName: string, ref: string, sha: string): Json {
  return {
    ...api().example("git/get-ref", 200),
    ref,
    node_id: `REF_${ref}`,
    url: `${API}/repos/${repoName}/git/${ref}`,
    object: { type: "commit", sha, url: `${API}/repos/${repoName}/git/commits/${sha}` },
  };
}

/** A pull request object (`pull-request` schema; `pulls/list` items share it minus a few fields). */
export function pullJson(
  repo: DoubleRepo,
  p: DoublePull,
  headSha: string,
  baseSha: string,
  counts: { additions: number; deletions: number; changedFiles: number; commits: number },
): Json {
  const t = api().example("pulls/get", 200);
  const base = repoJson(repo);
  const head = p.fork ? repoJson({ fullName: p.fork, id: repo.id + 500, defaultBranch: "main" }) : base;
  const merged = p.mergedAt !== null;
  return {
    ...t,
    id: repo.id * 1000 + p.number,
    // Unique across the double's repositories: the GraphQL mutations find the pull request by it.
    node_id: `PR_${repo.id}_${p.number}`,
    number: p.number,
    url: `${API}/repos/${repo.fullName}/pulls/${p.number}`,
    html_url: `https://github.com/${repo.fullName}/pull/${p.number}`,
    state: p.state,
    locked: p.locked,
    title: p.title,
    body: p.body,
    user: userJson(p.author.login, p.author.id),
    labels: p.labels.map(labelJson),
    milestone: p.milestone ? { ...t.milestone, title: p.milestone } : null,
    assignee: p.assignees[0] ? userJson(p.assignees[0], 7000) : null,
    assignees: p.assignees.map((a, i) => userJson(a, 7000 + i)),
    requested_reviewers: p.requestedReviewers.map((a, i) => userJson(a, 8000 + i)),
    requested_teams: p.requestedTeams.map((s, i) => teamJson(s, 9000 + i)),
    head: {
      ...t.head,
      ref: p.headRef,
      sha: headSha,
      label: `${(p.fork ?? repo.fullName).split("/")[0]}:${p.headRef}`,
      repo: p.headRepoDeleted ? null : head,
      user: userJson((p.fork ?? repo.fullName).split("/")[0], 6000),
    },
    base: {
      ...t.base,
      ref: p.base,
      sha: baseSha,
      label: `${repo.owner}:${p.base}`,
      repo: base,
      user: userJson(repo.owner, 6001),
    },
    draft: p.draft,
    merged,
    mergeable: p.mergeable,
    mergeable_state: p.mergeableState,
    merged_by: p.mergedBy ? userJson(p.mergedBy, 6002) : null,
    merge_commit_sha: p.mergeCommitSha,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    closed_at: p.closedAt ? iso(p.closedAt) : null,
    merged_at: p.mergedAt ? iso(p.mergedAt) : null,
    additions: counts.additions,
    deletions: counts.deletions,
    changed_files: counts.changedFiles,
    commits: counts.commits,
    auto_merge: null,
  };
}

/** A check-run object. */
export function checkRunJson(
  repoName: string,
  run: {
    id: number;
    name: string;
    headSha: string;
    status: string;
    conclusion: string | null;
    title: string | null;
    summary: string | null;
    appId: number;
    appSlug: string;
    detailsUrl: string | null;
    startedAt: Date | null;
    completedAt: Date | null;
  },
): Json {
  const t = api().example("checks/create", 201);
  return {
    ...t,
    id: run.id,
    node_id: `CR_${run.id}`,
    head_sha: run.headSha,
    name: run.name,
    url: `${API}/repos/${repoName}/check-runs/${run.id}`,
    html_url: `https://github.com/${repoName}/runs/${run.id}`,
    details_url: run.detailsUrl,
    status: run.status,
    conclusion: run.conclusion,
    started_at: run.startedAt ? iso(run.startedAt) : null,
    completed_at: run.completedAt ? iso(run.completedAt) : null,
    output: { ...t.output, title: run.title, summary: run.summary, text: null },
    app: { ...t.app, id: run.appId, slug: run.appSlug, name: run.appSlug },
    pull_requests: [],
  };
}

export { iso };
