/**
 * A transcoded JSON answer as a client on a real connection sees it (docs/rest-json.md "Cost of
 * the transcoder"): over HTTP/1.1 it carries its status, content type, exact content length in
 * bytes, a fresh request id and an implementation's `Link` made absolute; a keep-alive connection
 * goes on serving; the request metrics record it; and HTTP/2 (h2c) answers the same bytes. What a
 * change of the answer's path (headers, the reply's send path, the socket write) must keep.
 */
import http from "node:http";
import http2 from "node:http2";
import { create } from "@bufbuild/protobuf";
import type { HandlerContext } from "@connectrpc/connect";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { GetMergeQueueStatusResponseSchema, QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { createAuthorizer } from "../../services/auth/index.js";
import { buildApp, type App } from "../../services/gateway/index.js";
import { writeRestJson } from "../../services/gateway/rest-json.js";
import type { RequestFigures } from "../../services/metrics/index.js";

const ADMIN_KEY = "yma_json_answer_test_key_0123456";
const STATUS = "/v1/repos/acme/widgets/merge-queue/status";
const LOGS = "/v1/repos/acme/widgets/logs?per_page=1";
// Not ASCII: the content length counts bytes, not characters.
const status = { waitingPullRequests: [{ number: 7n, title: "Änderung ✓ 7", labels: ["ready"] }], mode: "serial" };
const observed: RequestFigures[] = [];
let app: App;
let port: number;

beforeAll(async () => {
  app = await buildApp({
    bindings: [
      { service: QueueService, impl: { getMergeQueueStatus: async () => status } },
      {
        service: ActivityLogService,
        impl: {
          listLogs: async (_req: unknown, ctx: HandlerContext) => {
            ctx.responseHeader.set("link", '</v1/repos/acme/widgets/logs?per_page=1&cursor=c2>; rel="next"');
            return { size: 0, perPage: 1, events: [] };
          },
        },
      },
    ],
    authorizer: createAuthorizer({ adminKey: ADMIN_KEY, tokens: { findToken: async () => null } }),
    logger: pino({ level: "silent" }),
    readiness: async () => ({}),
    metrics: { observeRequest: (f) => observed.push(f), scrape: async () => ({ contentType: "text/plain", text: "" }) },
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => app.close());

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  localPort: number;
}

function get(path: string, agent: http.Agent): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: "127.0.0.1", port, path, agent, headers: { authorization: `Bearer ${ADMIN_KEY}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks),
            localPort: req.socket!.localPort!,
          }),
        );
      },
    );
    req.on("error", reject);
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("a transcoded JSON answer", () => {
  it("keeps its status, headers and bytes over HTTP/1.1, and the connection goes on serving", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const first = await get(STATUS, agent);
      const second = await get(STATUS, agent);
      const expected = writeRestJson(
        GetMergeQueueStatusResponseSchema,
        create(GetMergeQueueStatusResponseSchema, status),
      );
      for (const a of [first, second]) {
        expect(a.status).toBe(200);
        expect(a.headers["content-type"]).toBe("application/json; charset=utf-8");
        expect(a.body.toString("utf8")).toBe(expected);
        expect(Number(a.headers["content-length"])).toBe(a.body.length);
        expect(a.body.length).toBeGreaterThan(a.body.toString("utf8").length);
        expect(a.headers["x-request-id"]).toMatch(UUID);
      }
      expect(second.headers["x-request-id"]).not.toBe(first.headers["x-request-id"]);
      // Both answers on one keep-alive connection.
      expect(second.localPort).toBe(first.localPort);
    } finally {
      agent.destroy();
    }
  });

  it("carries the implementation's Link, made absolute", async () => {
    const agent = new http.Agent({ keepAlive: false });
    const a = await get(LOGS, agent);
    expect(a.status).toBe(200);
    expect(a.headers.link).toBe(
      `<http://127.0.0.1:${port}/v1/repos/acme/widgets/logs?per_page=1&cursor=c2>; rel="next"`,
    );
    expect(JSON.parse(a.body.toString("utf8"))).toMatchObject({ size: 0, per_page: 1, events: [] });
  });

  it("is recorded by the request metrics with its route and status", async () => {
    observed.length = 0;
    const a = await get(STATUS, new http.Agent({ keepAlive: false }));
    expect(a.status).toBe(200);
    await expect.poll(() => observed.length).toBe(1);
    expect(observed[0]).toMatchObject({
      protocol: "rest",
      rpc: "yardmaster.v1.QueueService/GetMergeQueueStatus",
      status: "200",
    });
    expect(observed[0].seconds).toBeGreaterThan(0);
  });

  it("answers the same over HTTP/2 (h2c)", async () => {
    const session = http2.connect(`http://127.0.0.1:${port}`);
    try {
      const { headers, body } = await new Promise<{ headers: http2.IncomingHttpHeaders; body: Buffer }>(
        (resolve, reject) => {
          const stream = session.request({ ":path": STATUS, authorization: `Bearer ${ADMIN_KEY}` });
          let headers: http2.IncomingHttpHeaders = {};
          const chunks: Buffer[] = [];
          stream.on("response", (h) => (headers = h));
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => resolve({ headers, body: Buffer.concat(chunks) }));
          stream.on("error", reject);
        },
      );
      const over1 = await get(STATUS, new http.Agent({ keepAlive: false }));
      expect(headers[":status"]).toBe(200);
      expect(headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(headers["x-request-id"]).toMatch(UUID);
      expect(body.equals(over1.body)).toBe(true);
    } finally {
      session.close();
    }
  });
});
