/**
 * AggregateLogs (`GET /logs/aggregate`, docs/activity-log.md): the filters and window of
 * `/logs` (without cursor and per_page), answered by the one-scan aggregate (log-aggregate.ts).
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type { AggregateLogsRequest, AggregateLogsResponseSchema } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { aggregateLogs } from "./log-aggregate.js";
import { readLogFilters, readLogWindow } from "./log-filters.js";
import { windowClock, type LogReadDeps } from "./list-logs.js";
import { readWithDeadline, setLagHeader } from "./log-lag.js";

/**
 * The AggregateLogs handler. Sets the lag header when events are on their way (log-lag.ts) and a
 * context is given.
 * @throws InvalidArgumentError naming the parameter (the refusals of readLogFilters / readLogWindow);
 *   DatabaseUnavailableError when ClickHouse does not answer within the read deadline
 */
export function aggregateLogsHandler(deps: Omit<LogReadDeps, "cursors">) {
  return async (
    req: AggregateLogsRequest,
    ctx?: Pick<HandlerContext, "responseHeader">,
  ): Promise<MessageInitShape<typeof AggregateLogsResponseSchema>> => {
    const filters = readLogFilters(req);
    // The same default window as /logs, so that total equals what its pages hold.
    const window = readLogWindow(req, await windowClock(deps, req));
    const a = await readWithDeadline(deps, (signal) => aggregateLogs(deps.clickhouse, filters, window, signal));
    await setLagHeader(deps, ctx);
    return {
      total: a.total,
      intervalSizeSeconds: BigInt(a.intervalSeconds),
      histogram: a.histogram.map((b) => ({
        start: timestampFromMs(b.startMs),
        end: timestampFromMs(b.endMs),
        count: b.count,
      })),
      byEventType: a.byEventType,
      byOutcome: a.byOutcome,
      byTrigger: a.byTrigger,
      byPullRequest: a.byPullRequest,
      byBatchPullRequest: a.byBatchPullRequest,
    };
  };
}
