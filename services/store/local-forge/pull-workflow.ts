/**
 * Writes of workflow automation on local pull requests (docs/workflow-automation.md): assignees,
 * review dismissals, the draft flag (migration 0003's tables).
 */
import type { Queryable } from "./queryable.js";

/** Assigns a user. @returns false when already assigned */
export async function addAssignee(q: Queryable, pullRequestId: number, userId: number): Promise<boolean> {
  const res = await q.query(
    "INSERT INTO local_forge_assignees (pull_request_id, user_id) VALUES ($1::bigint, $2::bigint) ON CONFLICT DO NOTHING",
    [pullRequestId, userId],
  );
  return res.rowCount === 1;
}

/** Unassigns a user by login (case-insensitive). @returns false when not assigned */
export async function removeAssignee(q: Queryable, pullRequestId: number, login: string): Promise<boolean> {
  const res = await q.query(
    `DELETE FROM local_forge_assignees a USING local_forge_users u
     WHERE a.pull_request_id = $1::bigint AND a.user_id = u.id AND lower(u.login) = lower($2::text)`,
    [pullRequestId, login],
  );
  return (res.rowCount ?? 0) > 0;
}

/**
 * Dismisses every review in `states` (latest per user or not: all of them, as dismissing on GitHub
 * leaves no approval behind). @returns the logins whose reviews were dismissed, sorted, each once
 */
export async function dismissReviewsInStates(
  q: Queryable,
  pullRequestId: number,
  states: readonly string[],
): Promise<string[]> {
  const res = await q.query(
    `UPDATE local_forge_reviews r SET state = 'DISMISSED' FROM local_forge_users u
     WHERE r.pull_request_id = $1::bigint AND r.author_id = u.id AND r.state = ANY($2::text[])
     RETURNING u.login`,
    [pullRequestId, states],
  );
  return [...new Set(res.rows.map((r) => r.login as string))].sort();
}

/** Sets the draft flag. @returns true when it changed */
export async function setPullRequestDraft(q: Queryable, id: number, draft: boolean, now: Date): Promise<boolean> {
  const res = await q.query(
    "UPDATE local_forge_pull_requests SET draft = $2::boolean, updated_at = $3::timestamptz WHERE id = $1::bigint AND draft <> $2::boolean",
    [id, draft, now],
  );
  return res.rowCount === 1;
}
