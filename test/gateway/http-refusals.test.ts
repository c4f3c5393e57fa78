/**
 * Every 4xx the HTTP layer answers before a handler runs carries the one error body
 * (docs/errors.md): Fastify's own refusals (media type, body size, empty or invalid JSON, a URL
 * that does not decode) on REST routes, Connect paths and unknown paths, and Connect's bodyless
 * 415, 405 and 505. Each answer: the status, `{code, message, details}` with a request_info whose
 * id is the `x-request-id` header, and none of Fastify's `FST_ERR_…` text.
 */
import { request as httpRequest } from "node:http";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { ServerReflection } from "../../gen/grpc/reflection/v1/reflection_pb.js";
import { createAuthorizer } from "../../services/auth/index.js";
import { buildApp, type App } from "../../services/gateway/index.js";

const ADMIN_KEY = "yma_http_refusals_test_key_0123";
let app: App;
let base: string;

beforeAll(async () => {
  app = await buildApp({
    bindings: [{ service: QueueService, impl: { getMergeQueueStatus: async () => ({}) } }],
    authorizer: createAuthorizer({ adminKey: ADMIN_KEY, tokens: { findToken: async () => null } }),
    logger: pino({ level: "silent" }),
    readiness: async () => ({}),
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(async () => app.close());

/** A raw HTTP/1.1 request (fetch would add or fix headers): status, headers and body text. */
function send(method: string, path: string, headers: Record<string, string>, body?: string | Buffer) {
  return new Promise<{ status: number; headers: Record<string, unknown>; text: string }>((resolve, reject) => {
    const req = httpRequest(
      `${base}${path}`,
      { method, headers: { authorization: `Bearer ${ADMIN_KEY}`, ...headers } },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

const REST = "/v1/repos/acme/widgets/merge-queue/pause";
const RPC = `/${QueueService.typeName}/GetMergeQueueStatus`;
const json = { "content-type": "application/json" };

const CASES: [string, () => ReturnType<typeof send>, number, string, string | null][] = [
  [
    "REST, text/plain",
    () => send("PUT", REST, { "content-type": "text/plain" }, "x"),
    415,
    "invalid_argument",
    "content-type",
  ],
  [
    "REST, a form",
    () => send("PUT", REST, { "content-type": "application/x-www-form-urlencoded" }, "a=1"),
    415,
    "invalid_argument",
    "content-type",
  ],
  [
    "REST, a body over 4 MiB",
    () => send("PUT", REST, json, Buffer.alloc(4 * 1024 * 1024 + 1, 32)),
    413,
    "resource_exhausted",
    null,
  ],
  [
    "REST, a URL that does not decode",
    () => send("GET", "/v1/repos/%E0%A4%A/widgets/merge-queue/status", {}),
    400,
    "invalid_argument",
    "path",
  ],
  [
    "Connect, text/plain (Connect's empty 415)",
    () => send("POST", RPC, { "content-type": "text/plain" }, "x"),
    415,
    "invalid_argument",
    "content-type",
  ],
  [
    "Connect, application/xml (Fastify's FST_ERR_CTP_INVALID_MEDIA_TYPE)",
    () => send("POST", RPC, { "content-type": "application/xml" }, "<x/>"),
    415,
    "invalid_argument",
    "content-type",
  ],
  ["Connect, GET (Connect's empty 405)", () => send("GET", RPC, {}), 405, "unimplemented", null],
  [
    "Connect, a streaming RPC over HTTP/1.1 (Connect's empty 505)",
    () => send("POST", `/${ServerReflection.typeName}/ServerReflectionInfo`, json, "{}"),
    505,
    "unimplemented",
    null,
  ],
  [
    "an unknown path, invalid JSON (FST_ERR_CTP_INVALID_JSON_BODY)",
    () => send("POST", "/nowhere", json, "{bad"),
    422,
    "invalid_argument",
    "body",
  ],
  [
    "an unknown path, empty JSON (FST_ERR_CTP_EMPTY_JSON_BODY)",
    () => send("POST", "/nowhere", { ...json, "content-length": "0" }),
    422,
    "invalid_argument",
    "body",
  ],
];

describe("refusals of the HTTP layer", () => {
  it.each(CASES)("%s: the one error body", async (_, call, status, code, field) => {
    const res = await call();
    expect(res.status).toBe(status);
    expect(res.text).not.toContain("FST_ERR");
    const body = JSON.parse(res.text);
    expect(body).toEqual({ code, message: expect.any(String), detail: body.message, details: expect.any(Array) });
    expect(body.details.at(-1)).toEqual({ type: "request_info", request_id: res.headers["x-request-id"] });
    if (field !== null) {
      expect(body.message.startsWith(`${field}: `)).toBe(true);
      expect(body.details[0]).toEqual({ type: "field_violation", field, description: expect.any(String) });
    }
  });
});
