/**
 * Lines of an events file (`yardmaster events import`, services/activity-log/event-lines.ts): a
 * valid line gives the event (pull request numbers exact up to 2^63-1); a bad one gives every
 * problem named by its field, as the line writes it.
 */
import { describe, expect, it } from "vitest";
import { parseEventLine } from "../../services/activity-log/index.js";
import { eventLine } from "./event-samples.js";

const line = (over: Record<string, unknown> = {}, metadata: Record<string, unknown> = {}) =>
  JSON.stringify(eventLine("action.queue.enter", over, metadata));

describe("an events file line", () => {
  it("gives the event, with the pull request number exact", () => {
    const { event } = parseEventLine(line().replace('"pull_request":42', '"pull_request":9223372036854775807'));
    expect(event).toMatchObject({
      type: "action.queue.enter",
      repository: "acme/widgets",
      pullRequest: 9223372036854775807n,
      baseRef: "main",
      receivedAt: new Date("2026-11-22T10:00:00Z"),
    });
  });

  it("takes null or absent pull_request, base_ref and received_at as none", () => {
    const { event } = parseEventLine(line({ pull_request: null, base_ref: undefined, received_at: null }));
    expect(event).toMatchObject({ pullRequest: null, baseRef: null, receivedAt: null });
  });

  it.each([
    ["not JSON", "{type:", [{ field: "line", description: expect.stringContaining("is not valid JSON") }]],
    ["not an object", "[1]", [{ field: "line", description: "must be a JSON object, not an array" }]],
    ["an unknown key", line({ id: 5 }), [{ field: "id", description: "unknown field" }]],
    ["a missing type", line({ type: undefined }), [{ field: "type", description: "is required" }]],
    [
      "a fractional pull request",
      line({ pull_request: 1.5 }),
      [{ field: "pull_request", description: "must be a non-negative integer or null" }],
    ],
    [
      "a pull request as text",
      line({ pull_request: "7" }),
      [{ field: "pull_request", description: "must be a non-negative integer or null" }],
    ],
    [
      "a Unix timestamp",
      line({ received_at: 1700000000 }),
      [{ field: "received_at", description: "must be a string or null, not a number" }],
    ],
    [
      "a date without offset",
      line({ received_at: "2026-11-22T10:00:00" }),
      [
        {
          field: "received_at",
          description: "must be an RFC 3339 date-time with a UTC offset, e.g. 2026-11-22T10:00:00Z",
        },
      ],
    ],
    [
      "metadata not an object",
      line({ metadata: "x" }),
      [{ field: "metadata", description: "must be an object, not a string" }],
    ],
    [
      "bad metadata",
      line({}, { queue_name: null }),
      [{ field: "metadata.queue_name", description: "must not be null" }],
    ],
    [
      "an unknown event type",
      line({ type: "action.nope" }),
      [{ field: "type", description: 'unknown event type "action.nope"' }],
    ],
  ])("reports %s", (_name, text, violations) => {
    expect(parseEventLine(text)).toEqual({ event: null, violations });
  });
});
