/**
 * The merge queue state per repository (`queue_states`), as the engine's plain JSON. Written only
 * by the runner inside a transaction holding the repository's advisory lock; read by the
 * QueueService without a lock (the last committed state).
 */
import type pg from "pg";

/** 64-bit advisory lock key of a repository: one writer per repository at a time. */
export const repositoryLockSql = "hashtextextended($1::text, 7261)";

/** Takes the repository's transaction-level advisory lock (waits for another holder). */
export async function lockRepository(client: pg.ClientBase, repository: string): Promise<void> {
  await client.query(`SELECT pg_advisory_xact_lock(${repositoryLockSql})`, [repository]);
}

/** Tries the repository's session-level advisory lock; false when another session holds it. */
export async function tryLockRepositorySession(client: pg.ClientBase, repository: string): Promise<boolean> {
  return (await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_lock(${repositoryLockSql}) AS ok`, [repository]))
    .rows[0].ok;
}

/** Takes the repository's session-level advisory lock, waiting while another session holds it. */
export async function lockRepositorySession(client: pg.ClientBase, repository: string): Promise<void> {
  await client.query(`SELECT pg_advisory_lock(${repositoryLockSql})`, [repository]);
}

/**
 * Whether this session (the client's connection) holds the repository's session-level advisory
 * lock now: the fencing check of the runner (runner/lock-session.ts). A 64-bit advisory key
 * shows in pg_locks as its high 32 bits (`classid`) and low 32 bits (`objid`), `objsubid` 1
 * (https://www.postgresql.org/docs/current/view-pg-locks.html).
 * @throws the connection's error when it is dead
 */
export async function holdsRepositorySessionLock(client: pg.ClientBase, repository: string): Promise<boolean> {
  const res = await client.query<{ held: boolean }>(
    `WITH k AS (SELECT ${repositoryLockSql} AS key)
     SELECT EXISTS (
       SELECT 1 FROM pg_locks, k
       WHERE locktype = 'advisory' AND pid = pg_backend_pid() AND granted AND objsubid = 1
         AND classid::bigint = (k.key >> 32) & 4294967295 AND objid::bigint = k.key & 4294967295
     ) AS held`,
    [repository],
  );
  return res.rows[0].held;
}

/**
 * Releases the repository's session-level advisory lock taken by {@link tryLockRepositorySession}
 * (or {@link lockRepositorySession}).
 */
export async function unlockRepositorySession(client: pg.ClientBase, repository: string): Promise<void> {
  await client.query(`SELECT pg_advisory_unlock(${repositoryLockSql})`, [repository]);
}

/** The stored state, or null for a repository the queue has never seen. */
export async function loadQueueState<S>(db: pg.Pool | pg.ClientBase, repository: string): Promise<S | null> {
  const res = await db.query<{ state: S }>("SELECT state FROM queue_states WHERE repository = $1::text", [repository]);
  return res.rows[0]?.state ?? null;
}

/**
 * The stored state's change token (`<version>/<xmin>`: the version the runner bumps, and the row
 * version PostgreSQL gives every write, so an edit by hand changes it too) and the state — only
 * when the token differs from `known`, else `state` is undefined (the caller's copy is current).
 * Null for a repository the queue has never seen.
 */
export async function loadQueueStateIfChanged<S>(
  db: pg.Pool | pg.ClientBase,
  repository: string,
  known: string | null,
): Promise<{ token: string; state: S | undefined } | null> {
  const res = await db.query<{ token: string; state: S | null }>(
    `SELECT t.token, CASE WHEN t.token = $2::text THEN NULL ELSE t.state END AS state
       FROM (SELECT version::text || '/' || xmin::text AS token, state
               FROM queue_states WHERE repository = $1::text) t`,
    [repository, known],
  );
  const row = res.rows[0];
  return row ? { token: row.token, state: row.state ?? undefined } : null;
}

/**
 * Stores the state (insert or replace) and whether it is paused (the `paused` column the sweep
 * compares with queue_pauses: docs/pause.md "The engine's pause").
 */
export async function saveQueueState(
  client: pg.ClientBase,
  repository: string,
  state: unknown,
  paused: boolean,
): Promise<void> {
  await client.query(
    `INSERT INTO queue_states (repository, state, paused) VALUES ($1::text, $2::jsonb, $3::boolean)
     ON CONFLICT (repository) DO UPDATE SET state = EXCLUDED.state, paused = EXCLUDED.paused, version = queue_states.version + 1, updated_at = now()`,
    [repository, JSON.stringify(state), paused],
  );
}

/**
 * The batch whose check runs on `branch` (its draft branch) in the stored state, with its
 * pull requests and its train's base branch; null when no batch of the repository is checked there (CI Insights labels a
 * check's test runs with it: docs/ci-insights.md "Local CI").
 */
export async function batchOfCheckBranch(
  db: pg.Pool | pg.ClientBase,
  repository: string,
  branch: string,
): Promise<{ id: string; members: number[]; baseBranch: string } | null> {
  const res = await db.query<{ id: string; members: number[]; baseBranch: string }>(
    `SELECT b->>'id' AS id, b->'members' AS members, train->>'branch' AS "baseBranch"
     FROM queue_states, jsonb_array_elements(state->'trains') AS t(train), jsonb_array_elements(train->'batches') AS bs(b)
     WHERE repository = $1::text AND b->'check'->>'branch' = $2::text LIMIT 1`,
    [repository, branch],
  );
  return res.rows[0] ?? null;
}
