/**
 * Whether the queue engine's pause agrees with the pause endpoints' (docs/pause.md "The engine's
 * pause"): `queue_pauses` holds the pause the API answers; each change also writes an inbox input
 * (`{"kind": "engine", "event": {"type": "pause" | "unpause", ...}}`) in the same transaction, which
 * the runner applies to the engine state. While no such input waits, the two must agree.
 */
import type pg from "pg";
import type { PauseRow } from "../pause.js";

const PENDING_PAUSE_INPUT = `input->>'kind' = 'engine' AND input->'event'->>'type' IN ('pause', 'unpause')`;

/**
 * The API's pause of a repository and whether a pause or unpause input is still waiting in its
 * inbox (other than the ids `applied` in the caller's round), read in one statement, so one
 * snapshot: a pause committed meanwhile is seen with its input or not at all.
 * @param applied inbox ids (decimal strings) the caller's transaction has applied
 */
export async function pauseWithPendingInput(
  client: pg.ClientBase,
  repository: string,
  applied: string[],
): Promise<{ pause: PauseRow | null; pending: boolean }> {
  const res = await client.query(
    `SELECT p.repository, p.reason, p.paused_at, p.paused_by,
            EXISTS (SELECT 1 FROM queue_inbox WHERE repository = $1::text AND id <> ALL($2::bigint[]) AND ${PENDING_PAUSE_INPUT}) AS pending
       FROM (SELECT $1::text AS repository) r LEFT JOIN queue_pauses p USING (repository)`,
    [repository, applied],
  );
  const row = res.rows[0];
  return {
    pause:
      row.reason === null ? null : { repository, reason: row.reason, pausedAt: row.paused_at, pausedBy: row.paused_by },
    pending: row.pending,
  };
}

/**
 * Repositories whose stored engine state is paused while the API's is not, or the other way
 * round, with no pause input waiting (for the runner's sweep).
 */
export async function repositoriesPausedDifferently(db: pg.Pool | pg.ClientBase): Promise<string[]> {
  const res = await db.query<{ repository: string }>(
    `WITH differ AS (
       SELECT coalesce(s.repository, p.repository) AS repository
         FROM queue_states s FULL JOIN queue_pauses p ON p.repository = s.repository
        WHERE coalesce(s.paused, false) <> (p.repository IS NOT NULL))
     SELECT d.repository FROM differ d
      WHERE NOT EXISTS (SELECT 1 FROM queue_inbox i WHERE i.repository = d.repository AND ${PENDING_PAUSE_INPUT})`,
  );
  return res.rows.map((r) => r.repository);
}
