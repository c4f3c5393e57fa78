import { create, toJson } from "@bufbuild/protobuf";
import { TimestampSchema, timestampFromDate } from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { ListLogsResponseSchema, AggregateLogsResponseSchema } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { EventSchema, Outcome } from "../../gen/yardmaster/v1/events_pb.js";
import {
  GetMergeQueuePauseResponseSchema,
  GetMergeQueueStatusResponseSchema,
} from "../../gen/yardmaster/v1/queue_pb.js";
import { writeRestJson } from "../../services/gateway/rest-json.js";

describe("the REST JSON writer", () => {
  it("writes 64-bit integers as exact JSON numbers", () => {
    const msg = create(ListLogsResponseSchema, {
      size: 1,
      perPage: 10,
      events: [
        create(EventSchema, {
          id: 9223372036854775807n,
          pullRequest: 9007199254740993n,
          repository: "o/r",
          type: "action.merge",
          trigger: "t",
          outcome: Outcome.success,
          metadata: { branch: "main" },
        }),
      ],
    });
    const text = writeRestJson(ListLogsResponseSchema, msg);
    expect(text).toContain('"id":9223372036854775807');
    expect(text).toContain('"pull_request":9007199254740993');
  });

  it("writes snake_case keys, enum names, and null for unset optional and message fields", () => {
    const text = writeRestJson(
      EventSchema,
      create(EventSchema, {
        id: 1n,
        repository: "o/r",
        type: "action.merge",
        trigger: "Rule: x",
        outcome: Outcome.success,
        metadata: { branch: "main" },
      }),
    );
    expect(JSON.parse(text)).toEqual({
      id: 1,
      received_at: null,
      trigger: "Rule: x",
      repository: "o/r",
      pull_request: null,
      base_ref: null,
      outcome: "success",
      type: "action.merge",
      metadata: { branch: "main" },
    });
  });

  it("writes timestamps in RFC 3339 UTC and keeps zero values", () => {
    const at = new Date("2026-11-22T10:00:00.123Z");
    expect(
      JSON.parse(
        writeRestJson(
          GetMergeQueuePauseResponseSchema,
          create(GetMergeQueuePauseResponseSchema, {
            paused: true,
            reason: "release",
            pausedAt: timestampFromDate(at),
          }),
        ),
      ),
    ).toEqual({
      paused: true,
      reason: "release",
      paused_at: "2026-11-22T10:00:00.123Z",
    });
    expect(JSON.parse(writeRestJson(AggregateLogsResponseSchema, create(AggregateLogsResponseSchema, {})))).toEqual({
      total: 0,
      interval_size_seconds: 0,
      histogram: [],
      by_event_type: [],
      by_outcome: [],
      by_trigger: [],
      by_pull_request: [],
      by_batch_pull_request: [],
    });
  });

  it("writes maps of ListValue as plain arrays", () => {
    const msg = create(GetMergeQueueStatusResponseSchema, {
      scopeQueues: { __default__: { values: [{ kind: { case: "stringValue", value: "b1" } }] } },
      mode: "serial",
    });
    expect(JSON.parse(writeRestJson(GetMergeQueueStatusResponseSchema, msg)).scope_queues).toEqual({
      __default__: ["b1"],
    });
  });

  it("produces the same JSON as JSON.stringify for strings with quotes and control characters", () => {
    const reason = 'a "quoted" \\ reason\nwith\u0001 control';
    const out = JSON.parse(
      writeRestJson(
        GetMergeQueuePauseResponseSchema,
        create(GetMergeQueuePauseResponseSchema, { paused: true, reason }),
      ),
    );
    expect(out.reason).toBe(reason);
  });
});

describe("timestamps in REST JSON", () => {
  it.each([
    [{ seconds: 1795300000n, nanos: 0 }, "2026-11-21T22:26:40Z"],
    [{ seconds: 1795300000n, nanos: 123000000 }, "2026-11-21T22:26:40.123Z"],
    [{ seconds: 1795300000n, nanos: 123456000 }, "2026-11-21T22:26:40.123456Z"],
    [{ seconds: 1795300000n, nanos: 123456789 }, "2026-11-21T22:26:40.123456789Z"],
    [{ seconds: -1n, nanos: 500000000 }, "1969-12-31T23:59:59.500Z"],
  ])("writes %o as the same text as protobuf-es", (ts, text) => {
    const msg = create(GetMergeQueuePauseResponseSchema, {
      paused: true,
      pausedAt: { $typeName: "google.protobuf.Timestamp", ...ts } as never,
    });
    const json = JSON.parse(writeRestJson(GetMergeQueuePauseResponseSchema, msg));
    expect(json.paused_at).toBe(text);
    expect(json.paused_at).toBe(toJson(TimestampSchema, msg.pausedAt!));
  });
});

describe("timestamp text", () => {
  it("equals protobuf-es's toJson over the whole Timestamp range", async () => {
    const fc = await import("fast-check");
    const { timestampJson } = await import("../../services/gateway/timestamp-json.js");
    fc.assert(
      fc.property(
        fc.bigInt(-62135596800n, 253402300799n),
        fc.integer({ min: 0, max: 999_999_999 }),
        (seconds, nanos) => {
          const ts = { $typeName: "google.protobuf.Timestamp", seconds, nanos } as never;
          expect(timestampJson(ts)).toBe(JSON.stringify(toJson(TimestampSchema, ts)));
        },
      ),
      { numRuns: 20_000 },
    );
  });
});
