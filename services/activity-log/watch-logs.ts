/**
 * WatchLogs (proto/yardmaster/v1/activity_log.proto; docs/activity-log.md "Live tail"): the
 * events of ListLogs' filters as they reach ClickHouse, oldest first, each with the cursor that
 * resumes right after it (watch-cursor.ts). A tail wakes when the relay notifies that it stored
 * events of the repository (store/change-feed.ts, from any process), and every
 * {@link FALLBACK_WAKE_MS} anyway (a notification lost with a PostgreSQL session), then reads
 * `received_at >= watermark` minus what it delivered, {@link PAGE} rows at a time. Tails at the
 * same place with the same filters share one ClickHouse read (store/fresh-read.ts); a tail whose
 * client is slow waits for room in its buffer before reading on (live/live-stream.ts).
 */
import type { ClickHouseClient } from "@clickhouse/client";
import { timestampMs } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import type { WatchLogsRequest, WatchLogsResponse } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { EventSchema, type Event } from "../../gen/yardmaster/v1/events_pb.js";
import { invalidField } from "../contracts/index.js";
import { liveStream, messageBytes, Wakeup, type LiveRegistry } from "../live/index.js";
import { FreshRead, LOG_CHANNEL, type ChangeFeed } from "../store/index.js";
import { filterScope } from "./log-cursor.js";
import { readLogFilters, type LogFilters } from "./log-filters.js";
import { readWithDeadline, type LogLagDeps } from "./log-lag.js";
import { eventOf, type LogRow } from "./log-page.js";
import { allConditions, logPredicates } from "./log-sql.js";
import type { TailCursorCodec, TailPosition } from "./watch-cursor.js";

/** Rows read per ClickHouse query. */
export const PAGE = 500;
/** A tail reads again after this long without a notification, ms. */
export const FALLBACK_WAKE_MS = 5000;
/** How far back `received_from` may start a tail, ms (one day, the default window of `/logs`). */
export const MAX_BACKFILL_MS = 86_400_000;
const FAR_FUTURE_MS = Date.UTC(2299, 11, 31);

/** What the tails need. */
export interface WatchLogsDeps extends LogLagDeps {
  clickhouse: ClickHouseClient;
  cursors: TailCursorCodec;
  registry: LiveRegistry;
  feed: ChangeFeed;
  now: () => Date;
  /** The log's settled time at `now`, epoch ms UTC (settled-time.ts). */
  settledEnd: (now: Date) => Promise<number>;
}

type Init = Omit<WatchLogsResponse, "$typeName" | "$unknown">;

/** The WatchLogs handler. @throws InvalidArgumentError naming the parameter, as ListLogs, and `received_from` more than a day back */
export function watchLogsHandler(deps: WatchLogsDeps) {
  const reads = sharedTailReads(deps);
  return (req: WatchLogsRequest, ctx: HandlerContext): AsyncIterable<Init> => {
    const filters = readLogFilters(req);
    const nowMs = deps.now().getTime();
    let start: TailPosition;
    if (req.cursor !== undefined) start = deps.cursors.open(filters, req.cursor);
    else {
      const from = req.receivedFrom ? timestampMs(req.receivedFrom) : nowMs;
      if (from < nowMs - MAX_BACKFILL_MS) throw invalidField("received_from", "must be at most one day back");
      start = { watermarkMs: from, delivered: [] };
    }
    const repository = filters.repository;
    return liveStream<Init>(deps.registry, { signal: ctx.signal }, async (sink) => {
      const wake = new Wakeup();
      const unsubscribe = deps.feed.subscribe(LOG_CHANNEL, (payload) => {
        // The payload is a JSON array of repositories (store/outbox-relay.ts notifyPayload).
        if (payload === null || payload === "*" || payload.includes(JSON.stringify(repository))) wake.notify();
      });
      try {
        let at = start;
        while (!sink.signal.aborted) {
          const settled = await deps.settledEnd(deps.now());
          const rows = await reads(filters, at);
          for (const row of rows.slice(0, PAGE)) {
            await sink.room();
            if (sink.signal.aborted) return;
            const event = eventOf(row) as Event;
            at = advance(at, { receivedAtMs: Number(row.ms), id: BigInt(row.id_text) }, settled);
            sink.push({ event, cursor: deps.cursors.issue(filters, at) }, messageBytes(EventSchema, event) + 64);
          }
          if (rows.length <= PAGE) at = advance(at, null, settled);
          if (rows.length <= PAGE) await wake.wait(FALLBACK_WAKE_MS, sink.signal);
        }
      } finally {
        unsubscribe();
      }
    });
  };
}

/**
 * The position after delivering `event` (or, null, after a read that returned everything visible):
 * the watermark moves up to the settled time, never past an event not yet delivered (the rows come
 * in (received_at, id) order, so every event received before `event` was in the read), and the
 * delivered list keeps only the events at or after it.
 */
export function advance(
  at: TailPosition,
  event: { receivedAtMs: number; id: bigint } | null,
  settledMs: number,
): TailPosition {
  const bound = event ? Math.min(event.receivedAtMs, settledMs) : settledMs;
  const watermarkMs = Math.max(at.watermarkMs, bound);
  const delivered = (event ? [...at.delivered, event] : at.delivered).filter((d) => d.receivedAtMs >= watermarkMs);
  return { watermarkMs, delivered };
}

/** Reads of the rows after a position, shared by the tails at the same position with the same filters. */
function sharedTailReads(deps: WatchLogsDeps) {
  const args = new Map<string, { filters: LogFilters; at: TailPosition; users: number }>();
  const fresh = new FreshRead<string, LogRow[]>((key) => {
    const a = args.get(key)!;
    return readWithDeadline(deps, (signal) => readTail(deps.clickhouse, a.filters, a.at, signal));
  });
  return async (filters: LogFilters, at: TailPosition): Promise<LogRow[]> => {
    const key = JSON.stringify([filterScope(filters), at.watermarkMs, at.delivered.map((d) => d.id.toString())]);
    const a = args.get(key) ?? { filters, at, users: 0 };
    args.set(key, { ...a, users: a.users + 1 });
    try {
      return await fresh.get(key);
    } finally {
      const left = args.get(key)!;
      if (left.users <= 1) args.delete(key);
      else args.set(key, { ...left, users: left.users - 1 });
    }
  };
}

/** Up to PAGE + 1 rows of `filters` received at or after the watermark, minus those delivered, oldest first. */
async function readTail(
  client: ClickHouseClient,
  filters: LogFilters,
  at: TailPosition,
  signal: AbortSignal,
): Promise<LogRow[]> {
  const p = logPredicates(filters, { fromMs: at.watermarkMs, toMs: FAR_FUTURE_MS });
  const conditions = allConditions(p);
  const params: Record<string, unknown> = { ...p.params, lim: PAGE + 1 };
  if (at.delivered.length > 0) {
    conditions.push("id NOT IN {delivered:Array(UInt64)}");
    params.delivered = at.delivered.map((d) => d.id);
  }
  const rs = await client.query({
    query: `SELECT toString(id) AS id_text, toUnixTimestamp64Milli(received_at) AS ms, trigger, repository, toString(pull_request) AS pull_request_text,
              base_ref, toString(outcome) AS outcome_name, toString(type) AS type_name, metadata
            FROM events WHERE ${conditions.join(" AND ")}
            ORDER BY received_at ASC, id ASC LIMIT {lim:UInt32}
            SETTINGS max_threads = 1`,
    query_params: params,
    format: "JSONEachRow",
    abort_signal: signal,
  });
  return rs.json<LogRow>();
}
