/** The configuration file last read per repository (`repository_configurations`). */
import type pg from "pg";

/**
 * The configuration file last read for a repository: its path and text (both null when it has
 * none), the SHA-256 of the text (hex), and when it was read (UTC).
 */
export interface StoredConfigFile {
  path: string | null;
  text: string | null;
  textSha: string | null;
  readAt: Date;
}

/** The file last read for a repository, or null when none was ever recorded. */
export async function getStoredConfig(
  db: pg.Pool | pg.ClientBase,
  repository: string,
): Promise<StoredConfigFile | null> {
  const res = await db.query(
    "SELECT path, text, text_sha, read_at FROM repository_configurations WHERE repository = $1::text",
    [repository],
  );
  const r = res.rows[0];
  return r ? { path: r.path, text: r.text, textSha: r.text_sha, readAt: r.read_at } : null;
}

/** Records the file read now (null fields: the repository has no configuration file). */
export async function putStoredConfig(
  db: pg.Pool | pg.ClientBase,
  repository: string,
  file: { path: string | null; text: string | null; textSha: string | null },
): Promise<void> {
  await db.query(
    `INSERT INTO repository_configurations (repository, path, text, text_sha, read_at) VALUES ($1::text, $2::text, $3::text, $4::text, now())
     ON CONFLICT (repository) DO UPDATE SET path = EXCLUDED.path, text = EXCLUDED.text, text_sha = EXCLUDED.text_sha, read_at = now()`,
    [repository, file.path, file.text, file.textSha],
  );
}
