/**
 * One `/logs` page read from ClickHouse (docs/activity-log.md "ClickHouse choices"): rows of the
 * request's filters and window, newest first by (received_at, id), keyset-paginated. The keyset
 * condition is written in the expanded form (`received_at <= T AND (received_at < T OR id < I)`)
 * because ClickHouse does not use the primary key for a tuple comparison. One row more than the
 * page is read to know whether another page follows in the reading direction. A page reads a few
 * granules in key order: one thread does it as fast as several, and more steadily on a busy host.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { JsonObject } from "@bufbuild/protobuf";
import { EventSchema, Outcome as OutcomeEnum } from "../../gen/yardmaster/v1/events_pb.js";
import { shareMessage } from "../contracts/index.js";
import type { LogPosition } from "./log-cursor.js";
import type { LogFilters, LogWindow } from "./log-filters.js";
import { allConditions, logPredicates } from "./log-sql.js";

/** An event as the log endpoints return it (events.proto Event). */
export type LogEvent = MessageInitShape<typeof EventSchema> & {
  id: bigint;
  receivedAt: NonNullable<MessageInitShape<typeof EventSchema>["receivedAt"]>;
};

/** A page: events newest first, their first and last positions, and whether more rows follow in the reading direction. */
export interface PageRows {
  events: LogEvent[];
  positions: LogPosition[];
  more: boolean;
}

/** A row as the page query returns it (text columns; metadata as the stored JSON text). */
export interface LogRow {
  id_text: string;
  ms: string;
  trigger: string;
  repository: string;
  pull_request_text: string;
  base_ref: string;
  outcome_name: keyof typeof OutcomeEnum;
  type_name: string;
  metadata: string;
}

/** The SELECT list of a {@link LogRow} (output names differ from the columns: an alias would shadow its column in WHERE). */
export const LOG_ROW_COLUMNS = `toString(id) AS id_text, toUnixTimestamp64Milli(received_at) AS ms, trigger, repository,
  toString(pull_request) AS pull_request_text, base_ref, toString(outcome) AS outcome_name, toString(type) AS type_name, metadata`;

/** Reading direction from a position: `older` = the next page, `newer` = the previous one. */
export type Direction = "older" | "newer";

/** Where a page starts: after a position in a direction, or at the newest row (null). */
export type PageStart = { direction: Direction; position: LogPosition } | null;

/**
 * Reads up to `limit` rows of `filters` in `window`, strictly older (or newer) than `after`
 * (or from the newest row when `after` is null).
 * @param signal aborts the query (a read past its deadline, list-logs.ts)
 * @returns rows newest first, whatever the direction
 * @throws the ClickHouse client's error when the query fails
 */
export async function readLogPage(
  client: ClickHouseClient,
  filters: LogFilters,
  window: LogWindow,
  after: PageStart,
  limit: number,
  signal?: AbortSignal,
): Promise<PageRows> {
  return pageOfRows(await readLogRows(client, filters, window, after, limit, signal), after, limit);
}

/**
 * The rows a page is made of: up to `limit + 1` rows in reading order (newest first, or oldest
 * first when reading `newer` than a position); the extra row tells whether more follow.
 * @param signal aborts the query (a read past its deadline, list-logs.ts)
 * @throws the ClickHouse client's error when the query fails
 */
export async function readLogRows(
  client: ClickHouseClient,
  filters: LogFilters,
  window: LogWindow,
  after: PageStart,
  limit: number,
  signal?: AbortSignal,
): Promise<LogRow[]> {
  const p = logPredicates(filters, window);
  const conditions = allConditions(p);
  const params: Record<string, unknown> = { ...p.params, lim: limit + 1 };
  let order = "DESC";
  if (after) {
    params.c_ms = after.position.receivedAtMs;
    params.c_id = after.position.id;
    const t = "fromUnixTimestamp64Milli({c_ms:Int64}, 'UTC')";
    if (after.direction === "older")
      conditions.push(`received_at <= ${t}`, `(received_at < ${t} OR id < {c_id:UInt64})`);
    else conditions.push(`received_at >= ${t}`, `(received_at > ${t} OR id > {c_id:UInt64})`);
    if (after.direction === "newer") order = "ASC";
  }
  const rs = await client.query({
    // Output names differ from the columns: an alias would shadow its column in WHERE.
    query: `SELECT ${LOG_ROW_COLUMNS}
            FROM events WHERE ${conditions.join(" AND ")}
            ORDER BY received_at ${order}, id ${order} LIMIT {lim:UInt32}
            SETTINGS max_threads = 1`,
    query_params: params,
    format: "JSONEachRow",
    abort_signal: signal,
  });
  return rs.json<LogRow>();
}

/** The page of `limit` events made of `rows` (reading order, up to `limit + 1`, as {@link readLogRows} gives them). */
export function pageOfRows(rows: LogRow[], after: PageStart, limit: number): PageRows {
  const more = rows.length > limit;
  const page = rows.slice(0, limit);
  if (after?.direction === "newer") page.reverse();
  return {
    events: page.map(eventOf),
    positions: page.map((r) => ({ receivedAtMs: Number(r.ms), id: BigInt(r.id_text) })),
    more,
  };
}

/** The event of each row object read, made once: a cached page's rows answer many requests (page-cache.ts). */
const events = new WeakMap<LogRow, LogEvent>();

/** The row's event as a shared message (contracts/frozen-message.ts: frozen, its REST JSON kept). */
export function eventOf(r: LogRow): LogEvent {
  let e = events.get(r);
  if (!e) events.set(r, (e = shareMessage(create(EventSchema, toEvent(r))) as LogEvent));
  return e;
}

function toEvent(r: LogRow): LogEvent {
  return {
    id: BigInt(r.id_text),
    receivedAt: timestampFromMs(Number(r.ms)),
    trigger: r.trigger,
    repository: r.repository,
    pullRequest: r.pull_request_text === "-1" ? undefined : BigInt(r.pull_request_text),
    baseRef: r.base_ref === "" ? undefined : r.base_ref,
    outcome: OutcomeEnum[r.outcome_name],
    type: r.type_name,
    metadata: JSON.parse(r.metadata) as JsonObject,
  };
}
