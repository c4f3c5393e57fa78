/**
 * Migration 0011 (docs/domain.md "Glossary"): a state stored when the engine still called its
 * batches "cars" loads with each train's `batches`, values and order unchanged, so a queue that
 * was running before the upgrade carries on; states already written with `batches` are untouched.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadQueueState } from "../../services/store/index.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";

const MIGRATION = readFileSync(
  path.resolve(import.meta.dirname, "../../services/store/migrations/0011_batches_in_state.sql"),
  "utf8",
);

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => {
  await db.drop();
});

const store = (repository: string, state: unknown) =>
  db.pool.query("INSERT INTO queue_states (repository, state) VALUES ($1, $2::jsonb)", [
    repository,
    JSON.stringify(state),
  ]);

describe("migration 0011", () => {
  it("renames each train's cars to batches and leaves new states alone", async () => {
    const first = { id: "b1", members: [1, 2] },
      second = { id: "b2", members: [3] };
    await store("acme/old", {
      repository: "acme/old",
      trains: [
        { branch: "main", cars: [first, second], waiting: [4] },
        { branch: "dev", cars: [] },
      ],
    });
    await store("acme/new", { repository: "acme/new", trains: [{ branch: "main", batches: [first], waiting: [] }] });
    await store("acme/empty", { repository: "acme/empty", trains: [] });
    await db.pool.query(MIGRATION.replace("-- Up Migration", ""));
    expect(await loadQueueState(db.pool, "acme/old")).toEqual({
      repository: "acme/old",
      trains: [
        { branch: "main", batches: [first, second], waiting: [4] },
        { branch: "dev", batches: [] },
      ],
    });
    expect(await loadQueueState(db.pool, "acme/new")).toEqual({
      repository: "acme/new",
      trains: [{ branch: "main", batches: [first], waiting: [] }],
    });
    expect(await loadQueueState(db.pool, "acme/empty")).toEqual({ repository: "acme/empty", trains: [] });
  });
});
