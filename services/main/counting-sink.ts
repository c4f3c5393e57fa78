/**
 * The activity log's event sink as the server wires it: each failed insert into ClickHouse is
 * counted (`yardmaster_clickhouse_ingest_errors_total`, docs/observability.md) and rethrown, so the
 * relay retries it (docs/activity-log.md "Ingest").
 */
import type { EventSink } from "../store/index.js";

/** The sink, counting each insert that fails (yardmaster_clickhouse_ingest_errors_total). */
export function countingFailures(sink: EventSink, failed: () => void): EventSink {
  return {
    insertEvents: (rows, opts) =>
      sink.insertEvents(rows, opts).catch((e: unknown) => {
        failed();
        throw e;
      }),
  };
}
