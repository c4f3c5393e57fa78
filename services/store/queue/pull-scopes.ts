/**
 * Scopes sent by CI per pull request (`pull_request_scopes`; docs/merge-queue.md "Scopes from
 * CI"). Repository names are kept in lower case: GitHub's names compare case-insensitively.
 */
import type pg from "pg";

/** The scopes CI sent for a pull request. */
export interface SentScopes {
  /** Sorted, without duplicates. */
  scopes: string[];
  /** The pull request touches every scope (a barrier). */
  allScopes: boolean;
}

/** Replaces the scopes of pull request `number`, on the caller's client (its transaction). */
export async function putPullRequestScopes(
  client: pg.ClientBase,
  repository: string,
  number: number,
  sent: SentScopes,
): Promise<void> {
  await client.query(
    `INSERT INTO pull_request_scopes (repository, number, scopes, all_scopes)
     VALUES ($1::text, $2::bigint, $3::text[], $4::boolean)
     ON CONFLICT (repository, number) DO UPDATE SET scopes = EXCLUDED.scopes, all_scopes = EXCLUDED.all_scopes,
       updated_at = now()`,
    [repository.toLowerCase(), number, sent.scopes, sent.allScopes],
  );
}

/** The scopes CI sent for pull request `number`, or null when it sent none. */
export async function pullRequestScopes(
  db: pg.Pool | pg.ClientBase,
  repository: string,
  number: number,
): Promise<SentScopes | null> {
  const res = await db.query<{ scopes: string[]; all_scopes: boolean }>(
    "SELECT scopes, all_scopes FROM pull_request_scopes WHERE repository = $1::text AND number = $2::bigint",
    [repository.toLowerCase(), number],
  );
  const r = res.rows[0];
  return r ? { scopes: r.scopes, allScopes: r.all_scopes } : null;
}
