/**
 * The ClickHouse side of the log benchmark: load the synthetic events (synthetic-events.ts) into
 * the embedded engine, then time the service's own ListLogs / AggregateLogs handlers and the
 * relay's sink on the hot repository (docs/activity-log.md "Benchmark" scenarios).
 */
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { AggregateLogsRequestSchema, ListLogsRequestSchema } from "../../gen/yardmaster/v1/activity_log_pb.js";
import {
  aggregateLogsHandler,
  createCursorCodec,
  createEventSink,
  listLogsHandler,
  readLogFilters,
  type ClickHouseClient,
} from "../../services/activity-log/index.js";
import type { StoredEventRow } from "../../services/store/index.js";
import { measure, seededRandom, type Latency } from "./percentiles.js";
import { generateEventsSql, TYPES_BY_FREQUENCY } from "./synthetic-events.js";

/** The repository the scenarios query: the one holding the most events. */
export const HOT = { owner: "org0", repository: "repo0" };
const DAY = 86_400_000;

/** Loads `n` events ending at `endMs` unless the table already holds exactly `n`; returns what it did. */
export async function loadEvents(client: ClickHouseClient, n: number, endMs: number): Promise<string> {
  const rs = await client.query({ query: "SELECT count() AS c FROM events", format: "JSONEachRow" });
  const have = Number((await rs.json<{ c: string }>())[0].c);
  if (have === n) return `reused ${n.toLocaleString("en")} events already loaded`;
  await client.command({ query: "TRUNCATE TABLE events" });
  let t = performance.now();
  await client.command({ query: generateEventsSql("events", n, endMs) });
  const gen = performance.now() - t;
  t = performance.now();
  await client.command({ query: "OPTIMIZE TABLE events FINAL" });
  return `generated ${n.toLocaleString("en")} events in ${(gen / 1000).toFixed(1)} s, merged in ${((performance.now() - t) / 1000).toFixed(1)} s`;
}

async function hotPullRequests(client: ClickHouseClient): Promise<bigint[]> {
  const rs = await client.query({
    query:
      "SELECT DISTINCT toString(pull_request) AS pr FROM events WHERE repository = {r:String} AND pull_request >= 0 ORDER BY pr LIMIT 5000",
    query_params: { r: `${HOT.owner}/${HOT.repository}` },
    format: "JSONEachRow",
  });
  return (await rs.json<{ pr: string }>()).map((r) => BigInt(r.pr));
}

/** p50/p95 of each query scenario, through the service's handlers. */
export async function queryScenarios(
  client: ClickHouseClient,
  endMs: number,
  runs: number,
): Promise<Record<string, Latency>> {
  const cursors = createCursorCodec("benchmark secret, 32 bytes at least");
  const deps = { clickhouse: client, cursors, now: () => new Date(endMs) };
  const list = listLogsHandler(deps);
  const aggregate = aggregateLogsHandler(deps);
  const prs = await hotPullRequests(client);
  const rnd = seededRandom(42);
  const month = { fromMs: endMs - 30 * DAY, toMs: endMs };
  const window = { receivedFrom: timestampFromMs(month.fromMs), receivedTo: timestampFromMs(month.toMs) };
  const page = (init: Record<string, unknown>, deep: boolean) => {
    const req = create(ListLogsRequestSchema, { ...HOT, ...window, perPage: 100, ...init });
    if (deep) {
      // A cursor 50-90% of the way into the month (older than most rows), as a client paging far would hold.
      const at = month.toMs - Math.floor((0.5 + 0.4 * rnd()) * (month.toMs - month.fromMs));
      req.cursor = cursors.issue(readLogFilters(req), {
        direction: "older",
        position: { receivedAtMs: at, id: 2n ** 62n },
        window: month,
      });
    }
    return list(req);
  };
  const out: Record<string, Latency> = {};
  out["/logs page of 100, no filter, deep cursor"] = await measure(() => page({}, true), runs);
  out["/logs page of 100, event_type filter"] = await measure(
    () => page({ eventType: [TYPES_BY_FREQUENCY[Math.floor(rnd() * 47)]] }, rnd() < 0.5),
    runs,
  );
  out["/logs page of 100, pull_request filter"] = await measure(
    () => page({ pullRequest: [prs[Math.floor(rnd() * prs.length)]] }, false),
    runs,
  );
  const agg = (fromMs: number, toMs: number) =>
    aggregate(
      create(AggregateLogsRequestSchema, {
        ...HOT,
        receivedFrom: timestampFromMs(fromMs),
        receivedTo: timestampFromMs(toMs),
      }),
    );
  out["/logs/aggregate, 1 day"] = await measure(() => {
    const to = endMs - Math.floor(rnd() * 29 * DAY);
    return agg(to - DAY, to);
  }, runs);
  out["/logs/aggregate, 30 days"] = await measure(() => {
    const shift = Math.floor(rnd() * 3_600_000);
    return agg(month.fromMs - shift, month.toMs - shift);
  }, runs);
  return out;
}

/**
 * Rows per second through the relay's sink (createEventSink), in batches of 1,000 as the relay
 * sends, into an empty copy of the events table (same columns, projections and engine).
 */
export async function insertThroughput(client: ClickHouseClient, endMs: number, rows = 200_000): Promise<number> {
  await client.command({ query: "DROP TABLE IF EXISTS events_insert_bench" });
  await client.command({ query: "CREATE TABLE events_insert_bench AS events" });
  const sink = createEventSink(client, "events_insert_bench");
  const batch = 1000;
  const metadata = JSON.stringify({
    queue_name: "default",
    priority_rule_name: null,
    session_id: "0b1d1c2e-3f40-4a5b-8c6d-7e8f90a1b2c3",
    reason: "benchmark insert",
    checks: [],
  });
  const t = performance.now();
  for (let b = 0; b < rows / batch; b++) {
    const values: StoredEventRow[] = Array.from({ length: batch }, (_, i) => {
      const k = b * batch + i;
      return {
        id: String(1_000_000_000_000 + k),
        receivedAt: new Date(endMs - DAY + k * 10),
        repository: "bench/insert",
        trigger: "merge queue internal",
        pullRequest: String(1 + (k % 500)),
        baseRef: "main",
        outcome: "neutral",
        type: TYPES_BY_FREQUENCY[k % 47],
        batchPull: null,
        metadata,
      };
    });
    await sink.insertEvents(values, { mayExist: false });
  }
  const seconds = (performance.now() - t) / 1000;
  await client.command({ query: "DROP TABLE events_insert_bench" });
  return rows / seconds;
}
