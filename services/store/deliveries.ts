/**
 * Idempotent event deliveries (AppendEvents, `yardmaster events import`): the events of a request
 * and its idempotency key are written in one transaction; a repeated delivery of the same key
 * writes nothing and answers the first delivery's ids. Concurrent deliveries of one key serialise
 * on the key's primary key (the second waits for the first to commit).
 */
import type pg from "pg";
import { withTransaction } from "./database.js";
import { appendToOutbox, type EventRow } from "./outbox.js";

/**
 * The outcome of {@link deliverEvents}: written now, or a repeated delivery answered with the first
 * delivery's event ids (decimal strings, in event order), or a key reused for other events
 * (AppendEvents answers already_exists, docs/errors.md).
 */
export type DeliveryResult =
  | { kind: "written"; ids: string[] }
  | { kind: "replayed"; ids: string[] }
  /** The key was used for a different set of events. */
  | { kind: "key_reused" };

/**
 * Records a delivery.
 * @param requestHash a digest of the request's events, to tell a replay from a reused key
 */
export async function deliverEvents(
  db: pg.Pool,
  key: string,
  requestHash: Buffer,
  rows: EventRow[],
): Promise<DeliveryResult> {
  return withTransaction(db, async (client) => {
    const claimed = await client.query(
      "INSERT INTO event_deliveries (idempotency_key, request_hash, ids) VALUES ($1::text, $2::bytea, '{}') ON CONFLICT (idempotency_key) DO NOTHING RETURNING 1",
      [key, requestHash],
    );
    if (claimed.rowCount === 0) {
      const prior = await client.query<{ request_hash: Buffer; ids: string[] }>(
        "SELECT request_hash, ids::text[] AS ids FROM event_deliveries WHERE idempotency_key = $1::text",
        [key],
      );
      const p = prior.rows[0];
      return p.request_hash.equals(requestHash) ? { kind: "replayed", ids: p.ids } : { kind: "key_reused" };
    }
    const ids = await appendToOutbox(client, rows);
    await client.query("UPDATE event_deliveries SET ids = $2::bigint[] WHERE idempotency_key = $1::text", [key, ids]);
    return { kind: "written", ids };
  });
}
