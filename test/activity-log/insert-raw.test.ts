/**
 * insertRaw (services/activity-log/clickhouse-client.ts): rows serialised elsewhere (CI Insights'
 * report worker) stored as one block from their UTF-8 bytes, by the embedded engine (chdb's raw
 * insert) and by ClickHouse over HTTP (`yardmaster clickhouse-http` in a child process) alike;
 * a bad block stores nothing. docs/ci-insights.md "Ingest".
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClickHouseClient, insertRaw, type ClickHouseClient } from "../../services/activity-log/index.js";
import { embeddedClickHouse } from "../support/clickhouse.js";
import { startClickHouseHttp, type ClickHouseHttpProcess } from "../support/clickhouse-http-process.js";

let http: ClickHouseHttpProcess;
const clients: [string, ClickHouseClient][] = [];

beforeAll(async () => {
  http = await startClickHouseHttp();
  clients.push(["embedded", await embeddedClickHouse()], ["by URL", createClickHouseClient({ url: http.url })]);
  for (const [, c] of clients)
    await c.command({
      query: "CREATE TABLE raw_rows (name String, at DateTime64(3, 'UTC'), n UInt32) ENGINE = MergeTree ORDER BY name",
    });
});

afterAll(async () => {
  for (const [, c] of clients) await c.close();
  await http?.destroy();
});

const lines = (rows: object[]) => new TextEncoder().encode(rows.map((r) => JSON.stringify(r)).join("\n"));

describe("insertRaw", () => {
  const client = (kind: string) => clients.find(([k]) => k === kind)![1];

  it.each(["embedded", "by URL"])("stores JSONEachRow bytes as they are (%s)", async (kind) => {
    const c = client(kind);
    const rows = Array.from({ length: 1000 }, (_, n) => ({ name: `t${n} é`, at: "2026-11-28 07:00:00.123", n }));
    await insertRaw(c, "raw_rows", "JSONEachRow", lines(rows));
    const rs = await c.query({
      query: "SELECT count() AS rows, sum(n) AS total, any(toString(at)) AS at FROM raw_rows WHERE name LIKE '% é'",
      format: "JSONEachRow",
    });
    expect(await rs.json()).toEqual([{ rows: "1000", total: "499500", at: "2026-11-28 07:00:00.123" }]);
  });

  it.each(["embedded", "by URL"])("stores nothing of a block with a bad row (%s)", async (kind) => {
    const c = client(kind);
    const bad = [
      { name: "ok", at: "2026-11-28 07:00:00", n: 1 },
      { name: "bad", at: "2026-11-28 07:00:00", n: "x" },
    ];
    await expect(insertRaw(c, "raw_rows", "JSONEachRow", lines(bad))).rejects.toThrow();
    const rs = await c.query({
      query: "SELECT count() AS rows FROM raw_rows WHERE name IN ('ok', 'bad')",
      format: "JSONEachRow",
    });
    expect(await rs.json()).toEqual([{ rows: "0" }]);
  });

  it("refuses a table name that is not a plain identifier", async () => {
    await expect(insertRaw(client("embedded"), "raw_rows; DROP TABLE x", "JSONEachRow", lines([{}]))).rejects.toThrow(
      /not a plain identifier/,
    );
  });
});
