/**
 * The admin key is verified once per connection (docs/rest-json.md "Cost of the transcoder"),
 * and nothing else is kept: on one keep-alive connection a different header is authenticated in
 * full, and a service token revoked between two requests is refused at the second.
 */
import http from "node:http";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { createAuthorizer, issueToken, type Authorizer, type StoredToken } from "../../services/auth/index.js";
import { buildApp, type App } from "../../services/gateway/index.js";

const ADMIN_KEY = "yma_connection_principals_key_0123";
const PATH = "/v1/repos/acme/widgets/merge-queue/status";
const token = issueToken();
const stored: StoredToken = {
  id: token.id,
  secretHash: token.secretHash,
  repositories: ["acme/widgets"],
  description: "reader",
  revokedAt: null,
};
let authentications = 0;
let app: App;
let port: number;
// One socket for every request: the requests of a test share a keep-alive connection.
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

beforeAll(async () => {
  const inner = createAuthorizer({
    adminKey: ADMIN_KEY,
    tokens: { findToken: async (id) => (id === stored.id ? stored : null) },
  });
  const authorizer: Authorizer = {
    authenticate: (header) => {
      authentications++;
      return inner.authenticate(header);
    },
    authorize: (p, m, r) => inner.authorize(p, m, r),
  };
  app = await buildApp({
    bindings: [{ service: QueueService, impl: { getMergeQueueStatus: async () => ({ mode: "serial" }) } }],
    authorizer,
    logger: pino({ level: "silent" }),
    readiness: async () => ({}),
  });
  await app.listen({ port: 0, host: "127.0.0.1" });
  port = (app.server.address() as { port: number }).port;
});
afterAll(async () => {
  agent.destroy();
  await app.close();
});

/** GET the status with `bearer` on the shared connection: the status code and the socket's local port. */
function get(bearer: string): Promise<{ status: number; socket: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: "127.0.0.1", port, path: PATH, agent, headers: { authorization: `Bearer ${bearer}` } },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ status: res.statusCode!, socket: req.socket!.localPort! }));
      },
    );
    req.on("error", reject);
  });
}

describe("authentication kept per connection", () => {
  it("verifies the admin key once per connection, and a different header in full", async () => {
    authentications = 0;
    const first = await get(ADMIN_KEY);
    expect(first.status).toBe(200);
    expect((await get(ADMIN_KEY)).status).toBe(200);
    expect((await get(ADMIN_KEY)).status).toBe(200);
    expect(authentications).toBe(1);
    // A wrong key on the same connection is refused, and the right one is still known after it.
    const wrong = await get(`${ADMIN_KEY}x`);
    expect(wrong).toEqual({ status: 403, socket: first.socket });
    expect((await get(ADMIN_KEY)).status).toBe(200);
    expect(authentications).toBe(2);
  });

  it("checks a service token on every request: revoked between two requests, the second is refused", async () => {
    authentications = 0;
    const first = await get(token.secret);
    expect(first.status).toBe(200);
    stored.revokedAt = new Date();
    const second = await get(token.secret);
    expect(second).toEqual({ status: 403, socket: first.socket });
    expect(authentications).toBe(2);
  });
});
