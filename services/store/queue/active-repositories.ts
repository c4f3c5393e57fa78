/**
 * The repositories reconciliation looks at (docs/github.md "Reconciliation"): those with pull
 * requests in the queue or batches in their state, with pull requests waiting to enter
 * (`queue_requests`), or whose state changed since `since` (a repository whose pull request rules
 * act without a queue). Times are passed in (UTC), never read from the clock here.
 */
import type pg from "pg";

/** Repository names, sorted. */
export async function activeRepositories(db: pg.Pool | pg.ClientBase, since: Date): Promise<string[]> {
  const res = await db.query<{ repository: string }>(
    `SELECT repository FROM queue_states
      WHERE state->'pulls' <> '{}'::jsonb
         OR jsonb_array_length(coalesce(state->'trains', '[]'::jsonb)) > 0
         OR updated_at >= $1::timestamptz
     UNION
     SELECT DISTINCT repository FROM queue_requests
     ORDER BY repository`,
    [since],
  );
  return res.rows.map((r) => r.repository);
}
