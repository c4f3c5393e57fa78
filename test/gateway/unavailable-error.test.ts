/**
 * A database that does not answer is `unavailable` on every protocol (docs/errors.md "Outages"):
 * REST 503 with the common error body and `Retry-After`, Connect `unavailable` (HTTP 503, with
 * `Retry-After`), gRPC status 14, whatever handler raised it and however it was wrapped. The
 * message names the database and never carries the library's text; a bug stays 500 `internal`.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { ForgeError } from "../../services/forge/types.js";
import { createAuthorizer } from "../../services/auth/index.js";
import { buildApp, type App } from "../../services/gateway/index.js";
import { DatabaseUnavailableError, RETRY_AFTER_SECONDS } from "../../services/outage/index.js";
import { freePort, openDatabase } from "../../services/store/index.js";
import { grpcClient, grpcUnary } from "../support/grpc-client.js";

const ADMIN_KEY = "yma_unavailable_error_test_key_01";
let app: App;
let port: number;
/** What the handler throws in the current test. */
let thrown: unknown;

/** The error a real pool raises for a PostgreSQL that refuses connections. */
async function refusedByPostgres(): Promise<unknown> {
  const db = await openDatabase({ url: `postgres://u:p@127.0.0.1:${await freePort()}/db`, dataDir: "/nonexistent" });
  try {
    return await db.pool.query("SELECT 1").then(
      () => null,
      (e: unknown) => e,
    );
  } finally {
    await db.close();
  }
}

beforeAll(async () => {
  app = await buildApp({
    bindings: [
      {
        service: QueueService,
        impl: {
          getMergeQueueStatus: async () => {
            throw thrown;
          },
        },
      },
    ],
    authorizer: createAuthorizer({ adminKey: ADMIN_KEY, tokens: { findToken: async () => null } }),
    logger: pino({ level: "silent" }),
    readiness: async () => ({}),
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => app.close());

const AUTH = { authorization: `Bearer ${ADMIN_KEY}` };
const rest = () => app.inject({ method: "GET", url: "/v1/repos/acme/widgets/merge-queue/status", headers: AUTH });
const connect = () =>
  app.inject({
    method: "POST",
    url: "/yardmaster.v1.QueueService/GetMergeQueueStatus",
    headers: { authorization: `Bearer ${ADMIN_KEY}`, "content-type": "application/json" },
    payload: JSON.stringify({ owner: "acme", repository: "widgets" }),
  });
async function grpcCode(): Promise<number> {
  const client = grpcClient(QueueService, `127.0.0.1:${port}`);
  try {
    await grpcUnary(client, "getMergeQueueStatus", { owner: "acme", repository: "widgets" }, ADMIN_KEY);
    return 0;
  } catch (e) {
    return (e as { code: number }).code;
  } finally {
    client.close();
  }
}

describe("a request that fails because a database does not answer", () => {
  it("answers REST 503 unavailable with Retry-After, naming PostgreSQL without the library's text", async () => {
    thrown = await refusedByPostgres();
    const res = await rest();
    expect(res.statusCode).toBe(503);
    expect(res.headers["retry-after"]).toBe(String(RETRY_AFTER_SECONDS));
    const body = res.json();
    expect(body.code).toBe("unavailable");
    const requestId = res.headers["x-request-id"];
    expect(body.message).toBe(
      `PostgreSQL does not answer; retry in ${RETRY_AFTER_SECONDS} s (request id ${requestId})`,
    );
    expect(res.body).not.toContain("ECONNREFUSED");
    expect(body.details).toEqual([{ type: "request_info", request_id: res.headers["x-request-id"] }]);
  });

  it("answers Connect unavailable (HTTP 503, Retry-After) and gRPC status 14", async () => {
    thrown = await refusedByPostgres();
    const res = await connect();
    expect(res.statusCode).toBe(503);
    expect(res.headers["retry-after"]).toBe(String(RETRY_AFTER_SECONDS));
    expect(res.json()).toMatchObject({
      code: "unavailable",
      message: expect.stringMatching(/^PostgreSQL does not answer/),
    });
    expect(await grpcCode()).toBe(14);
  });

  it("names ClickHouse for a read past its deadline", async () => {
    thrown = new DatabaseUnavailableError("ClickHouse", "ClickHouse did not answer within 5000 ms");
    expect((await rest()).json().message).toMatch(/^ClickHouse does not answer/);
  });

  it("hides the text of a forge error caused by the database behind the same answer", async () => {
    const message = "reading repository acme/widgets failed: connect ECONNREFUSED 127.0.0.1:5432";
    thrown = new ForgeError("transient", message, undefined, { cause: await refusedByPostgres() });
    const res = await rest();
    expect(res.statusCode).toBe(503);
    expect(res.body).not.toContain("ECONNREFUSED");
    expect(res.json().message).toMatch(/^PostgreSQL does not answer/);
  });

  it("keeps the message of another unavailable service and adds Retry-After", async () => {
    const message = "yardmaster.v1.QueueService at http://queue:8080 is unavailable: no answer";
    thrown = new ConnectError(message, Code.Unavailable);
    const res = await rest();
    expect(res.statusCode).toBe(503);
    expect(res.headers["retry-after"]).toBe(String(RETRY_AFTER_SECONDS));
    expect(res.json().message).toBe(message);
  });

  it("still answers 500 internal for an error that is not an outage", async () => {
    thrown = Object.assign(new Error('syntax error at or near "SELEC"'), { code: "42601", severity: "ERROR" });
    const res = await rest();
    expect(res.statusCode).toBe(500);
    expect(res.headers["retry-after"]).toBeUndefined();
    expect(res.json().code).toBe("internal");
    expect(await grpcCode()).toBe(13);
  });
});
