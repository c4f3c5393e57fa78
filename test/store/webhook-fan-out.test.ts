/**
 * The relay's webhook fan-out (docs/notifications.md "Where events come from"), against real
 * PostgreSQL: one delivery per subscription and matching event (an exact type, `prefix.*`, `*`;
 * the repository compared case-insensitively), created in the transaction that deletes the batch,
 * so a batch whose send failed and is sent again fans out once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { internalEventRow } from "../../services/activity-log/index.js";
import {
  appendToOutbox,
  insertWebhook,
  listDeliveries,
  outboxSize,
  startOutboxRelay,
  withTransaction,
  type EventSink,
} from "../../services/store/index.js";
import { eventually } from "../support/eventually.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { testLogger } from "../support/logger.js";

let db: TestDatabase;
beforeAll(async () => {
  db = await freshDatabase();
});
afterAll(async () => db?.drop());

const event = (repository: string, type: string, metadata: Record<string, unknown>) =>
  internalEventRow({ type, repository, pullRequest: null, baseRef: null, trigger: "API", receivedAt: null, metadata });
const pause = (repository: string) =>
  event(repository, "queue.pause.create", {
    reason: "r",
    created_by: { type: "user", id: 7, name: "octocat" },
    created_by_staff: false,
  });
const unpause = (repository: string) =>
  event(repository, "queue.pause.delete", {
    deleted_by: { type: "user", id: 7, name: "octocat" },
    deleted_by_staff: false,
  });

async function subscribe(repository: string, eventTypes: string[]): Promise<string> {
  const id = crypto.randomUUID();
  await insertWebhook(db.pool, {
    id,
    repository,
    url: "http://127.0.0.1:9/hook",
    format: "json",
    eventTypes,
    description: "",
    secret: "a-secret-of-16-chars",
    createdBy: null,
  });
  return id;
}

describe("the webhook fan-out", () => {
  it("creates one delivery per matching subscription and event, once, even when a send is retried", async () => {
    const exact = await subscribe("acme/fan", ["queue.pause.create"]);
    const prefix = await subscribe("acme/fan", ["queue.pause.*"]);
    const all = await subscribe("acme/fan", ["*"]);
    const other = await subscribe("acme/other", ["*"]);
    await withTransaction(db.pool, (c) => appendToOutbox(c, [pause("Acme/Fan"), unpause("acme/fan")]));
    let failures = 1;
    const sink: EventSink = {
      insertEvents: async () => {
        if (failures-- > 0) throw new Error("ClickHouse does not answer");
      },
    };
    const relay = startOutboxRelay({ pool: db.pool, sink, logger: testLogger().logger, intervalMs: 50 });
    try {
      await eventually(async () => expect(await outboxSize(db.pool)).toBe(0), 30_000, 50);
    } finally {
      await relay.stop();
    }
    const types = async (id: string) =>
      (await listDeliveries(db.pool, id === other ? "acme/other" : "acme/fan", { subscriptionId: id, limit: 10 }))
        .map((d) => d.eventType)
        .sort();
    expect(await types(exact)).toEqual(["queue.pause.create"]);
    expect(await types(prefix)).toEqual(["queue.pause.create", "queue.pause.delete"]);
    expect(await types(all)).toEqual(["queue.pause.create", "queue.pause.delete"]);
    expect(await types(other)).toEqual([]);
    const pending = await listDeliveries(db.pool, "acme/fan", { limit: 10 });
    expect(pending.every((d) => d.state === "pending" && d.attempts.length === 0)).toBe(true);
  });

  it("keeps a repository to its limit of webhooks", async () => {
    for (let i = 0; i < 20; i++) await subscribe("acme/full", ["*"]);
    await expect(
      insertWebhook(db.pool, {
        id: crypto.randomUUID(),
        repository: "acme/full",
        url: "http://x/",
        format: "json",
        eventTypes: ["*"],
        description: "",
        secret: "a-secret-of-16-chars",
        createdBy: null,
      }),
    ).resolves.toBeNull();
  });
});
