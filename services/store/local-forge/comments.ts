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
export async function insertComment(
  q: Queryable,
  input: { pullRequestId: number; authorId: number; body: string; now: Date },
): Promise<number> {
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

/** The id of the oldest comment on a pull request by `authorId` whose body contains `text`; null when none. */
export async function findCommentContaining(
  q: Queryable,
  input: { pullRequestId: number; authorId: number; text: string },
): Promise<number | null> {
  const res = await q.query(
    `SELECT id FROM local_forge_comments
     WHERE pull_request_id = $1::bigint AND author_id = $2::bigint AND strpos(body, $3::text) > 0 ORDER BY id LIMIT 1`,
    [input.pullRequestId, input.authorId, input.text],
  );
  return res.rows.length === 0 ? null : num(res.rows[0].id);
}
