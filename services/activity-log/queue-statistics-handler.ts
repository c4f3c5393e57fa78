/**
 * GetQueueStatistics (`GET /queues/statistics`, docs/activity-log.md "Queue statistics"): the
 * window (default: the 7 days before `received_to`, itself default now), then the figures ClickHouse
 * computes (queue-statistics.ts), read with the deadline of every log read (log-lag.ts).
 */
import type { MessageInitShape } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import type {
  GetQueueStatisticsRequest,
  GetQueueStatisticsResponseSchema,
  QueueStatisticsSchema,
} from "../../gen/yardmaster/v1/activity_log_pb.js";
import type { LogReadDeps } from "./list-logs.js";
import { invalidField } from "../contracts/index.js";
import { ceilMs } from "./log-filters.js";
import { readWithDeadline } from "./log-lag.js";
import { queueStatistics, type QueueFigures } from "./queue-statistics.js";

/** Default window of the statistics: 7 days. */
export const STATISTICS_WINDOW_MS = 7 * 86_400_000;

const message = (f: QueueFigures): MessageInitShape<typeof QueueStatisticsSchema> => ({
  merges: BigInt(f.merges),
  mergesPerHour: f.mergesPerHour,
  timeInQueueP50Seconds: f.timeInQueueP50Seconds ?? undefined,
  timeInQueueP90Seconds: f.timeInQueueP90Seconds ?? undefined,
  ciRuns: BigInt(f.ciRuns),
  ciSeconds: f.ciSeconds,
  ciRunsPerMerge: f.ciRunsPerMerge ?? undefined,
  ciSecondsPerMerge: f.ciSecondsPerMerge ?? undefined,
  concludedRuns: BigInt(f.concludedRuns),
  failedRuns: BigInt(f.failedRuns),
  flakyRuns: BigInt(f.flakyRuns),
  failureRate: f.failureRate ?? undefined,
  flakeRate: f.flakeRate ?? undefined,
  bisections: BigInt(f.bisections),
  removals: BigInt(f.removals),
  queueDepth: BigInt(f.queueDepth),
  queueDepthMax: BigInt(f.queueDepthMax),
});

/**
 * The GetQueueStatistics handler.
 * @throws InvalidArgumentError ("received_from") for a window whose start is after its end;
 *   DatabaseUnavailableError when ClickHouse does not answer within the read deadline
 */
export function queueStatisticsHandler(deps: Pick<LogReadDeps, "clickhouse" | "now" | "readTimeoutMs">) {
  return async (req: GetQueueStatisticsRequest): Promise<MessageInitShape<typeof GetQueueStatisticsResponseSchema>> => {
    const toMs = req.receivedTo ? ceilMs(req.receivedTo) : deps.now().getTime();
    const fromMs = req.receivedFrom ? ceilMs(req.receivedFrom) : Math.max(0, toMs - STATISTICS_WINDOW_MS);
    if (fromMs > toMs) throw invalidField("received_from", "must not be after received_to");
    const window = { fromMs, toMs };
    const s = await readWithDeadline(deps, (signal) =>
      queueStatistics(deps.clickhouse, `${req.owner}/${req.repository}`, req.baseRef ?? null, window, signal),
    );
    return {
      receivedFrom: timestampFromMs(s.window.fromMs),
      receivedTo: timestampFromMs(s.window.toMs),
      intervalSizeSeconds: BigInt(s.intervalSeconds),
      summary: message(s.summary),
      buckets: s.buckets.map((b) => ({
        start: timestampFromMs(b.startMs),
        end: timestampFromMs(b.endMs),
        statistics: message(b.figures),
      })),
      removalsByCode: s.removalsByCode,
    };
  };
}
