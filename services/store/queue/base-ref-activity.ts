/** Base branches touched by queue activity (docs/api.md #18), recorded per minute. */
import type pg from "pg";

/**
 * Records that queue activity at `at` touched these base branches: one row per (branch, UTC minute
 * of `at`), duplicates ignored; in the caller's transaction.
 */
export async function recordBaseRefActivity(
  client: pg.ClientBase,
  repository: string,
  baseRefs: string[],
  at: Date,
): Promise<void> {
  if (baseRefs.length === 0) return;
  await client.query(
    `INSERT INTO base_ref_activity (repository, base_ref, minute)
     SELECT $1::text, b, date_trunc('minute', $3::timestamptz) FROM unnest($2::text[]) AS b ON CONFLICT DO NOTHING`,
    [repository, [...new Set(baseRefs)], at],
  );
}

/** Distinct base refs touched in [start, end], sorted. */
export async function baseRefsInWindow(db: pg.Pool, repository: string, start: Date, end: Date): Promise<string[]> {
  const res = await db.query<{ base_ref: string }>(
    `SELECT DISTINCT base_ref FROM base_ref_activity
     WHERE repository = $1::text AND minute >= date_trunc('minute', $2::timestamptz) AND minute <= $3::timestamptz ORDER BY base_ref`,
    [repository, start, end],
  );
  return res.rows.map((r) => r.base_ref);
}
