/**
 * An unexpected failure never shows its text to a client (docs/errors.md): a handler's INTERNAL
 * ConnectError (raised by a library, or received from another Yardmaster process) is answered
 * "internal error" with the request id, on REST and on Connect alike; the log has the cause.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { createAuthorizer } from "../../services/auth/index.js";
import { buildApp, type App } from "../../services/gateway/index.js";

const ADMIN_KEY = "yma_internal_error_test_key_0123";
const SECRET = "password authentication failed for user yardmaster_rw at 10.0.0.7";
const logged: { msg: string; err?: { message?: string } }[] = [];
let app: App;

beforeAll(async () => {
  app = await buildApp({
    bindings: [
      {
        service: QueueService,
        impl: {
          getMergeQueueStatus: async () => {
            throw new ConnectError(SECRET, Code.Internal);
          },
        },
      },
    ],
    authorizer: createAuthorizer({ adminKey: ADMIN_KEY, tokens: { findToken: async () => null } }),
    logger: pino({ level: "error" }, { write: (line: string) => void logged.push(JSON.parse(line)) }),
    readiness: async () => ({}),
  });
});
afterAll(async () => app.close());

describe("an INTERNAL error raised by a handler", () => {
  it("is answered on REST without its text, with the request id, and logged with it", async () => {
    const res = await app.inject({
      method: "GET",
      url: "/v1/repos/acme/widgets/merge-queue/status",
      headers: { authorization: `Bearer ${ADMIN_KEY}` },
    });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(res.body).not.toContain("password");
    expect(body.code).toBe("internal");
    expect(body.message).toBe(`internal error (request id ${res.headers["x-request-id"]})`);
    expect(logged.some((l) => l.err?.message?.includes(SECRET))).toBe(true);
  });

  it("is answered on Connect without its text", async () => {
    const res = await app.inject({
      method: "POST",
      url: "/yardmaster.v1.QueueService/GetMergeQueueStatus",
      headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
      payload: JSON.stringify({ owner: "acme", repository: "widgets" }),
    });
    expect(res.statusCode).toBe(500);
    expect(res.body).not.toContain("password");
    expect(res.json()).toMatchObject({
      code: "internal",
      message: expect.stringMatching(/^internal error \(request id [0-9a-f-]{36}\)$/),
    });
  });
});
