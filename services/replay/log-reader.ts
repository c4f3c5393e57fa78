/**
 * Reading the replay's activity log (docs/activity-log.md): every page of ListLogs for some event
 * types since the replay started (following the `next` cursor of the Link header), and the
 * AggregateLogs counts of the same window. Events are returned in a plain form the report reads.
 */
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { JsonObject } from "@bufbuild/protobuf";
import type { ReplayClients } from "./clients.js";

/** One event of the log, as the report reads it. */
export interface LogEvent {
  id: number;
  type: string;
  pullRequest: number | null;
  /** When the service recorded it, epoch milliseconds UTC. */
  receivedAt: number;
  metadata: JsonObject;
}

/** The `next` page's cursor of a Link header (RFC 8288), or null. */
export function nextCursor(link: string | null): string | null {
  if (!link) return null;
  for (const part of link.split(",")) {
    const m = /<([^>]*)>\s*;\s*rel="?next"?/.exec(part);
    if (m) return new URL(m[1]!, "http://link.invalid").searchParams.get("cursor");
  }
  return null;
}

/**
 * Every event of `types` received from `from` (inclusive) to `to` (exclusive; default: now at the
 * first page, the window then pinned by the cursor), oldest first.
 * @throws ConnectError from the service
 */
export async function readEvents(
  clients: ReplayClients,
  types: readonly string[],
  from: Date,
  to?: Date,
): Promise<LogEvent[]> {
  const events: LogEvent[] = [];
  let cursor: string | undefined;
  const receivedFrom = timestampFromDate(from);
  const receivedTo = to === undefined ? undefined : timestampFromDate(to);
  for (;;) {
    let link: string | null = null;
    const page = await clients.log.listLogs(
      { ...clients.repo, eventType: [...types], receivedFrom, receivedTo, perPage: 100, cursor },
      { onHeader: (h) => void (link = h.get("link")) },
    );
    for (const e of page.events) {
      events.push({
        id: Number(e.id),
        type: e.type,
        pullRequest: e.pullRequest === undefined ? null : Number(e.pullRequest),
        receivedAt: e.receivedAt ? timestampDate(e.receivedAt).getTime() : 0,
        metadata: e.metadata ?? {},
      });
    }
    const next = nextCursor(link);
    if (next === null || page.events.length === 0) break;
    cursor = next;
  }
  return events.sort((a, b) => a.receivedAt - b.receivedAt || a.id - b.id);
}

/**
 * Counts per event type of the window from `from` to `to` (AggregateLogs `by_event_type`), and the total.
 * @throws ConnectError from the service
 */
export async function countEvents(
  clients: ReplayClients,
  types: readonly string[],
  from: Date,
  to: Date,
): Promise<{ total: number; byType: Record<string, number> }> {
  const res = await clients.log.aggregateLogs({
    ...clients.repo,
    eventType: [...types],
    receivedFrom: timestampFromDate(from),
    receivedTo: timestampFromDate(to),
  });
  return {
    total: Number(res.total),
    byType: Object.fromEntries(res.byEventType.map((f) => [f.value, Number(f.count)])),
  };
}
