/**
 * Labels of the local forge (`local_forge_labels`, `local_forge_pull_request_labels`, migration
 * 0003): per repository, created on first use; names compare case-insensitively, as on GitHub.
 */
import { num, type Queryable } from "./queryable.js";

/** One label. `color` is 6 lowercase hex digits without `#`. */
export interface LabelRow {
  id: number;
  name: string;
  color: string;
  isDefault: boolean;
}

// biome-ignore lint/suspicious/noExplicitAny: a database row as node-postgres returns it; toRow reads its columns by name and types them
const toRow = (r: any): LabelRow => ({ id: num(r.id), name: r.name, color: r.color, isDefault: r.is_default });

/** The repository's label `name`, created with `color` when new. */
export async function ensureLabel(q: Queryable, repositoryId: number, name: string, color: string): Promise<LabelRow> {
  const res = await q.query(
    `INSERT INTO local_forge_labels (repository_id, name, color) VALUES ($1::bigint, $2::text, $3::text)
     ON CONFLICT (repository_id, (lower(name))) DO UPDATE SET name = local_forge_labels.name
     RETURNING id, name, color, is_default`,
    [repositoryId, name, color],
  );
  return toRow(res.rows[0]);
}

/** Puts a label on a pull request. @returns false when it was already there */
export async function attachLabel(q: Queryable, pullRequestId: number, labelId: number, now: Date): Promise<boolean> {
  const res = await q.query(
    `INSERT INTO local_forge_pull_request_labels (pull_request_id, label_id, added_at) VALUES ($1::bigint, $2::bigint, $3::timestamptz)
     ON CONFLICT DO NOTHING`,
    [pullRequestId, labelId, now],
  );
  return res.rowCount === 1;
}

/** Takes a label (by name, case-insensitive) off a pull request. @returns false when it was not there */
export async function detachLabel(q: Queryable, pullRequestId: number, name: string): Promise<boolean> {
  const res = await q.query(
    `DELETE FROM local_forge_pull_request_labels pl USING local_forge_labels l
     WHERE pl.pull_request_id = $1::bigint AND pl.label_id = l.id AND lower(l.name) = lower($2::text)`,
    [pullRequestId, name],
  );
  return (res.rowCount ?? 0) > 0;
}

/** The labels of a pull request, by name. */
export async function labelsOfPullRequest(q: Queryable, pullRequestId: number): Promise<LabelRow[]> {
  const res = await q.query(
    `SELECT l.id, l.name, l.color, l.is_default FROM local_forge_pull_request_labels pl JOIN local_forge_labels l ON l.id = pl.label_id
     WHERE pl.pull_request_id = $1::bigint ORDER BY lower(l.name)`,
    [pullRequestId],
  );
  return res.rows.map(toRow);
}
