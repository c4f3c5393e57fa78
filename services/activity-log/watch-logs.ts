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
import { LOG_CHANNEL, type ChangeFeed } from "../store/index.js";
import { filterScope } from "./log-cursor.js";
import { readLogFilters, type LogFilters } from "./log-filters.js";
import { readWithDeadline, type LogLagDeps } from "./log-lag.js";
import { eventOf, LOG_ROW_COLUMNS, type LogRow } from "./log-page.js";
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
          const { rows, complete } = await reads(filters, at);
          for (const row of rows) {
            await sink.room();
            if (sink.signal.aborted) return;
            const event = eventOf(row) as Event;
            at = advance(at, { receivedAtMs: Number(row.ms), id: BigInt(row.id_text) }, settled);
            sink.push({ event, cursor: deps.cursors.issue(filters, at) }, messageBytes(EventSchema, event) + 64);
          }
          if (complete) {
            at = advance(at, null, settled);
            await wake.wait(FALLBACK_WAKE_MS, sink.signal);
          }
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

/** Rows of one read for a tail, oldest first; `complete` when they are all the visible rows after its position. */
interface TailRead {
  rows: LogRow[];
  complete: boolean;
}

/** A tail whose watermark is this close to now reads with the others of its filters (ms). */
export const LIVE_SPAN_MS = 60_000;

/**
 * Reads of the rows after a position. Tails near the end of the log (watermark within
 * {@link LIVE_SPAN_MS} of now) with the same filters share one read from the lowest of their
 * watermarks (a read that started after each of them asked), and each keeps the rows at or after
 * its own position; a tail further back (catching up from an old cursor) reads alone.
 */
function sharedTailReads(deps: WatchLogsDeps) {
  type Waiter = { at: TailPosition; resolve: (rows: LogRow[]) => void; reject: (e: unknown) => void };
  const groups = new Map<string, { filters: LogFilters; waiting: Waiter[]; running: boolean }>();
  const read = (filters: LogFilters, at: TailPosition, exclude: boolean) =>
    readWithDeadline(deps, (signal) => readTail(deps.clickhouse, filters, at, exclude, signal));
  const alone = async (filters: LogFilters, at: TailPosition): Promise<TailRead> => {
    const rows = await read(filters, at, true);
    return { rows: rows.slice(0, PAGE), complete: rows.length <= PAGE };
  };

  function start(key: string): void {
    const g = groups.get(key)!;
    if (g.running) return;
    if (g.waiting.length === 0) return void groups.delete(key);
    const served = g.waiting;
    g.waiting = [];
    g.running = true;
    const from = Math.min(...served.map((w) => w.at.watermarkMs));
    read(g.filters, { watermarkMs: from, delivered: [] }, false)
      .then(
        (rows) => served.forEach((w) => w.resolve(rows)),
        (e: unknown) => served.forEach((w) => w.reject(e)),
      )
      .finally(() => {
        g.running = false;
        start(key);
      });
  }

  return async (filters: LogFilters, at: TailPosition): Promise<TailRead> => {
    if (at.watermarkMs < deps.now().getTime() - LIVE_SPAN_MS) return alone(filters, at);
    const key = filterScope(filters);
    let g = groups.get(key);
    if (!g) groups.set(key, (g = { filters, waiting: [], running: false }));
    const rows = await new Promise<LogRow[]>((resolve, reject) => {
      g.waiting.push({ at, resolve, reject });
      start(key);
    });
    // Rows of a shared read below this tail's position, or already delivered, are not its own.
    const delivered = new Set(at.delivered.map((d) => d.id.toString()));
    const own = rows.slice(0, PAGE).filter((r) => Number(r.ms) >= at.watermarkMs && !delivered.has(r.id_text));
    // A read that hit its limit covers the log only up to its last row: the tail reads on at once.
    return { rows: own, complete: rows.length <= PAGE };
  };
}

/** Up to PAGE + 1 rows of `filters` received at or after the watermark, minus those delivered, oldest first. */
async function readTail(
  client: ClickHouseClient,
  filters: LogFilters,
  at: TailPosition,
  exclude: boolean,
  signal: AbortSignal,
): Promise<LogRow[]> {
  const p = logPredicates(filters, { fromMs: at.watermarkMs, toMs: FAR_FUTURE_MS });
  const conditions = allConditions(p);
  const params: Record<string, unknown> = { ...p.params, lim: PAGE + 1 };
  if (exclude && at.delivered.length > 0) {
    conditions.push("id NOT IN {delivered:Array(UInt64)}");
    params.delivered = at.delivered.map((d) => d.id);
  }
  const rs = await client.query({
    query: `SELECT ${LOG_ROW_COLUMNS}
            FROM events WHERE ${conditions.join(" AND ")}
            ORDER BY received_at ASC, id ASC LIMIT {lim:UInt32}
            SETTINGS max_threads = 1`,
    query_params: params,
    format: "JSONEachRow",
    abort_signal: signal,
  });
  return rs.json<LogRow>();
}
