/**
 * The tables of merge protections (docs/merge-protections.md "How it runs"): the check last
 * reported per pull request, and each pull request's `Depends-On:` dependencies, looked up in
 * reverse when a pull request merges or closes. Every function runs on the caller's client (the
 * round's transaction), except {@link lastProtectionReport}, which also takes the pool.
 */
import type pg from "pg";

/** The merge protections check last reported on a pull request. */
export interface ProtectionReport {
  headSha: string;
  conclusion: "success" | "failure" | "pending";
  title: string;
  summary: string;
  /** How many reports were decided on this pull request (the last one's idempotency key). */
  seq: number;
}

/** The report last decided on pull request `number`, or null. */
export async function lastProtectionReport(
  db: pg.Pool | pg.ClientBase,
  repository: string,
  number: number,
): Promise<ProtectionReport | null> {
  const res = await db.query<{ head_sha: string; conclusion: string; title: string; summary: string; seq: number }>(
    `SELECT head_sha, conclusion, title, summary, seq FROM merge_protection_reports
      WHERE repository = $1::text AND number = $2::bigint`,
    [repository, number],
  );
  const r = res.rows[0];
  if (!r) return null;
  return {
    headSha: r.head_sha,
    conclusion: r.conclusion as ProtectionReport["conclusion"],
    title: r.title,
    summary: r.summary,
    seq: r.seq,
  };
}

/** Records the report decided now on pull request `number` (insert or replace). */
export async function saveProtectionReport(
  client: pg.ClientBase,
  repository: string,
  number: number,
  report: ProtectionReport,
): Promise<void> {
  await client.query(
    `INSERT INTO merge_protection_reports (repository, number, head_sha, conclusion, title, summary, seq)
     VALUES ($1::text, $2::bigint, $3::text, $4::text, $5::text, $6::text, $7::integer)
     ON CONFLICT (repository, number) DO UPDATE SET head_sha = EXCLUDED.head_sha, conclusion = EXCLUDED.conclusion,
       title = EXCLUDED.title, summary = EXCLUDED.summary, seq = EXCLUDED.seq, updated_at = now()`,
    [repository, number, report.headSha, report.conclusion, report.title, report.summary, report.seq],
  );
}

/** Replaces the dependencies of pull request `number` (`repository` of each: "owner/name"). */
export async function replaceProtectionDependencies(
  client: pg.ClientBase,
  repository: string,
  number: number,
  dependencies: readonly { repository: string; number: number }[],
): Promise<void> {
  await client.query("DELETE FROM merge_protection_dependencies WHERE repository = $1::text AND number = $2::bigint", [
    repository,
    number,
  ]);
  if (dependencies.length === 0) return;
  await client.query(
    `INSERT INTO merge_protection_dependencies (repository, number, dependency_repository, dependency_number)
     SELECT $1::text, $2::bigint, d.repository, d.number
       FROM unnest($3::text[], $4::bigint[]) AS d(repository, number)
     ON CONFLICT DO NOTHING`,
    [repository, number, dependencies.map((d) => d.repository.toLowerCase()), dependencies.map((d) => d.number)],
  );
}

/** The pull requests whose `Depends-On:` names pull request `number` of `repository` (any repository). */
export async function protectionDependents(
  client: pg.ClientBase,
  repository: string,
  number: number,
): Promise<{ repository: string; number: number }[]> {
  const res = await client.query<{ repository: string; number: string }>(
    `SELECT repository, number FROM merge_protection_dependencies
      WHERE dependency_repository = $1::text AND dependency_number = $2::bigint ORDER BY repository, number`,
    [repository.toLowerCase(), number],
  );
  return res.rows.map((r) => ({ repository: r.repository, number: Number(r.number) }));
}
