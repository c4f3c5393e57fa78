/**
 * The local forge's event outbox (`local_forge_events`, migration 0010): the events of a write,
 * stored in its transaction, deleted once the sink accepted them (docs/local-forge.md "Writes and
 * events").
 */
import { num, type Queryable } from "./queryable.js";

/** A stored event: its id (also its order and idempotency key) and the event JSON. */
export interface StoredForgeEvent<T> {
  id: number;
  event: T;
}

/** Stores events in the caller's transaction, in order. @returns them with their ids, in order */
export async function insertForgeEvents<T extends { repo: string }>(
  q: Queryable,
  events: readonly T[],
): Promise<StoredForgeEvent<T>[]> {
  if (events.length === 0) return [];
  const res = await q.query(
    `INSERT INTO local_forge_events (repository, event)
     SELECT x->>'repo', x FROM unnest($1::jsonb[]) WITH ORDINALITY AS t(x, n) ORDER BY n RETURNING id`,
    [events.map((e) => JSON.stringify(e))],
  );
  // Ids are drawn in insertion order (ORDER BY n), so ascending ids follow the events' order.
  const ids = res.rows.map((r) => num(r.id)).sort((a, b) => a - b);
  return events.map((event, i) => ({ id: ids[i]!, event }));
}

/** Every stored event, oldest first (delivery at start-up). */
export async function storedForgeEvents<T>(q: Queryable): Promise<StoredForgeEvent<T>[]> {
  const res = await q.query("SELECT id, event FROM local_forge_events ORDER BY id");
  return res.rows.map((r) => ({ id: num(r.id), event: r.event as T }));
}

/** Deletes delivered events. */
export async function deleteForgeEvents(q: Queryable, ids: readonly number[]): Promise<void> {
  if (ids.length > 0) await q.query("DELETE FROM local_forge_events WHERE id = ANY($1::bigint[])", [ids]);
}
