/**
 * The embedded engine's threads run at a lower CPU priority than the service's
 * (services/activity-log/embedded-threads.ts, docs/activity-log.md "The embedded engine"): once
 * an embedded client has run queries, every thread ClickHouse named has the nice value
 * EMBEDDED_THREAD_NICE, while the Node.js threads (the main thread among them) keep theirs.
 * On Linux, the platform the project's CI and packages target; elsewhere nothing is changed and
 * nothing is reported.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMBEDDED_THREAD_NICE, threadPriorities, type ClickHouseClient } from "../../services/activity-log/index.js";
import { embeddedClickHouse } from "../support/clickhouse.js";
import { eventually } from "../support/eventually.js";

let client: ClickHouseClient;
beforeAll(async () => {
  client = await embeddedClickHouse();
});
afterAll(async () => client?.close());

describe("the embedded engine's threads", () => {
  it("run at the lower priority, the Node.js threads at theirs", async () => {
    if (process.platform !== "linux") {
      expect(threadPriorities()).toEqual([]);
      return;
    }
    const nodeBefore = threadPriorities().filter((t) => t.name === "node");
    // A query spread over the engine's threads (max_threads: the cores).
    await (await client.query({ query: "SELECT sum(number) FROM numbers(50000000)", format: "JSONEachRow" })).json();
    await eventually(async () => {
      const engine = threadPriorities().filter((t) => t.name !== "node");
      expect(engine.length).toBeGreaterThan(0);
      expect(engine.filter((t) => t.nice !== EMBEDDED_THREAD_NICE)).toEqual([]);
    });
    expect(new Set(nodeBefore.map((t) => t.nice))).toEqual(new Set([0]));
    expect(threadPriorities().filter((t) => t.name === "node" && t.nice !== 0)).toEqual([]);
  });
});
