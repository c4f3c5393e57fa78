/**
 * The replicas of the queue runner in PostgreSQL (migration 0017_runner_replicas.sql;
 * docs/deployment.md "Several replicas"): each process's row and heartbeat, the expiry of the rows
 * of processes that died or stalled, the end of their sessions (which releases their advisory
 * locks), and the notifications that hand a repository's work to its replica. Every time is the
 * database's clock (`now()`), so replicas on hosts whose clocks differ agree on every lease.
 *
 * A replica names every session it opens `yardmaster:<id>` (`application_name`,
 * https://www.postgresql.org/docs/current/runtime-config-logging.html#GUC-APPLICATION-NAME): that
 * is how the others find its sessions in `pg_stat_activity` and end them with
 * `pg_terminate_backend` (https://www.postgresql.org/docs/current/functions-admin.html), which a
 * role may do to sessions of its own role.
 */
import type pg from "pg";

/** Channel of "this repository has work" notifications; payload: the repository ("owner/name"). */
export const WORK_CHANNEL = "yardmaster_work";
/** Channel of "the replicas changed" notifications (a replica joined or left); payload: its id. */
export const REPLICAS_CHANNEL = "yardmaster_replicas";

/** What every replica's `application_name` starts with; its id follows. */
const APPLICATION_PREFIX = "yardmaster:";

/** The `application_name` of every session of the replica `id`. */
export function replicaApplicationName(id: string): string {
  return `${APPLICATION_PREFIX}${id}`;
}

/** A replica's row. */
export interface ReplicaRow {
  id: string;
  name: string;
}

/** A replica whose row {@link expireReplicas} deleted, and why. */
export interface ExpiredReplica extends ReplicaRow {
  /** `lease`: no heartbeat for the lease; `sessions`: no session of it is open (its process ended). */
  reason: "lease" | "sessions";
}

/**
 * Writes the replica's heartbeat, inserting its row when it has none.
 * @returns whether the row was inserted (first heartbeat, or the row had been expired meanwhile)
 * @throws the database's error
 */
export async function heartbeatReplica(db: pg.Pool, replica: ReplicaRow): Promise<{ inserted: boolean }> {
  const res = await db.query<{ inserted: boolean }>(
    `INSERT INTO runner_replicas (id, name) VALUES ($1::text, $2::text)
     ON CONFLICT (id) DO UPDATE SET heartbeat_at = now()
     RETURNING (xmax = 0) AS inserted`,
    [replica.id, replica.name],
  );
  return { inserted: res.rows[0].inserted };
}

/**
 * Deletes the rows of other replicas that have no session open on the database (a process that
 * ended: its connections closed with it) or, when `staleAfterSeconds` is given, whose heartbeat is
 * older than that.
 * @returns the replicas expired now
 */
export async function expireReplicas(
  db: pg.Pool,
  selfId: string,
  staleAfterSeconds: number | null,
): Promise<ExpiredReplica[]> {
  const res = await db.query<{ id: string; name: string; stale: boolean }>(
    `WITH r AS (
       SELECT id, $2::float8 IS NOT NULL AND heartbeat_at < now() - make_interval(secs => $2::float8) AS stale,
              NOT EXISTS (SELECT 1 FROM pg_stat_activity a
                          WHERE a.application_name = $3::text || id AND a.datname = current_database()) AS ended
       FROM runner_replicas WHERE id <> $1::text)
     DELETE FROM runner_replicas d USING r
     WHERE d.id = r.id AND (r.stale OR r.ended)
     RETURNING d.id, d.name, r.stale`,
    [selfId, staleAfterSeconds, APPLICATION_PREFIX],
  );
  return res.rows.map((r) => ({ id: r.id, name: r.name, reason: r.stale ? "lease" : "sessions" }));
}

/**
 * Ends every session of the replica `id` (pg_terminate_backend), releasing its advisory locks.
 * @returns how many sessions were found and how many were ended
 * @throws the database's error (e.g. a session of another role the caller may not end)
 */
export async function endReplicaSessions(db: pg.Pool, id: string): Promise<{ found: number; ended: number }> {
  const res = await db.query<{ ended: boolean }>(
    `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity
     WHERE application_name = $1::text AND datname = current_database()`,
    [replicaApplicationName(id)],
  );
  return { found: res.rowCount ?? 0, ended: res.rows.filter((r) => r.ended).length };
}

/** The replicas with a row, by id. */
export async function listReplicas(db: pg.Pool): Promise<ReplicaRow[]> {
  const res = await db.query<ReplicaRow>("SELECT id, name FROM runner_replicas ORDER BY id");
  return res.rows;
}

/** Deletes the replica's row and tells the others ({@link REPLICAS_CHANNEL}), in one transaction. */
export async function leaveReplicas(db: pg.Pool, id: string): Promise<void> {
  await db.query(
    `WITH gone AS (DELETE FROM runner_replicas WHERE id = $1::text RETURNING id)
     SELECT pg_notify('${REPLICAS_CHANNEL}', $1::text)`,
    [id],
  );
}

/** Tells every replica that the replicas changed ({@link REPLICAS_CHANNEL}); `id` joined. */
export async function announceReplica(db: pg.Pool, id: string): Promise<void> {
  await db.query(`SELECT pg_notify('${REPLICAS_CHANNEL}', $1::text)`, [id]);
}

/** Tells the replica working `repository` that it has work ({@link WORK_CHANNEL}). */
export async function notifyWork(db: pg.Pool, repository: string): Promise<void> {
  await db.query(`SELECT pg_notify('${WORK_CHANNEL}', $1::text)`, [repository]);
}

/** The `application_name` of the session running this query (to check that the setting took). */
export async function sessionApplicationName(db: pg.Pool): Promise<string> {
  const res = await db.query<{ name: string }>("SELECT current_setting('application_name') AS name");
  return res.rows[0].name;
}
