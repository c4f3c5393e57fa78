/**
 * Pull requests of the local forge (`local_forge_pull_requests`, migration 0003). Authors and
 * mergers are users; the head SHA is kept equal to the head branch by the forge, which moves both
 * in one transaction. docs/local-forge.md "Tables".
 */
import { num, type Queryable } from "./queryable.js";

/** State of a pull request. */
export type PullState = "open" | "closed" | "merged";

/** One pull request, with its author's and merger's logins. Times are UTC. */
export interface PullRequestRow {
  id: number;
  repositoryId: number;
  number: number;
  title: string;
  body: string;
  author: { id: number; login: string; kind: "User" | "Bot" };
  headBranch: string;
  baseBranch: string;
  headSha: string;
  /** Base tip when it was closed or merged; null while open. */
  closedBaseSha: string | null;
  state: PullState;
  draft: boolean;
  locked: boolean;
  mergedBy: string | null;
  mergeCommitSha: string | null;
  milestone: string | null;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
  mergedAt: Date | null;
}

const SELECT = `SELECT p.id, p.repository_id, p.number, p.title, p.body, p.author_id, a.login AS author_login, a.kind AS author_kind,
  p.head_branch, p.base_branch, p.head_sha, p.closed_base_sha, p.state, p.draft, p.locked, m.login AS merged_by,
  p.merge_commit_sha, p.milestone, p.created_at, p.updated_at, p.closed_at, p.merged_at
  FROM local_forge_pull_requests p
  JOIN local_forge_users a ON a.id = p.author_id
  LEFT JOIN local_forge_users m ON m.id = p.merged_by_id`;

// biome-ignore lint/suspicious/noExplicitAny: a database row as node-postgres returns it; toRow reads its columns by name and types them
const toRow = (r: any): PullRequestRow => ({
  id: num(r.id),
  repositoryId: num(r.repository_id),
  number: num(r.number),
  title: r.title,
  body: r.body,
  author: { id: num(r.author_id), login: r.author_login, kind: r.author_kind },
  headBranch: r.head_branch,
  baseBranch: r.base_branch,
  headSha: r.head_sha,
  closedBaseSha: r.closed_base_sha,
  state: r.state,
  draft: r.draft,
  locked: r.locked,
  mergedBy: r.merged_by,
  mergeCommitSha: r.merge_commit_sha,
  milestone: r.milestone,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  closedAt: r.closed_at,
  mergedAt: r.merged_at,
});

/** Input of {@link insertPullRequest}. */
export interface NewPullRequest {
  repositoryId: number;
  number: number;
  title: string;
  body: string;
  authorId: number;
  headBranch: string;
  baseBranch: string;
  headSha: string;
  draft: boolean;
  now: Date;
}

/** Inserts an open pull request. @returns its id */
export async function insertPullRequest(q: Queryable, p: NewPullRequest): Promise<number> {
  const res = await q.query(
    `INSERT INTO local_forge_pull_requests
       (repository_id, number, title, body, author_id, head_branch, base_branch, head_sha, state, draft, created_at, updated_at)
     VALUES ($1::bigint, $2::bigint, $3::text, $4::text, $5::bigint, $6::text, $7::text, $8::text, 'open', $9::boolean, $10::timestamptz, $10::timestamptz)
     RETURNING id`,
    [p.repositoryId, p.number, p.title, p.body, p.authorId, p.headBranch, p.baseBranch, p.headSha, p.draft, p.now],
  );
  return num(res.rows[0].id);
}

/** Pull request `number` of a repository, or null. */
export async function findPullRequest(
  q: Queryable,
  repositoryId: number,
  number: number,
): Promise<PullRequestRow | null> {
  const res = await q.query(`${SELECT} WHERE p.repository_id = $1::bigint AND p.number = $2::bigint`, [
    repositoryId,
    number,
  ]);
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/**
 * Pull requests of a repository.
 * @param filter.state only this state (default: every state)
 * @param filter.order by number: "asc" oldest first, "desc" newest first
 */
export async function listPullRequests(
  q: Queryable,
  repositoryId: number,
  filter: { state?: PullState; order: "asc" | "desc" },
): Promise<PullRequestRow[]> {
  const order = filter.order === "asc" ? "ASC" : "DESC";
  const res = await q.query(
    `${SELECT} WHERE p.repository_id = $1::bigint AND ($2::text IS NULL OR p.state = $2::text) ORDER BY p.number ${order}`,
    [repositoryId, filter.state ?? null],
  );
  return res.rows.map(toRow);
}

/** Open pull requests whose head branch is `branch`, oldest first. */
export async function openPullsWithHead(q: Queryable, repositoryId: number, branch: string): Promise<PullRequestRow[]> {
  const res = await q.query(
    `${SELECT} WHERE p.repository_id = $1::bigint AND p.state = 'open' AND p.head_branch = $2::text ORDER BY p.number`,
    [repositoryId, branch],
  );
  return res.rows.map(toRow);
}

/** Open pull requests whose base branch is `branch`, oldest first. */
export async function openPullsWithBase(q: Queryable, repositoryId: number, branch: string): Promise<PullRequestRow[]> {
  const res = await q.query(
    `${SELECT} WHERE p.repository_id = $1::bigint AND p.state = 'open' AND p.base_branch = $2::text ORDER BY p.number`,
    [repositoryId, branch],
  );
  return res.rows.map(toRow);
}

/** Records a new head SHA (a push to the head branch). */
export async function setPullRequestHead(q: Queryable, id: number, headSha: string, now: Date): Promise<void> {
  await q.query(
    "UPDATE local_forge_pull_requests SET head_sha = $2::text, updated_at = $3::timestamptz WHERE id = $1::bigint",
    [id, headSha, now],
  );
}

/**
 * Changes the title, the body and/or the base branch (an absent field keeps its value). The row
 * keeps nothing else about the base while open (`closed_base_sha` is set only on closing), so
 * reads follow the new base's tip at once.
 * @returns true when something changed
 */
export async function editPullRequest(
  q: Queryable,
  id: number,
  input: { title?: string; body?: string; base?: string; now: Date },
): Promise<boolean> {
  const res = await q.query(
    `UPDATE local_forge_pull_requests
     SET title = coalesce($2::text, title), body = coalesce($3::text, body), base_branch = coalesce($4::text, base_branch), updated_at = $5::timestamptz
     WHERE id = $1::bigint AND (title IS DISTINCT FROM coalesce($2::text, title) OR body IS DISTINCT FROM coalesce($3::text, body)
       OR base_branch IS DISTINCT FROM coalesce($4::text, base_branch))`,
    [id, input.title ?? null, input.body ?? null, input.base ?? null, input.now],
  );
  return res.rowCount === 1;
}

/** Bumps `updated_at` (a label, review or comment changed the pull request). */
export async function touchPullRequest(q: Queryable, id: number, now: Date): Promise<void> {
  await q.query("UPDATE local_forge_pull_requests SET updated_at = $2::timestamptz WHERE id = $1::bigint", [id, now]);
}

/**
 * Closes an open pull request without merging it, freezing its base at `baseSha`.
 * @returns true when it was open
 */
export async function closePullRequestRow(
  q: Queryable,
  id: number,
  input: { baseSha: string; now: Date },
): Promise<boolean> {
  const res = await q.query(
    `UPDATE local_forge_pull_requests SET state = 'closed', closed_base_sha = $2::text, closed_at = $3::timestamptz, updated_at = $3::timestamptz
     WHERE id = $1::bigint AND state = 'open'`,
    [id, input.baseSha, input.now],
  );
  return res.rowCount === 1;
}

/**
 * Marks an open pull request merged.
 * @param input.baseSha the base tip before the merge (the diff stays the pull request's own)
 * @returns true when it was open
 */
export async function markPullRequestMerged(
  q: Queryable,
  id: number,
  input: { baseSha: string; mergeCommitSha: string; mergedById: number; now: Date },
): Promise<boolean> {
  const res = await q.query(
    `UPDATE local_forge_pull_requests SET state = 'merged', closed_base_sha = $2::text, merge_commit_sha = $3::text, merged_by_id = $4::bigint,
       merged_at = $5::timestamptz, closed_at = $5::timestamptz, updated_at = $5::timestamptz
     WHERE id = $1::bigint AND state = 'open'`,
    [id, input.baseSha, input.mergeCommitSha, input.mergedById, input.now],
  );
  return res.rowCount === 1;
}
