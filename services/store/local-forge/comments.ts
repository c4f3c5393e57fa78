/** Comments on pull requests in the local forge (`local_forge_comments`, migration 0003); ids are global. */
import { num, type Queryable } from "./queryable.js";

/** One comment. */
export interface CommentRow {
  id: number;
  author: string;
  body: string;
  createdAt: Date;
}

/** Stores a comment. @returns its id */
export async function insertComment(q: Queryable, input: { pullRequestId: number; authorId: number; body: string; now: Date }): Promise<number> {
  const res = await q.query(
    "INSERT INTO local_forge_comments (pull_request_id, author_id, body, created_at) VALUES ($1::bigint, $2::bigint, $3::text, $4::timestamptz) RETURNING id",
    [input.pullRequestId, input.authorId, input.body, input.now],
  );
  return num(res.rows[0].id);
}

/** Every comment of a pull request, oldest first. */
export async function commentsOfPullRequest(q: Queryable, pullRequestId: number): Promise<CommentRow[]> {
  const res = await q.query(
    `SELECT c.id, u.login, c.body, c.created_at FROM local_forge_comments c JOIN local_forge_users u ON u.id = c.author_id
     WHERE c.pull_request_id = $1::bigint ORDER BY c.id`,
    [pullRequestId],
  );
  return res.rows.map((r) => ({ id: num(r.id), author: r.login, body: r.body, createdAt: r.created_at }));
}
