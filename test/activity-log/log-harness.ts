/**
 * The activity log service over real parts for tests: a fresh PostgreSQL database (the outbox), a
 * ClickHouse (embedded in this test process, or by URL through `yardmaster clickhouse-http` in a
 * child process), the outbox relay, and the ActivityLogService implementation called directly.
 * Events go in through AppendEvents and reach ClickHouse through the relay, as in production.
 */
import { create, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import {
  AggregateLogsRequestSchema,
  AggregateLogsResponseSchema,
  AppendEventsRequestSchema,
  ListLogsRequestSchema,
  ListLogsResponseSchema,
  type AggregateLogsRequest,
  type AggregateLogsResponse,
  type ListLogsRequest,
  type ListLogsResponse,
} from "../../gen/yardmaster/v1/activity_log_pb.js";
import {
  createActivityLogService,
  createClickHouseClient,
  createEventSink,
  migrateClickHouse,
  type ClickHouseClient,
} from "../../services/activity-log/index.js";
import { startOutboxRelay, type OutboxRelay } from "../../services/store/index.js";
import { startClickHouseHttp, type ClickHouseHttpProcess } from "../support/clickhouse-http-process.js";
import { embeddedClickHouse } from "../support/clickhouse.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { testLogger } from "../support/logger.js";

/** An event to append, in the service's terms (times in UTC ms). */
export interface AppendInput {
  type: string;
  repository: string;
  pullRequest: bigint | null;
  baseRef: string | null;
  trigger: string;
  receivedAtMs: number;
  metadata: Record<string, unknown>;
}

export type ListInit = Parameters<typeof create<typeof ListLogsRequestSchema>>[1];
export type AggregateInit = Parameters<typeof create<typeof AggregateLogsRequestSchema>>[1];

export interface LogHarness {
  clickhouse: ClickHouseClient;
  /** Appends through AppendEvents and relays to ClickHouse; returns the ids assigned. */
  append(events: AppendInput[], idempotencyKey?: string): Promise<bigint[]>;
  /** ListLogs; `link` is the Link response header. */
  list(init: ListInit): Promise<{ response: ListLogsResponse; link: string }>;
  aggregate(init: AggregateInit): Promise<AggregateLogsResponse>;
  /** The service itself (for refusal tests). */
  service: ReturnType<typeof createActivityLogService>;
  relay: OutboxRelay;
  db: TestDatabase;
  close(): Promise<void>;
}

let keys = 0;

/**
 * Starts the harness.
 * @param path "embedded" (chdb in this process) or "url" (the HTTP interface in a child process)
 * @param now the service's clock
 */
export async function startLogHarness(
  path: "embedded" | "url",
  now: () => Date = () => new Date(),
): Promise<LogHarness> {
  const db = await freshDatabase();
  let httpProcess: ClickHouseHttpProcess | undefined;
  let clickhouse: ClickHouseClient;
  if (path === "embedded") clickhouse = await embeddedClickHouse();
  else {
    httpProcess = await startClickHouseHttp();
    clickhouse = createClickHouseClient({ url: httpProcess.url });
    await migrateClickHouse(clickhouse);
  }
  const relay = startOutboxRelay({
    pool: db.pool,
    sink: createEventSink(clickhouse),
    logger: testLogger().logger,
    intervalMs: 3_600_000,
  });
  const service = createActivityLogService({
    db: db.pool,
    eventsWritten: () => {},
    clickhouse,
    cursorSecret: "test cursor secret, 32 bytes long!",
    now,
  });
  return {
    clickhouse,
    service,
    relay,
    db,
    async append(events, idempotencyKey = `harness-${process.pid}-${++keys}`) {
      const req = create(AppendEventsRequestSchema, {
        idempotencyKey,
        events: events.map((e) => ({
          type: e.type,
          repository: e.repository,
          pullRequest: e.pullRequest ?? undefined,
          baseRef: e.baseRef ?? undefined,
          trigger: e.trigger,
          receivedAt: timestampFromMs(e.receivedAtMs),
          metadata: e.metadata as JsonObject,
        })),
      });
      const res = await service.appendEvents(req, undefined as never);
      if (!(await relay.drain())) throw new Error("the relay did not reach ClickHouse");
      return res.ids as bigint[];
    },
    async list(init) {
      const ctx = { responseHeader: new Headers() };
      const response = await service.listLogs(create(ListLogsRequestSchema, init), ctx as never);
      return { response: create(ListLogsResponseSchema, response), link: ctx.responseHeader.get("link") ?? "" };
    },
    async aggregate(init) {
      return create(
        AggregateLogsResponseSchema,
        await service.aggregateLogs(create(AggregateLogsRequestSchema, init), undefined as never),
      );
    },
    async close() {
      await relay.stop();
      await clickhouse.close();
      await httpProcess?.destroy();
      await db.drop();
    },
  };
}

/** The cursor of a relation in a Link header, or undefined when the relation is absent. */
export function linkCursor(link: string, rel: "next" | "prev" | "first"): string | undefined {
  for (const part of link.split(", ")) {
    const m = /^<([^>]*)>; rel="(\w+)"$/.exec(part);
    if (!m) throw new Error(`malformed Link header part: ${part}`);
    if (m[2] === rel) return new URL(m[1], "http://x").searchParams.get("cursor") ?? "";
  }
  return undefined;
}

export type { ListLogsRequest, AggregateLogsRequest };
