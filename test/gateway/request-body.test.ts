/**
 * REST request bodies are JSON text in UTF-8 (RFC 8259 §8.1; docs/errors.md): bytes that are not
 * UTF-8 are refused with 422 naming `body`, instead of reaching the handler with U+FFFD in place
 * of what the client sent; any valid UTF-8 text arrives exactly, a byte order mark ignored.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { createAuthorizer } from "../../services/auth/index.js";
import { buildApp, type App } from "../../services/gateway/index.js";

const ADMIN_KEY = "yma_request_body_test_key_012345";
const received: string[] = [];
let app: App;

beforeAll(async () => {
  app = await buildApp({
    bindings: [
      {
        service: QueueService,
        impl: {
          pauseMergeQueue: async (req: { reason: string }) => (
            received.push(req.reason), { paused: true, reason: req.reason }
          ),
        },
      },
    ],
    authorizer: createAuthorizer({ adminKey: ADMIN_KEY, tokens: { findToken: async () => null } }),
    logger: pino({ level: "silent" }),
    readiness: async () => ({}),
  });
});
afterAll(async () => app.close());

const put = (payload: Buffer) =>
  app.inject({
    method: "PUT",
    url: "/v1/repos/acme/widgets/merge-queue/pause",
    headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
    payload,
  });

describe("a REST request body", () => {
  it("that is not UTF-8 is refused with 422 naming body", async () => {
    // "café" in Latin-1: the é is the single byte 0xE9, which no UTF-8 text holds there.
    const res = await put(Buffer.concat([Buffer.from('{"reason":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]));
    expect(res.statusCode).toBe(422);
    expect(res.json().details[0]).toEqual({
      type: "field_violation",
      field: "body",
      description: expect.stringContaining("is not valid UTF-8"),
    });
    expect(received).toEqual([]);
  });

  it("in UTF-8 arrives exactly, with or without a byte order mark", async () => {
    expect((await put(Buffer.from('{"reason":"café ☕ 🚦"}'))).statusCode).toBe(200);
    expect(
      (await put(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"reason":"with a BOM"}')]))).statusCode,
    ).toBe(200);
    expect(received).toEqual(["café ☕ 🚦", "with a BOM"]);
  });
});
