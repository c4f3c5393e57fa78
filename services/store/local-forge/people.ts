/**
 * Assignees and requested reviewers of a pull request (`local_forge_assignees`,
 * `local_forge_requested_reviewers`, migration 0003), as logins.
 */
import type { Queryable } from "./queryable.js";

/** Logins assigned to a pull request, sorted. */
export async function assigneesOfPullRequest(q: Queryable, pullRequestId: number): Promise<string[]> {
  const res = await q.query(
    "SELECT u.login FROM local_forge_assignees a JOIN local_forge_users u ON u.id = a.user_id WHERE a.pull_request_id = $1::bigint ORDER BY lower(u.login)",
    [pullRequestId],
  );
  return res.rows.map((r) => r.login as string);
}

/** Logins whose review is requested on a pull request, sorted. */
export async function requestedReviewersOfPullRequest(q: Queryable, pullRequestId: number): Promise<string[]> {
  const res = await q.query(
    "SELECT u.login FROM local_forge_requested_reviewers r JOIN local_forge_users u ON u.id = r.user_id WHERE r.pull_request_id = $1::bigint ORDER BY lower(u.login)",
    [pullRequestId],
  );
  return res.rows.map((r) => r.login as string);
}

/**
 * Requests a review from a user (GitHub drops the request when that user submits a review).
 * @returns false when it was already requested
 */
export async function requestReviewer(q: Queryable, pullRequestId: number, userId: number): Promise<boolean> {
  const res = await q.query(
    "INSERT INTO local_forge_requested_reviewers (pull_request_id, user_id) VALUES ($1::bigint, $2::bigint) ON CONFLICT DO NOTHING",
    [pullRequestId, userId],
  );
  return res.rowCount === 1;
}

/** Drops the review request of a user (done when that user reviews). @returns true when there was one */
export async function dropReviewRequest(q: Queryable, pullRequestId: number, userId: number): Promise<boolean> {
  const res = await q.query(
    "DELETE FROM local_forge_requested_reviewers WHERE pull_request_id = $1::bigint AND user_id = $2::bigint",
    [pullRequestId, userId],
  );
  return res.rowCount === 1;
}
