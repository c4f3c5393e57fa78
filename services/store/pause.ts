/**
 * Pause state of a repository's merge queue (docs/pause.md): one row in `queue_pauses` while
 * paused, shared by both endpoint families. Each change writes its log event to the outbox in the
 * same transaction, so the state and the event never disagree.
 */
import type pg from "pg";
import { withTransaction } from "./database.js";
import { appendToOutbox, type EventRow } from "./outbox.js";

/**
 * A pause (a `queue_pauses` row): repository "owner/name", the reason, when it was paused (UTC,
 * the server clock at the first pause, to the millisecond; a reason change keeps it), and who
 * paused it (the caller's actor, stored as JSON).
 */
export interface PauseRow {
  repository: string;
  reason: string;
  pausedAt: Date;
  pausedBy: unknown;
}

// biome-ignore lint/suspicious/noExplicitAny: a database row as node-postgres returns it; toRow reads its columns by name and types them
const toRow = (r: any): PauseRow => ({
  repository: r.repository,
  reason: r.reason,
  pausedAt: r.paused_at,
  pausedBy: r.paused_by,
});

/** The pause of a repository, or null when its queue is not paused. */
export async function getPause(db: pg.Pool | pg.ClientBase, repository: string): Promise<PauseRow | null> {
  const res = await db.query(
    "SELECT repository, reason, paused_at, paused_by FROM queue_pauses WHERE repository = $1::text",
    [repository],
  );
  return res.rows[0] ? toRow(res.rows[0]) : null;
}

/**
 * Pauses the queue, or changes the reason of the current pause (paused_at is kept).
 * @param event builds the log event: "create" for a new pause, "update" for a changed reason
 * @param also more writes of the same transaction (the queue runner's inbox row), given the pause as stored
 * @returns the pause and whether it was created
 */
export async function setPause(
  db: pg.Pool,
  input: { repository: string; reason: string; pausedBy: unknown },
  event: (kind: "create" | "update") => EventRow,
  also: (client: pg.ClientBase, created: boolean, pause: PauseRow) => Promise<void> = async () => {},
): Promise<{ pause: PauseRow; created: boolean }> {
  return withTransaction(db, async (client) => {
    const res = await client.query(
      `INSERT INTO queue_pauses (repository, reason, paused_at, paused_by)
       VALUES ($1::text, $2::text, date_trunc('milliseconds', clock_timestamp()), $3::jsonb)
       ON CONFLICT (repository) DO UPDATE SET reason = EXCLUDED.reason
       RETURNING repository, reason, paused_at, paused_by, (xmax = 0) AS created`,
      [input.repository, input.reason, JSON.stringify(input.pausedBy)],
    );
    const created: boolean = res.rows[0].created;
    await appendToOutbox(client, [event(created ? "create" : "update")]);
    const pause = toRow(res.rows[0]);
    await also(client, created, pause);
    return { pause, created };
  });
}

/**
 * Unpauses the queue.
 * @param also more writes of the same transaction (the queue runner's inbox row)
 * @returns the pause that was removed, or null when the queue was not paused (nothing written)
 */
export async function deletePause(
  db: pg.Pool,
  repository: string,
  event: () => EventRow,
  also: (client: pg.ClientBase) => Promise<void> = async () => {},
): Promise<PauseRow | null> {
  return withTransaction(db, async (client) => {
    const res = await client.query(
      "DELETE FROM queue_pauses WHERE repository = $1::text RETURNING repository, reason, paused_at, paused_by",
      [repository],
    );
    if (!res.rows[0]) return null;
    await appendToOutbox(client, [event()]);
    await also(client);
    return toRow(res.rows[0]);
  });
}
