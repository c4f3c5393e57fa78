/**
 * ListLogs (`GET /logs`, docs/activity-log.md "Pages, cursors and links"): a page
 * of events newest first, keyset-paginated on (received_at, id), with `next` / `prev` / `first`
 * links in the `Link` response header. A listing is pinned to its window: the first request
 * resolves the default window (the last day up to now) once, and its cursors and links carry it,
 * so walking the pages of a listing never skips or repeats an event while new ones arrive.
 *
 * When each link appears:
 * - `first`: always (the first page of the same listing);
 * - `next`: when an older row exists after this page;
 * - `prev`: when a newer row exists before this page — never on the first page; on a page reached
 *   by `next`, whenever the page holds rows (the row the cursor came from is newer); on a page
 *   reached by `prev`, when one more newer row was found.
 * An empty page has `first` only.
 */
import type { HandlerContext } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ClickHouseClient } from "@clickhouse/client";
import type { ListLogsRequest, ListLogsResponseSchema } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { invalidField } from "../contracts/index.js";
import { ceilMs, readLogFilters, readLogWindow, type LogFilters, type LogWindow } from "./log-filters.js";
import type { CursorCodec, CursorState } from "./log-cursor.js";
import { linkHeader, type PageCursors } from "./log-links.js";
import { pageOfRows, readLogRows, type Direction } from "./log-page.js";
import type { LogPageCache } from "./page-cache.js";
import type { LogPosition } from "./log-cursor.js";
import { readWithDeadline, setLagHeader, type LogLagDeps } from "./log-lag.js";

/** per_page when the request gives none (docs/activity-log.md "Pages, cursors and links"). */
export const DEFAULT_PER_PAGE = 10;
/** The largest per_page (docs/api.md "Limits"). */
export const MAX_PER_PAGE = 100;

/**
 * What the log reads need: the ClickHouse client, the cursor codec, the clock, and the read
 * deadline and lag of log-lag.ts.
 */
export interface LogReadDeps extends LogLagDeps {
  clickhouse: ClickHouseClient;
  cursors: CursorCodec;
  /** The current time (UTC); injected for tests. */
  now: () => Date;
  /**
   * Where a window without `received_to` ends when the clock says `now`, epoch ms UTC
   * (settled-time.ts); the identity when absent.
   */
  windowEnd?: (now: Date) => Promise<number>;
  /** The answer cache of the embedded engine (page-cache.ts); pages are read from ClickHouse when absent. */
  pages?: LogPageCache;
}

/**
 * The clock a request's default window is resolved with: `now`, or the settled end of a window
 * ending now when the request gives no `received_to` (settled-time.ts).
 */
export async function windowClock(
  deps: Pick<LogReadDeps, "now" | "windowEnd">,
  req: { receivedTo?: unknown },
): Promise<Date> {
  const now = deps.now();
  if (req.receivedTo !== undefined || !deps.windowEnd) return now;
  return new Date(await deps.windowEnd(now));
}

/**
 * The window of a request that carries a cursor: the cursor's. A bound the request also gives
 * must equal the cursor's (links repeat them), else the cursor belongs to another listing.
 */
function cursorWindow(req: ListLogsRequest, state: CursorState): LogWindow {
  const differs =
    (req.receivedFrom && ceilMs(req.receivedFrom) !== state.window.fromMs) ||
    (req.receivedTo && ceilMs(req.receivedTo) !== state.window.toMs);
  if (differs) throw invalidField("cursor", "belongs to a listing with another received_from / received_to window");
  return state.window;
}

function cursorsOf(
  codec: CursorCodec,
  filters: LogFilters,
  window: LogWindow,
  from: Direction | null,
  positions: LogPosition[],
  more: boolean,
): PageCursors {
  if (positions.length === 0) return {};
  const at = (direction: Direction, position: LogPosition) => codec.issue(filters, { direction, position, window });
  const first = positions[0];
  const last = positions[positions.length - 1];
  const hasNext = from === "newer" ? true : more;
  const hasPrev = from === null ? false : from === "older" ? true : more;
  return { next: hasNext ? at("older", last) : undefined, prev: hasPrev ? at("newer", first) : undefined };
}

/**
 * The ListLogs handler. Sets the `Link` response header, and the lag header when events are on
 * their way (log-lag.ts), when a context is given.
 * @throws InvalidArgumentError naming the parameter: per_page outside 1-100, a bad cursor, and
 *   every refusal of readLogFilters / readLogWindow; DatabaseUnavailableError when ClickHouse does
 *   not answer within the read deadline
 */
export function listLogsHandler(deps: LogReadDeps) {
  return async (
    req: ListLogsRequest,
    ctx?: Pick<HandlerContext, "responseHeader">,
  ): Promise<MessageInitShape<typeof ListLogsResponseSchema>> => {
    const filters = readLogFilters(req);
    const perPage = req.perPage ?? DEFAULT_PER_PAGE;
    if (perPage < 1 || perPage > MAX_PER_PAGE) throw invalidField("per_page", `must be between 1 and ${MAX_PER_PAGE}`);
    let window: LogWindow;
    let after: CursorState | null = null;
    if (req.cursor !== undefined) {
      after = deps.cursors.open(filters, req.cursor);
      window = cursorWindow(req, after);
    } else {
      window = readLogWindow(req, await windowClock(deps, req));
    }
    // A shared cached read is not aborted by one caller's deadline; the caller stops waiting.
    const read = (signal: AbortSignal) =>
      deps.pages
        ? deps.pages.rows(filters, window, after, perPage)
        : readLogRows(deps.clickhouse, filters, window, after, perPage, signal);
    const page = pageOfRows(await readWithDeadline(deps, read), after, perPage);
    const cursors = cursorsOf(deps.cursors, filters, window, after?.direction ?? null, page.positions, page.more);
    ctx?.responseHeader.set("link", linkHeader(req.owner, req.repository, filters, window, perPage, cursors));
    await setLagHeader(deps, ctx);
    return { size: page.events.length, perPage, events: page.events };
  };
}
