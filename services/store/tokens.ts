/** Tokens issued by the service (docs/auth.md): rows of `api_tokens`, secrets hashed. */
import type pg from "pg";

/**
 * An `api_tokens` row: the token's UUID, SHA-256 of its secret, the repositories ("owner/name", at
 * least one) it grants, its description, and creation and revocation times (UTC; revokedAt null
 * while valid).
 */
export interface TokenRow {
  id: string;
  secretHash: Buffer;
  repositories: string[];
  description: string;
  createdAt: Date;
  revokedAt: Date | null;
}

const COLUMNS = "id::text, secret_hash, repositories, description, created_at, revoked_at";

// biome-ignore lint/suspicious/noExplicitAny: a database row as node-postgres returns it; toRow reads its columns by name and types them
const toRow = (r: any): TokenRow => ({
  id: r.id,
  secretHash: r.secret_hash,
  repositories: r.repositories,
  description: r.description,
  createdAt: r.created_at,
  revokedAt: r.revoked_at,
});

/** Stores a new token. */
export async function insertToken(
  db: pg.Pool,
  t: { id: string; secretHash: Buffer; repositories: string[]; description: string },
): Promise<TokenRow> {
  const res = await db.query(
    `INSERT INTO api_tokens (id, secret_hash, repositories, description) VALUES ($1::uuid, $2::bytea, $3::text[], $4::text) RETURNING ${COLUMNS}`,
    [t.id, t.secretHash, t.repositories, t.description],
  );
  return toRow(res.rows[0]);
}

/** The token with this id, or null. */
export async function findToken(db: pg.Pool, id: string): Promise<TokenRow | null> {
  const res = await db.query(`SELECT ${COLUMNS} FROM api_tokens WHERE id = $1::uuid`, [id]);
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/** All tokens, newest first. */
export async function listTokens(db: pg.Pool): Promise<TokenRow[]> {
  const res = await db.query(`SELECT ${COLUMNS} FROM api_tokens ORDER BY created_at DESC, api_tokens.id`);
  return res.rows.map(toRow);
}

/** Marks a token revoked (idempotent: the first revocation time is kept); null when no such token. */
export async function revokeToken(db: pg.Pool, id: string): Promise<TokenRow | null> {
  const res = await db.query(
    `UPDATE api_tokens SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1::uuid RETURNING ${COLUMNS}`,
    [id],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}
