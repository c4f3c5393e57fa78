/**
 * The activity-log page's snapshot (docs/dashboard.md "Activity log"): aggregates (total,
 * histogram, facets) and one page of events for the filters in the page's URL, plus a count per
 * base ref (AggregateLogs has no base-ref facet: each base ref of ListQueueBaseRefs is counted
 * with its own filter). Polled while no stream is available; the first page is the live tail.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AggregateLogsResponse } from "../../../gen/yardmaster/v1/activity_log_pb.js";
import { Outcome, type Event } from "../../../gen/yardmaster/v1/events_pb.js";
import { activityLog, queue } from "./clients.js";
import { poll, type Source } from "./live.js";
import type { RepositoryRef } from "./queue-view.js";

/** The filters of the page, as its URL's query spells them (the names of the REST query). */
export interface LogFilters {
  eventType: string[];
  outcome: string[];
  pullRequest: string[];
  trigger: string[];
  baseRef: string | undefined;
  /** Window length in hours, ending now (default 24). */
  hours: number;
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
    hours: Number(q.get("hours") ?? 24) || 24,
    cursor: q.get("cursor") ?? undefined,
  };
}

/** One snapshot of the log page. */
export interface LogsView {
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

/** The request fields of the filters (without paging). */
function requestOf(repo: RepositoryRef, f: LogFilters, withBaseRef = true) {
  return {
    ...repo,
    eventType: f.eventType,
    outcome: f.outcome.map((o) => Outcome[o as keyof typeof Outcome]),
    pullRequest: f.pullRequest.map((n) => BigInt(n)),
    trigger: f.trigger,
    baseRef: withBaseRef ? f.baseRef : undefined,
    receivedFrom: timestampFromDate(new Date(Date.now() - f.hours * 3_600_000)),
  };
}

/** Events per page. */
export const PER_PAGE = 25;

async function load(repo: RepositoryRef, f: LogFilters, signal: AbortSignal): Promise<LogsView> {
  const req = requestOf(repo, f);
  let link: string | null = null;
  const page = activityLog.listLogs(
    { ...(f.cursor ? { ...repo, cursor: f.cursor } : req), perPage: PER_PAGE },
    { signal, onHeader: (h) => (link = h.get("link")) },
  );
  const aggregate = activityLog.aggregateLogs(req, { signal });
  const refs = await queue.listQueueBaseRefs({ ...repo, startAt: req.receivedFrom }, { signal });
  const counts = await Promise.all(
    refs.baseRefs.slice(0, 20).map(async (value) => {
      const a = await activityLog.aggregateLogs({ ...requestOf(repo, f, false), baseRef: value }, { signal });
      return { value, count: Number(a.total) };
    }),
  );
  const events = (await page).events;
  return {
    aggregate: await aggregate,
    events,
    next: cursorOf(link, "next"),
    prev: cursorOf(link, "prev"),
    baseRefs: counts,
  };
}

/** Polling interval of the log page, in milliseconds. */
export const LOGS_POLL_MS = 2000;

/** Snapshots of the log page for `filters`; `tail` false keeps the first snapshot (no refresh). */
export function logsView(repo: RepositoryRef, filters: LogFilters, tail: boolean): Source<LogsView> {
  if (!tail || filters.cursor)
    return async function* (signal) {
      yield await load(repo, filters, signal);
    };
  return poll((signal) => load(repo, filters, signal), LOGS_POLL_MS);
}
