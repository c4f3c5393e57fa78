/**
 * Test quarantines (`ci_quarantines`, migration 0013; docs/ci-insights.md "Quarantine"): one per
 * repository and test name. Writes take the caller's transaction, so that the quarantine and its
 * log event (the outbox) commit together. Times are UTC.
 */
import type pg from "pg";

/** Health of a test when it was quarantined. */
export type HealthStatus = "healthy" | "flaky" | "broken";

/** One quarantine. */
export interface QuarantineRow {
  id: string;
  repository: string;
  testName: string;
  testId: string | null;
  reason: string;
  /** Null: every branch. */
  branch: string | null;
  source: "manual" | "auto";
  assignee: string | null;
  expiresAt: Date | null;
  healthStatusAtEvent: HealthStatus;
  isRecovered: boolean;
  createdAt: Date;
}

const COLUMNS =
  "id, repository, test_name, test_id, reason, branch, source, assignee, expires_at, health_status_at_event, is_recovered, created_at";

// biome-ignore lint/suspicious/noExplicitAny: a database row as node-postgres returns it; toRow reads its columns by name and types them
const toRow = (r: any): QuarantineRow => ({
  id: r.id,
  repository: r.repository,
  testName: r.test_name,
  testId: r.test_id,
  reason: r.reason,
  branch: r.branch,
  source: r.source,
  assignee: r.assignee,
  expiresAt: r.expires_at,
  healthStatusAtEvent: r.health_status_at_event,
  isRecovered: r.is_recovered,
  createdAt: r.created_at,
});

/**
 * Inserts a quarantine unless the test has one.
 * @returns the row, or null when the repository already quarantines this test name
 */
export async function insertQuarantine(client: pg.ClientBase, row: QuarantineRow): Promise<QuarantineRow | null> {
  const res = await client.query(
    `INSERT INTO ci_quarantines (${COLUMNS})
     VALUES ($1::uuid, $2::text, $3::text, $4::uuid, $5::text, $6::text, $7::text, $8::text, $9::timestamptz, $10::text, $11::boolean, $12::timestamptz)
     ON CONFLICT (repository, test_name) DO NOTHING RETURNING ${COLUMNS}`,
    [
      row.id,
      row.repository,
      row.testName,
      row.testId,
      row.reason,
      row.branch,
      row.source,
      row.assignee,
      row.expiresAt,
      row.healthStatusAtEvent,
      row.isRecovered,
      row.createdAt,
    ],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/** The repository's quarantines, oldest first. */
export async function listQuarantines(db: pg.Pool | pg.ClientBase, repository: string): Promise<QuarantineRow[]> {
  const res = await db.query(
    `SELECT ${COLUMNS} FROM ci_quarantines WHERE repository = $1::text ORDER BY created_at, id`,
    [repository],
  );
  return res.rows.map(toRow);
}

/** The quarantine of a test name, if any. */
export async function findQuarantineByName(
  db: pg.Pool | pg.ClientBase,
  repository: string,
  testName: string,
): Promise<QuarantineRow | null> {
  const res = await db.query(
    `SELECT ${COLUMNS} FROM ci_quarantines WHERE repository = $1::text AND test_name = $2::text`,
    [repository, testName],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/**
 * The quarantines in force on `branch` among `names`: those of every branch and those of this one.
 * @returns the quarantined names (a subset of `names`)
 */
export async function quarantinedAmong(
  db: pg.Pool | pg.ClientBase,
  repository: string,
  names: readonly string[],
  branch: string,
): Promise<QuarantineRow[]> {
  if (names.length === 0) return [];
  const res = await db.query(
    `SELECT ${COLUMNS} FROM ci_quarantines
     WHERE repository = $1::text AND test_name = ANY($2::text[]) AND (branch IS NULL OR branch = $3::text)`,
    [repository, names, branch],
  );
  return res.rows.map(toRow);
}

/**
 * Deletes a quarantine (locked first, so that two deletions cannot both log it).
 * @returns the deleted row, or null when the repository has no quarantine with this id
 */
export async function deleteQuarantine(
  client: pg.ClientBase,
  repository: string,
  id: string,
): Promise<QuarantineRow | null> {
  const res = await client.query(
    `DELETE FROM ci_quarantines WHERE repository = $1::text AND id = $2::uuid RETURNING ${COLUMNS}`,
    [repository, id],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/**
 * Claims quarantines whose expiry passed (any repository), locked for the caller's transaction,
 * skipping those another transaction holds.
 */
export async function expiredQuarantines(client: pg.ClientBase, now: Date, limit: number): Promise<QuarantineRow[]> {
  const res = await client.query(
    `SELECT ${COLUMNS} FROM ci_quarantines WHERE expires_at IS NOT NULL AND expires_at <= $1::timestamptz
     ORDER BY expires_at LIMIT $2::int FOR UPDATE SKIP LOCKED`,
    [now, limit],
  );
  return res.rows.map(toRow);
}

/** Sets `is_recovered` on the given quarantines of a repository. */
export async function markRecovered(
  db: pg.Pool | pg.ClientBase,
  repository: string,
  ids: readonly string[],
  recovered: boolean,
): Promise<void> {
  if (ids.length === 0) return;
  await db.query(
    "UPDATE ci_quarantines SET is_recovered = $3::boolean WHERE repository = $1::text AND id = ANY($2::uuid[])",
    [repository, ids, recovered],
  );
}

/** Repositories with at least one quarantine (for the recovery sweep). */
export async function repositoriesWithQuarantines(db: pg.Pool | pg.ClientBase): Promise<string[]> {
  const res = await db.query<{ repository: string }>("SELECT DISTINCT repository FROM ci_quarantines");
  return res.rows.map((r) => r.repository);
}

/** Quarantined tests per repository (the `/metrics` gauge). */
export async function quarantineCounts(db: pg.Pool | pg.ClientBase): Promise<{ source: string; count: number }[]> {
  const res = await db.query<{ source: string; count: string }>(
    "SELECT source, count(*)::text AS count FROM ci_quarantines GROUP BY source",
  );
  return res.rows.map((r) => ({ source: r.source, count: Number(r.count) }));
}
