/**
 * Rows kept in id order (the runner's inbox and effects, an outbox relay batch) are read in the
 * order of their bigint ids, also across a change in the number of digits. The queries select the
 * id as text, and `ORDER BY id` named that text column: 10000 came before 9999, so past each power
 * of ten a newer pause input was applied before an older unpause (the "lost unpause" of stop 18's
 * stress run, found by stop 19's), effects ran out of order, and events were relayed out of order.
 */
import { afterEach, describe, expect, it } from "vitest";
import { internalEventRow } from "../../services/activity-log/index.js";
import { addEffects, addToInbox, appendToOutbox, dueEffects, takeInbox } from "../../services/store/index.js";
import { claimRelayBatch, relayBatchRows } from "../../services/store/outbox.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";

const REPO = "acme/widgets";
let db: TestDatabase | undefined;
afterEach(async () => {
  await db?.drop();
  db = undefined;
});

/** Makes the next ids of `sequence` 9998, 9999, 10000, 10001. */
async function nearPowerOfTen(d: TestDatabase, sequence: string) {
  await d.pool.query("SELECT setval($1::regclass, 9997)", [sequence]);
}

describe("rows read in id order across a power of ten", () => {
  it("the inbox", async () => {
    db = await freshDatabase();
    await nearPowerOfTen(db, "queue_inbox_id_seq");
    for (const n of [1, 2, 3, 4]) await addToInbox(db.pool, REPO, [{ n }]);
    const client = await db.pool.connect();
    try {
      await client.query("BEGIN");
      const rows = await takeInbox<{ n: number }>(client, REPO, 3);
      await client.query("COMMIT");
      expect(rows.map((r) => [r.id, r.input.n])).toEqual([
        ["9998", 1],
        ["9999", 2],
        ["10000", 3],
      ]);
    } finally {
      client.release();
    }
  });

  it("the effects", async () => {
    db = await freshDatabase();
    await nearPowerOfTen(db, "queue_effects_id_seq");
    const client = await db.pool.connect();
    try {
      for (const n of [1, 2, 3, 4]) await addEffects(client, REPO, [{ n }]);
    } finally {
      client.release();
    }
    expect((await dueEffects<{ n: number }>(db.pool, REPO)).map((r) => r.effect.n)).toEqual([1, 2, 3, 4]);
  });

  it("an outbox relay batch", async () => {
    db = await freshDatabase();
    await nearPowerOfTen(db, "event_ids");
    const client = await db.pool.connect();
    try {
      const at = new Date("2026-11-26T04:00:00Z");
      const rows = [1, 2, 3, 4].map((n) =>
        internalEventRow({
          type: "queue.pause.delete",
          repository: REPO,
          pullRequest: null,
          baseRef: null,
          trigger: `t${n}`,
          receivedAt: at,
          metadata: { deleted_by: { id: 1, type: "user", name: "ada" }, deleted_by_staff: false },
        }),
      );
      for (const r of rows) await appendToOutbox(client, [r]);
      const batch = await claimRelayBatch(client, 10);
      expect((await relayBatchRows(client, batch!)).map((r) => [r.id, r.trigger])).toEqual([
        ["9998", "t1"],
        ["9999", "t2"],
        ["10000", "t3"],
        ["10001", "t4"],
      ]);
    } finally {
      client.release();
    }
  });
});
