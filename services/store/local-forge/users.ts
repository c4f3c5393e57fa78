/**
 * Users of the local forge (`local_forge_users`, migration 0003): created on first use with
 * `write` permission, which holds on every repository. docs/local-forge.md "Users and permissions".
 */
import { num, type Queryable } from "./queryable.js";

/** Permission levels, lowest to highest (docs/domain.md §2.2 `sender-permission`). */
export type LocalPermission = "none" | "read" | "triage" | "write" | "maintain" | "admin";

/** One user. `kind` is "Bot" for Yardmaster itself. */
export interface LocalUserRow {
  id: number;
  login: string;
  kind: "User" | "Bot";
  permission: LocalPermission;
}

const COLUMNS = "id, login, kind, permission";
// biome-ignore lint/suspicious/noExplicitAny: a database row as node-postgres returns it; toRow reads its columns by name and types them
const toRow = (r: any): LocalUserRow => ({ id: num(r.id), login: r.login, kind: r.kind, permission: r.permission });

/**
 * The user with this login (case-insensitive), created with `write` permission when new. An
 * existing user's row is only read, never locked: every write of the bot goes through here, and
 * writes to different repositories must not wait on each other.
 * @param input.kind used only when the user is created
 */
export async function ensureLocalUser(
  q: Queryable,
  input: { login: string; kind: "User" | "Bot"; now: Date },
): Promise<LocalUserRow> {
  const res = await q.query(
    `WITH found AS (SELECT ${COLUMNS} FROM local_forge_users WHERE lower(login) = lower($1::text)),
     created AS (
       INSERT INTO local_forge_users (login, kind, created_at) SELECT $1::text, $2::text, $3::timestamptz WHERE NOT EXISTS (SELECT 1 FROM found)
       ON CONFLICT ((lower(login))) DO NOTHING
       RETURNING ${COLUMNS}
     )
     SELECT * FROM found UNION ALL SELECT * FROM created`,
    [input.login, input.kind, input.now],
  );
  if (res.rows[0]) return toRow(res.rows[0]);
  // Another transaction created it at this instant: it is committed and visible now.
  const user = await findLocalUser(q, input.login);
  if (user === null) throw new Error(`local forge user ${input.login} could not be created`);
  return user;
}

/** The user with this login (case-insensitive), or null when it was never used. */
export async function findLocalUser(q: Queryable, login: string): Promise<LocalUserRow | null> {
  const res = await q.query(`SELECT ${COLUMNS} FROM local_forge_users WHERE lower(login) = lower($1::text)`, [login]);
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/**
 * Sets a user's permission, creating the user when new.
 * @returns the user
 */
export async function setLocalUserPermission(
  q: Queryable,
  input: { login: string; permission: LocalPermission; now: Date },
): Promise<LocalUserRow> {
  const res = await q.query(
    `INSERT INTO local_forge_users (login, permission, created_at) VALUES ($1::text, $2::text, $3::timestamptz)
     ON CONFLICT ((lower(login))) DO UPDATE SET permission = EXCLUDED.permission
     RETURNING ${COLUMNS}`,
    [input.login, input.permission, input.now],
  );
  return toRow(res.rows[0]);
}
