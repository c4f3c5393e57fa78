/**
 * The ClickHouse schema as the migrations leave it (services/activity-log/migrations/): the `type`
 * Enum8 lists exactly the event types of events.proto (a type added to the proto without a
 * migration would make the relay's inserts fail), and re-running the migrations changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EVENT_TYPES, migrateClickHouse, type ClickHouseClient } from "../../services/activity-log/index.js";
import { embeddedClickHouse } from "../support/clickhouse.js";

let ch: ClickHouseClient;
beforeAll(async () => {
  ch = await embeddedClickHouse();
});
afterAll(async () => {
  await ch?.close();
});

async function columnType(name: string): Promise<string> {
  const rs = await ch.query({
    query:
      "SELECT type FROM system.columns WHERE database = currentDatabase() AND table = 'events' AND name = {n:String}",
    query_params: { n: name },
    format: "JSONEachRow",
  });
  return (await rs.json<{ type: string }>())[0].type;
}
const enumNames = (type: string) => [...type.matchAll(/'([^']+)' = \d+/g)].map((m) => m[1]);

describe("the events table", () => {
  it("lists every event type of events.proto in its type column, and nothing else", async () => {
    expect(enumNames(await columnType("type")).sort()).toEqual([...EVENT_TYPES.keys()].sort());
  });

  it("holds the four outcomes", async () => {
    expect(enumNames(await columnType("outcome"))).toEqual(["success", "failure", "pending", "neutral"]);
  });

  it("is left as is by a second migration run", async () => {
    expect(await migrateClickHouse(ch)).toEqual([]);
  });
});
