/**
 * WatchLogs positions and cursors (docs/activity-log.md "Live tail"): the watermark never passes
 * an event not yet delivered, the delivered list keeps only the events at or after it, and a
 * cursor opens to the position it was issued for, for the same filters only.
 */
import { create } from "@bufbuild/protobuf";
import { describe, expect, it } from "vitest";
import { WatchLogsRequestSchema } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { readLogFilters } from "../../services/activity-log/log-filters.js";
import { createTailCursorCodec } from "../../services/activity-log/watch-cursor.js";
import { advance } from "../../services/activity-log/watch-logs.js";

const filters = readLogFilters(create(WatchLogsRequestSchema, { owner: "acme", repository: "shop" }));
const other = readLogFilters(
  create(WatchLogsRequestSchema, { owner: "acme", repository: "shop", eventType: ["queue.pause.create"] }),
);
const codec = createTailCursorCodec("a secret of at least sixteen bytes");

describe("advance", () => {
  it("moves the watermark up to the settled time, never past the event just delivered", () => {
    const start = { watermarkMs: 1000, delivered: [] };
    const a = advance(start, { receivedAtMs: 1500, id: 7n }, 5000);
    expect(a).toEqual({ watermarkMs: 1500, delivered: [{ receivedAtMs: 1500, id: 7n }] });
    // Above the settled time the watermark stays at it, and the delivered events above are kept.
    const b = advance(a, { receivedAtMs: 6000, id: 9n }, 5000);
    expect(b).toEqual({ watermarkMs: 5000, delivered: [{ receivedAtMs: 6000, id: 9n }] });
    // A complete read moves it to the settled time; it never moves down.
    expect(advance(b, null, 7000)).toEqual({ watermarkMs: 7000, delivered: [] });
    expect(advance(b, null, 4000).watermarkMs).toBe(5000);
  });
});

describe("tail cursors", () => {
  const position = {
    watermarkMs: 1_795_000_000_000,
    delivered: [
      { receivedAtMs: 1_795_000_000_000, id: 1n },
      { receivedAtMs: 1_795_000_001_234, id: 9_223_372_036_854_775_807n },
    ],
  };

  it("opens to the position issued", () => {
    expect(codec.open(filters, codec.issue(filters, position))).toEqual(position);
  });

  it("refuses an altered cursor, or one of other filters, naming cursor", () => {
    const token = codec.issue(filters, position);
    const altered = `${Buffer.from("w1.1795000000000.").toString("base64url")}.${token.split(".")[1]}`;
    for (const [f, t] of [
      [filters, altered],
      [other, token],
      [filters, "garbage"],
    ] as const)
      expect(() => codec.open(f, t)).toThrow(
        expect.objectContaining({ violations: [expect.objectContaining({ field: "cursor" })] }),
      );
  });
});
