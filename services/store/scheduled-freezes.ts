/**
 * Scheduled freezes of a repository (`scheduled_freezes`, docs/scheduled-freeze.md). Each change
 * writes its log event to the outbox and tells the queue runner (the `also` hook) in the same
 * transaction, so the freezes, their events and the queue never disagree.
 */
import type pg from "pg";
import { withTransaction } from "./database.js";
import { appendToOutbox, type EventRow } from "./outbox.js";

/**
 * What a freeze says (the scheduled_freeze.* events' FreezeAttrs): reason (1-255 characters), start
 * and end (UTC instants; end null = until deleted), IANA time zone, and the conditions as written
 * (condition strings and and/or/not objects).
 */
export interface FreezeAttributes {
  reason: string;
  start: Date;
  end: Date | null;
  timezone: string;
  matchingConditions: unknown[];
  excludeConditions: unknown[];
}

/** A stored freeze: its id (UUID), repository "owner/name", attributes, who created it and when (UTC). */
export interface FreezeRow extends FreezeAttributes {
  id: string;
  repository: string;
  createdBy: unknown;
  createdAt: Date;
}

const COLUMNS =
  "id, repository, reason, start_at, end_at, timezone, matching_conditions, exclude_conditions, created_by, created_at";

// biome-ignore lint/suspicious/noExplicitAny: a database row as node-postgres returns it; toRow reads its columns by name and types them
const toRow = (r: any): FreezeRow => ({
  id: r.id,
  repository: r.repository,
  reason: r.reason,
  start: r.start_at,
  end: r.end_at,
  timezone: r.timezone,
  matchingConditions: r.matching_conditions,
  excludeConditions: r.exclude_conditions,
  createdBy: r.created_by,
  createdAt: r.created_at,
});

/** The freezes of a repository, by start then id (past ones included until deleted). */
export async function listFreezes(db: pg.Pool | pg.ClientBase, repository: string): Promise<FreezeRow[]> {
  const res = await db.query(
    `SELECT ${COLUMNS} FROM scheduled_freezes WHERE repository = $1::text ORDER BY start_at, id`,
    [repository],
  );
  return res.rows.map(toRow);
}

/**
 * The freezes of the repositories `lowerNames` (lower-case "owner/name") that have not ended at
 * `now` (UTC): in force or ahead, by repository, start, id.
 */
export async function listFreezesNotEnded(
  db: pg.Pool | pg.ClientBase,
  lowerNames: readonly string[],
  now: Date,
): Promise<FreezeRow[]> {
  const res = await db.query(
    `SELECT ${COLUMNS} FROM scheduled_freezes
     WHERE lower(repository) = ANY($1::text[]) AND (end_at IS NULL OR end_at > $2::timestamptz)
     ORDER BY lower(repository), start_at, id`,
    [lowerNames, now],
  );
  return res.rows.map(toRow);
}

/**
 * Creates a freeze with a new id; created_at is the server clock (UTC, milliseconds).
 * @param event builds the scheduled_freeze.create event from the stored row
 * @param also more writes of the same transaction (the queue runner's inbox and timers)
 */
export async function createFreeze(
  db: pg.Pool,
  input: FreezeAttributes & { repository: string; createdBy: unknown },
  event: (row: FreezeRow) => EventRow,
  also: (client: pg.ClientBase, row: FreezeRow) => Promise<void> = async () => {},
): Promise<FreezeRow> {
  return withTransaction(db, async (client) => {
    const res = await client.query(
      `INSERT INTO scheduled_freezes (${COLUMNS})
       VALUES (gen_random_uuid(), $1::text, $2::text, $3::timestamptz, $4::timestamptz, $5::text, $6::jsonb, $7::jsonb, $8::jsonb,
               date_trunc('milliseconds', clock_timestamp()))
       RETURNING ${COLUMNS}`,
      [
        input.repository,
        input.reason,
        input.start,
        input.end,
        input.timezone,
        JSON.stringify(input.matchingConditions),
        JSON.stringify(input.excludeConditions),
        JSON.stringify(input.createdBy),
      ],
    );
    const row = toRow(res.rows[0]);
    await appendToOutbox(client, [event(row)]);
    await also(client, row);
    return row;
  });
}

/**
 * Changes a freeze: `change` gets the freeze as stored (locked) and returns its new attributes,
 * or throws to refuse (nothing is written).
 * @returns the freeze before and after, or null when the repository has no freeze with this id
 */
export async function updateFreeze(
  db: pg.Pool,
  repository: string,
  id: string,
  change: (before: FreezeRow) => FreezeAttributes,
  event: (before: FreezeRow, after: FreezeRow) => EventRow,
  also: (client: pg.ClientBase, after: FreezeRow) => Promise<void> = async () => {},
): Promise<{ before: FreezeRow; after: FreezeRow } | null> {
  return withTransaction(db, async (client) => {
    const found = await client.query(
      `SELECT ${COLUMNS} FROM scheduled_freezes WHERE repository = $1::text AND id = $2::uuid FOR UPDATE`,
      [repository, id],
    );
    if (!found.rows[0]) return null;
    const before = toRow(found.rows[0]);
    const a = change(before);
    const res = await client.query(
      `UPDATE scheduled_freezes SET reason = $3::text, start_at = $4::timestamptz, end_at = $5::timestamptz, timezone = $6::text,
         matching_conditions = $7::jsonb, exclude_conditions = $8::jsonb
       WHERE repository = $1::text AND id = $2::uuid RETURNING ${COLUMNS}`,
      [
        repository,
        id,
        a.reason,
        a.start,
        a.end,
        a.timezone,
        JSON.stringify(a.matchingConditions),
        JSON.stringify(a.excludeConditions),
      ],
    );
    const after = toRow(res.rows[0]);
    await appendToOutbox(client, [event(before, after)]);
    await also(client, after);
    return { before, after };
  });
}

/**
 * Deletes a freeze.
 * @returns the deleted freeze, or null when the repository has no freeze with this id (nothing written)
 */
export async function deleteFreeze(
  db: pg.Pool,
  repository: string,
  id: string,
  event: (row: FreezeRow) => EventRow,
  also: (client: pg.ClientBase, row: FreezeRow) => Promise<void> = async () => {},
): Promise<FreezeRow | null> {
  return withTransaction(db, async (client) => {
    const res = await client.query(
      `DELETE FROM scheduled_freezes WHERE repository = $1::text AND id = $2::uuid RETURNING ${COLUMNS}`,
      [repository, id],
    );
    if (!res.rows[0]) return null;
    const row = toRow(res.rows[0]);
    await appendToOutbox(client, [event(row)]);
    await also(client, row);
    return row;
  });
}
