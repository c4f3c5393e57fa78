/**
 * A window fitted to the events (docs/dashboard.md "Pages", "Statistics"): the pages that
 * draw the log over time default to the span that holds its events rather than a fixed day, so a
 * run of a minute fills the chart instead of one bar of it. Found with AggregateLogs: from the
 * start of the first histogram bucket holding an event of the last {@link FIT_SEARCH_MS} to the
 * end of the last, narrowed three times (each narrower window has finer buckets:
 * docs/activity-log.md "Aggregates"). A page that follows the log fits again (or extends the
 * window to now) when new events come.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { AggregateLogsRequest } from "../../../gen/yardmaster/v1/activity_log_pb.js";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { AggregateLogsRequestSchema } from "../../../gen/yardmaster/v1/activity_log_pb.js";
import { activityLog } from "./clients.js";

/** A window: from (inclusive) to (exclusive; undefined: now), and whether it was fitted. */
export interface FittedWindow {
  from: Date;
  to: Date | undefined;
  fitted: boolean;
}

/** How far back a fitted window looks for events, in milliseconds (30 days). */
export const FIT_SEARCH_MS = 30 * 86_400_000;

type Filters = Omit<MessageInitShape<typeof AggregateLogsRequestSchema>, "receivedFrom" | "receivedTo">;
const ms = (t: AggregateLogsRequest["receivedFrom"]) => (t ? Number(t.seconds) * 1000 + t.nanos / 1e6 : 0);

/**
 * The window fitted to the events matching `filters` (owner, repository and the log's filters);
 * the last day when there is none.
 */
export async function fitWindow(filters: Filters, signal: AbortSignal): Promise<FittedWindow> {
  const now = Date.now();
  let from = now - FIT_SEARCH_MS;
  let to = now;
  let found = false;
  for (let i = 0; i < 3; i++) {
    const a = await activityLog.aggregateLogs(
      {
        ...filters,
        receivedFrom: timestampFromDate(new Date(from)),
        receivedTo: timestampFromDate(new Date(to)),
      } as MessageInitShape<typeof AggregateLogsRequestSchema>,
      { signal },
    );
    const full = a.histogram.filter((b) => b.count > 0n);
    if (full.length === 0) break;
    found = true;
    const next = [Math.max(from, ms(full[0]!.start)), Math.min(to, ms(full.at(-1)!.end))] as const;
    if (next[0] === from && next[1] === to) break;
    [from, to] = next;
  }
  if (!found) return { from: new Date(now - 86_400_000), to: undefined, fitted: true };
  return { from: new Date(from), to: to >= now ? undefined : new Date(to), fitted: true };
}
