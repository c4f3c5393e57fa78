/** Reviews of pull requests in the local forge (`local_forge_reviews`, migration 0003). */
import { num, type Queryable } from "./queryable.js";

/** Review states as GitHub names them. */
export type LocalReviewState = "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED";

/** One submitted review. */
export interface ReviewRow {
  id: number;
  author: string;
  state: LocalReviewState;
  body: string;
  /** The head SHA it was given on. */
  commitSha: string;
  submittedAt: Date;
}

/** Stores a review. @returns its id */
export async function insertReview(
  q: Queryable,
  input: {
    pullRequestId: number;
    authorId: number;
    state: LocalReviewState;
    body: string;
    commitSha: string;
    now: Date;
  },
): Promise<number> {
  const res = await q.query(
    `INSERT INTO local_forge_reviews (pull_request_id, author_id, state, body, commit_sha, submitted_at)
     VALUES ($1::bigint, $2::bigint, $3::text, $4::text, $5::text, $6::timestamptz) RETURNING id`,
    [input.pullRequestId, input.authorId, input.state, input.body, input.commitSha, input.now],
  );
  return num(res.rows[0].id);
}

/** Every review of a pull request, oldest first. */
export async function reviewsOfPullRequest(q: Queryable, pullRequestId: number): Promise<ReviewRow[]> {
  const res = await q.query(
    `SELECT r.id, u.login, r.state, r.body, r.commit_sha, r.submitted_at FROM local_forge_reviews r JOIN local_forge_users u ON u.id = r.author_id
     WHERE r.pull_request_id = $1::bigint ORDER BY r.id`,
    [pullRequestId],
  );
  return res.rows.map((r) => ({
    id: num(r.id),
    author: r.login,
    state: r.state,
    body: r.body,
    commitSha: r.commit_sha,
    submittedAt: r.submitted_at,
  }));
}
