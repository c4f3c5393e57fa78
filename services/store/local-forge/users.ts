/**
 * Users of the local forge (`local_forge_users`, migration 0003): created on first use with
 * `write` permission, which holds on every repository. docs/local-forge.md "Users and permissions".
 */
import { num, type Queryable } from "./queryable.js";

/** Permission levels, lowest to highest (research/domain.md §2.2 `sender-permission`). */
export type LocalPermission = "none" | "read" | "triage" | "write" | "maintain" | "admin";

/** One user. `kind` is "Bot" for Yardmaster itself. */
export interface LocalUserRow {
  id: number;
  login: string;
  kind: "User" | "Bot";
  permission: LocalPermission;
}

const COLUMNS = "id, login, kind, permission";
const toRow = (r: any): LocalUserRow => ({ id: num(r.id), login: r.login, kind: r.kind, permission: r.permission });

/**
 * The user with this login (case-insensitive), created with `write` permission when new.
 * @param input.kind used only when the user is created
 */
export async function ensureLocalUser(q: Queryable, input: { login: string; kind: "User" | "Bot"; now: Date }): Promise<LocalUserRow> {
  const res = await q.query(
    `INSERT INTO local_forge_users (login, kind, created_at) VALUES ($1::text, $2::text, $3::timestamptz)
     ON CONFLICT ((lower(login))) DO UPDATE SET login = local_forge_users.login
     RETURNING ${COLUMNS}`,
    [input.login, input.kind, input.now],
  );
  return toRow(res.rows[0]);
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
export async function setLocalUserPermission(q: Queryable, input: { login: string; permission: LocalPermission; now: Date }): Promise<LocalUserRow> {
  const res = await q.query(
    `INSERT INTO local_forge_users (login, permission, created_at) VALUES ($1::text, $2::text, $3::timestamptz)
     ON CONFLICT ((lower(login))) DO UPDATE SET permission = EXCLUDED.permission
     RETURNING ${COLUMNS}`,
    [input.login, input.permission, input.now],
  );
  return toRow(res.rows[0]);
}
