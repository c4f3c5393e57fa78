/**
 * The ClickHouse side of ingest: the outbox relay's sink (store/outbox-relay.ts). Rows are written
 * with JSONEachRow; on a retry (`mayExist`) the ids already present are looked up first — through
 * the primary key (repository, received_at) — and skipped, so a batch that landed before its
 * acknowledgement was lost is not duplicated.
 */
import type { ClickHouseClient } from "@clickhouse/client";
import type { EventSink, StoredEventRow } from "../store/index.js";

/** "2026-11-22 10:00:00.123" in UTC: unambiguous for DateTime64(3, 'UTC') in any input format. */
export function clickHouseTime(d: Date): string {
  return d.toISOString().replace("T", " ").replace("Z", "");
}

/**
 * The relay sink writing to the `events` table (or `table`: the benchmark measures inserts into a
 * copy, and a cluster may name its Distributed table otherwise). `onSent` is told of every batch
 * once the store answered, or failed (a failed insert may have landed): the `/logs` answer cache
 * learns there what was stored (stored-times.ts).
 */
export function createEventSink(
  client: ClickHouseClient,
  table = "events",
  onSent?: (rows: StoredEventRow[]) => void,
): EventSink {
  if (onSent) {
    const sink = createEventSink(client, table);
    return {
      async insertEvents(rows, opts) {
        try {
          await sink.insertEvents(rows, opts);
        } finally {
          onSent(rows);
        }
      },
    };
  }
  return {
    async insertEvents(rows: StoredEventRow[], { mayExist }: { mayExist: boolean }) {
      let todo = rows;
      if (mayExist && rows.length > 0) {
        const times = rows.map((r) => r.receivedAt.getTime());
        const rs = await client.query({
          query: `SELECT toString(id) AS id FROM ${table}
                  WHERE repository IN {repos:Array(String)}
                    AND received_at >= fromUnixTimestamp64Milli({from:Int64}, 'UTC') AND received_at <= fromUnixTimestamp64Milli({to:Int64}, 'UTC')
                    AND toString(id) IN {ids:Array(String)}`,
          query_params: {
            repos: [...new Set(rows.map((r) => r.repository))],
            from: Math.min(...times),
            to: Math.max(...times),
            ids: rows.map((r) => r.id),
          },
          format: "JSONEachRow",
        });
        const present = new Set((await rs.json<{ id: string }>()).map((r) => r.id));
        todo = rows.filter((r) => !present.has(r.id));
      }
      if (todo.length === 0) return;
      await client.insert({
        table,
        format: "JSONEachRow",
        values: todo.map((r) => ({
          id: r.id,
          received_at: clickHouseTime(r.receivedAt),
          repository: r.repository,
          trigger: r.trigger,
          pull_request: r.pullRequest ?? "-1",
          base_ref: r.baseRef ?? "",
          outcome: r.outcome,
          type: r.type,
          batch_pull: r.batchPull ?? "-1",
          metadata: r.metadata,
        })),
      });
    },
  };
}
