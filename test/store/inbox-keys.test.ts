/**
 * Forge events taken into the runner's inbox once per idempotency key (docs/reliability.md
 * "Events: not lost, not taken twice"): a local forge event delivered again after a crash, or a
 * GitHub delivery handed over twice, comes with the same key and is dropped; keys older than the
 * retention are forgotten.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addToInboxOnce, pruneInboxKeys, takeInbox } from "../../services/store/index.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";

const REPO = "acme/widgets";
let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => db.drop());

/** The inputs waiting, in order (read on the pool: `FOR UPDATE` outside a transaction locks nothing for long). */
const inbox = async () => (await takeInbox<{ n: number }>(db.pool as never, REPO, 100)).map((r) => r.input.n);

describe("an event with an idempotency key", () => {
  it("is taken once, however often it is delivered", async () => {
    expect(await addToInboxOnce(db.pool, REPO, { n: 1 }, "local-forge:1")).toBe(true);
    expect(await addToInboxOnce(db.pool, REPO, { n: 1 }, "local-forge:1")).toBe(false);
    expect(await addToInboxOnce(db.pool, REPO, { n: 2 }, "local-forge:2")).toBe(true);
    expect(await inbox()).toEqual([1, 2]);
  });

  it("is taken again once its key was forgotten (older than the retention)", async () => {
    expect(await pruneInboxKeys(db.pool, new Date(Date.now() + 60_000))).toBeGreaterThanOrEqual(2);
    expect(await addToInboxOnce(db.pool, REPO, { n: 1 }, "local-forge:1")).toBe(true);
  });
});
