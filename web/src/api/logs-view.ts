/**
 * The activity-log page's snapshot (docs/dashboard.md "Pages"): aggregates (total,
 * histogram, facets) and one page of events for the filters in the page's URL, plus a count per
 * base ref (AggregateLogs has no base-ref facet: each base ref of ListQueueBaseRefs is counted
 * with its own filter). The newest page is the live tail: events from WatchLogs are added to it
 * as they reach the log, and the counts are read again at most every {@link RECOUNT_MS}; polled
 * when the server has no streams.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AggregateLogsResponse } from "../../../gen/yardmaster/v1/activity_log_pb.js";
import { Outcome, type Event } from "../../../gen/yardmaster/v1/events_pb.js";
import { activityLog, queue } from "./clients.js";
import { fitWindow, type FittedWindow } from "./fit-window.js";
import { merge, poll, sleep, streamOr, tailStart, type Source } from "./live.js";
import type { RepositoryRef } from "./queue-view.js";

/** The filters of the page, as its URL's query spells them (the names of the REST query). */
export interface LogFilters {
  eventType: string[];
  outcome: string[];
  pullRequest: string[];
  trigger: string[];
  baseRef: string | undefined;
  /** Window length in hours, ending now; null (the default): the window fitted to the events. */
  hours: number | null;
  /** Opaque cursor of the page shown; undefined for the newest page (the live tail). */
  cursor: string | undefined;
}

/** Reads the filters from a URL query. */
export function filtersOf(q: URLSearchParams): LogFilters {
  return {
    eventType: q.getAll("event_type"),
    outcome: q.getAll("outcome"),
    pullRequest: q.getAll("pull_request"),
    trigger: q.getAll("trigger"),
    baseRef: q.get("base_ref") ?? undefined,
    hours: q.get("hours") === null ? null : Number(q.get("hours")) || 24,
    cursor: q.get("cursor") ?? undefined,
  };
}

/** The window of the page. */
export type LogWindow = FittedWindow;

/** One snapshot of the log page. */
export interface LogsView {
  window: LogWindow;
  aggregate: AggregateLogsResponse;
  events: Event[];
  /** Cursors of the neighbouring pages, from the Link response header. */
  next: string | undefined;
  prev: string | undefined;
  /** Base ref -> number of events with the other filters. */
  baseRefs: { value: string; count: number }[];
}

/** The cursor of the link with relation `rel` in a Link header. */
function cursorOf(link: string | null, rel: string): string | undefined {
  const m = new RegExp(`<([^>]+)>; rel="${rel}"`).exec(link ?? "");
  return m ? (new URL(m[1], "http://x").searchParams.get("cursor") ?? undefined) : undefined;
}

/** The request fields of the filters (without window and paging). */
function filterFields(repo: RepositoryRef, f: LogFilters, withBaseRef = true) {
  return {
    ...repo,
    eventType: f.eventType,
    outcome: f.outcome.map((o) => Outcome[o as keyof typeof Outcome]),
    pullRequest: f.pullRequest.map((n) => BigInt(n)),
    trigger: f.trigger,
    baseRef: withBaseRef ? f.baseRef : undefined,
  };
}

/** The request fields of the filters and the window (without paging). */
function requestOf(repo: RepositoryRef, f: LogFilters, w: LogWindow, withBaseRef = true) {
  return {
    ...filterFields(repo, f, withBaseRef),
    receivedFrom: timestampFromDate(w.from),
    receivedTo: w.to ? timestampFromDate(w.to) : undefined,
  };
}

/** The window of the page: the last `hours` when chosen; otherwise fitted to the events (fit-window.ts). */
export async function windowOf(repo: RepositoryRef, f: LogFilters, signal: AbortSignal): Promise<LogWindow> {
  if (f.hours !== null) return { from: new Date(Date.now() - f.hours * 3_600_000), to: undefined, fitted: false };
  return fitWindow(filterFields(repo, f), signal);
}

/** Events per page. */
export const PER_PAGE = 25;

async function load(repo: RepositoryRef, f: LogFilters, w: LogWindow, signal: AbortSignal): Promise<LogsView> {
  const req = requestOf(repo, f, w);
  let link: string | null = null;
  const page = activityLog.listLogs(
    { ...(f.cursor ? { ...repo, cursor: f.cursor } : req), perPage: PER_PAGE },
    { signal, onHeader: (h) => (link = h.get("link")) },
  );
  const aggregate = activityLog.aggregateLogs(req, { signal });
  const refs = await queue.listQueueBaseRefs({ ...repo, startAt: req.receivedFrom, endAt: req.receivedTo }, { signal });
  const counts = await Promise.all(
    refs.baseRefs.slice(0, 20).map(async (value) => {
      const a = await activityLog.aggregateLogs({ ...requestOf(repo, f, w, false), baseRef: value }, { signal });
      return { value, count: Number(a.total) };
    }),
  );
  const events = (await page).events;
  return {
    window: w,
    aggregate: await aggregate,
    events,
    next: cursorOf(link, "next"),
    prev: cursorOf(link, "prev"),
    baseRefs: counts,
  };
}

/** Polling interval of the log page when the server has no streams, in milliseconds. */
export const LOGS_POLL_MS = 2000;
/** How often the counts and the page are read again while events arrive, in milliseconds. */
export const RECOUNT_MS = 2500;

/** Newest first, as /logs lists them: received_at, then id, descending. */
function newestFirst(a: Event, b: Event): number {
  const ta = Number(a.receivedAt?.seconds ?? 0) * 1e9 + (a.receivedAt?.nanos ?? 0);
  const tb = Number(b.receivedAt?.seconds ?? 0) * 1e9 + (b.receivedAt?.nanos ?? 0);
  return tb - ta || (b.id > a.id ? 1 : b.id < a.id ? -1 : 0);
}

/** The page's events with the streamed ones added: newest first, no duplicate, one page long. */
function withTail(page: Event[], tail: Map<bigint, Event>): Event[] {
  const all = new Map(page.map((e) => [e.id, e]));
  for (const [id, e] of tail) all.set(id, e);
  return [...all.values()].sort(newestFirst).slice(0, PER_PAGE);
}

type Tick = { event: Event } | { tick: true };

/** The newest page, then the same with each streamed event; counts read again while events come. */
function streamed(repo: RepositoryRef, filters: LogFilters): Source<LogsView> {
  return async function* (signal) {
    let window = await windowOf(repo, filters, signal);
    let view = await load(repo, filters, window, signal);
    let loadedAt = Date.now();
    let lastEventAt = 0;
    const tail = new Map<bigint, Event>();
    yield view;
    const req = filterFields(repo, filters);
    const events = async function* (): AsyncIterable<Tick> {
      // From the newest listed event on: the listing ends where the log has settled (tailStart).
      const from = tailStart(
        view.events.map((e) => e.receivedAt),
        window.from,
      );
      for await (const m of activityLog.watchLogs({ ...req, receivedFrom: timestampFromDate(from) }, { signal }))
        if (m.event) yield { event: m.event };
    };
    const ticks = async function* (): AsyncIterable<Tick> {
      while (!signal.aborted) {
        await sleep(RECOUNT_MS, signal);
        yield { tick: true };
      }
    };
    for await (const t of merge([events(), ticks()])) {
      if ("event" in t) {
        tail.set(t.event.id, t.event);
        lastEventAt = Date.now();
      } else if (lastEventAt >= loadedAt - RECOUNT_MS) {
        // The listing's window ends where the log has settled (2 s back): read until it covers them.
        // A fitted window that ended before these events reaches now from here on.
        if (window.to) window = { ...window, to: undefined };
        view = await load(repo, filters, window, signal);
        loadedAt = Date.now();
        const oldest = view.events.at(-1);
        for (const [id, e] of tail)
          if (view.events.some((v) => v.id === id) || (oldest && newestFirst(e, oldest) > 0)) tail.delete(id);
      } else continue;
      yield { ...view, events: withTail(view.events, tail) };
    }
  };
}

/** Snapshots of the log page for `filters`; `tail` false, or an older page, reads once. */
export function logsView(repo: RepositoryRef, filters: LogFilters, tail: boolean): Source<LogsView> {
  const once = async (signal: AbortSignal) => load(repo, filters, await windowOf(repo, filters, signal), signal);
  if (!tail || filters.cursor)
    return async function* (signal) {
      yield await once(signal);
    };
  return streamOr(streamed(repo, filters), poll(once, LOGS_POLL_MS));
}
