/**
 * `POST /webhooks/github` through a real Fastify instance (`inject()`) and a real PostgreSQL
 * database: signatures, de-duplication by X-GitHub-Delivery, ignored and unreadable payloads, a
 * failing sink, and the encapsulated body parser.
 */
import { createRequire } from "node:module";
import { Webhooks } from "@octokit/webhooks";
import pino from "pino";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createAuthorizer } from "../../../services/auth/index.js";
import { registerGithubWebhook } from "../../../services/forge/github/index.js";
import { buildApp, type App } from "../../../services/gateway/index.js";
import { claimGithubDelivery } from "../../../services/store/github-deliveries.js";
import type { ForgeEvent } from "../../../services/forge/types.js";
import { freshDatabase, type TestDatabase } from "../../support/database.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
const examples: { name: string; examples: any[] }[] = createRequire(import.meta.url)(
  "@octokit/webhooks-examples/api.github.com/index.json",
);
const payloadOf = (name: string, action?: string) =>
  examples.find((e) => e.name === name)!.examples.find((p) => action === undefined || p.action === action);

const SECRET = "It's a Secret to Everybody";
const signer = new Webhooks({ secret: SECRET });

let db: TestDatabase;
let app: App;
let received: ForgeEvent[];
let keys: (string | undefined)[];
let failSink: boolean;
let logged: { level: string; msg?: string }[];
let clock: Date;
let deliveryCounter = 0;

beforeAll(async () => {
  db = await freshDatabase();
  const log = (level: string) => (_obj: object, msg?: string) => void logged.push({ level, msg });
  // The webhook as the server mounts it: an extra route of the gateway, whose errors get the one
  // error body (docs/errors.md). A JSON route beside it keeps the gateway's own parser.
  app = await buildApp({
    bindings: [],
    authorizer: createAuthorizer({ adminKey: "admin", tokens: { findToken: async () => null } }),
    logger: pino({ level: "silent" }),
    readiness: async () => ({}),
    extraRoutes: async (scope) => {
      scope.post("/echo", async (req) => req.body);
      await registerGithubWebhook(scope as never, {
        secret: SECRET,
        pool: db.pool,
        sink: async (e, key) => {
          if (failSink) throw new Error("queue runner unavailable");
          received.push(e);
          keys.push(key);
        },
        log: { debug: log("debug"), info: log("info"), warn: log("warn"), error: log("error") },
        now: () => clock,
      });
    },
  });
  await app.ready();
});
afterAll(async () => {
  await app.close();
  await db.drop();
});
beforeEach(() => {
  received = [];
  keys = [];
  failSink = false;
  logged = [];
  clock = new Date("2026-03-02T10:00:00Z");
});

async function deliver(
  event: string,
  payload: unknown,
  opts: { delivery?: string; signature?: string | null; form?: boolean } = {},
) {
  const json = JSON.stringify(payload);
  const body = opts.form ? `payload=${encodeURIComponent(json)}` : json;
  const signature = opts.signature === undefined ? await signer.sign(body) : opts.signature;
  return app.inject({
    method: "POST",
    url: "/webhooks/github",
    headers: {
      "content-type": opts.form ? "application/x-www-form-urlencoded" : "application/json",
      "x-github-event": event,
      "x-github-delivery": opts.delivery ?? `delivery-${++deliveryCounter}`,
      ...(signature === null ? {} : { "x-hub-signature-256": signature }),
    },
    payload: body,
  });
}

async function deliveryRows(): Promise<number> {
  const res = await db.pool.query("SELECT count(*)::int AS n FROM github_deliveries");
  return res.rows[0].n;
}

describe("signature", () => {
  it.each([
    ["a wrong signature", `sha256=${"0".repeat(64)}`],
    ["a signature made with another secret", "other"],
    ["no signature", null],
  ])("rejects %s as unauthenticated (403, the one error body) and does nothing", async (_label, signature) => {
    const rowsBefore = await deliveryRows();
    const sig =
      signature === "other"
        ? await new Webhooks({ secret: "not it" }).sign(JSON.stringify(payloadOf("pull_request", "opened")))
        : signature;
    const res = await deliver("pull_request", payloadOf("pull_request", "opened"), { signature: sig });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: "unauthenticated", message: "missing or invalid X-Hub-Signature-256" });
    expect(received).toEqual([]);
    expect(await deliveryRows()).toBe(rowsBefore);
  });

  it("accepts the exact bytes GitHub signed, also form-encoded", async () => {
    const res = await deliver("pull_request", payloadOf("pull_request", "opened"), { form: true });
    expect(res.statusCode).toBe(200);
    expect(received).toEqual([
      { kind: "pull_request_opened", repo: "Codertocat/Hello-World", number: 2, head: "changes" },
    ]);
  });
});

describe("deliveries", () => {
  it("processes a delivery once and acknowledges its redelivery", async () => {
    const first = await deliver("pull_request", payloadOf("pull_request", "labeled"), {
      delivery: "72d3162e-cc78-11e3-81ab-4c9367dc0958",
    });
    expect([first.statusCode, first.json()]).toEqual([
      200,
      { status: "processed", delivery: "72d3162e-cc78-11e3-81ab-4c9367dc0958", events: 1 },
    ]);
    const again = await deliver("pull_request", payloadOf("pull_request", "labeled"), {
      delivery: "72d3162e-cc78-11e3-81ab-4c9367dc0958",
    });
    expect([again.statusCode, again.json().status]).toEqual([200, "duplicate"]);
    expect(received).toEqual([
      {
        kind: "pull_request_labeled",
        repo: "Codertocat/Hello-World",
        number: 2,
        head: "changes",
        label: { name: "bug", added: true },
      },
    ]);
  });

  it("answers 500 when the sink fails, so that a redelivery is processed", async () => {
    failSink = true;
    const failed = await deliver("status", payloadOf("status"), { delivery: "sink-fails" });
    expect(failed.statusCode).toBe(500);
    expect(failed.json()).toMatchObject({
      code: "internal",
      message: expect.stringMatching(/^internal error \(request id /),
    });
    failSink = false;
    const retried = await deliver("status", payloadOf("status"), { delivery: "sink-fails" });
    expect(retried.json().status).toBe("processed");
    expect(received).toHaveLength(1);
  });

  it("hands a delivery over again at once when its first processing never completed, with the same keys", async () => {
    // A process that died between claiming a delivery and handing its events over (or after handing
    // them and before completing it): a redelivery is not acknowledged as a duplicate, it is processed.
    expect(await claimGithubDelivery(db.pool, "orphan", "check_run", new Date(clock.getTime() - 1000))).toBe(true);
    expect(
      (await deliver("check_run", payloadOf("check_run", "completed"), { delivery: "orphan" })).json().status,
    ).toBe("processed");
    expect(keys).toEqual(["github:orphan:0"]);
    const again = await deliver("check_run", payloadOf("check_run", "completed"), { delivery: "orphan" });
    expect(again.json().status).toBe("duplicate");
    expect(received).toHaveLength(1);
  });

  it("acknowledges events it does not follow with 202, and an unreadable payload too (logged)", async () => {
    const ping = await deliver("ping", payloadOf("ping"));
    expect([ping.statusCode, ping.json().status]).toEqual([202, "ignored"]);
    const broken = { ...payloadOf("pull_request", "opened"), number: "two" };
    const res = await deliver("pull_request", broken);
    expect([res.statusCode, res.json().status]).toEqual([202, "unreadable"]);
    expect(logged).toContainEqual({ level: "error", msg: "GitHub webhook payload could not be mapped" });
    expect(received).toEqual([]);
  });

  it("answers 422 naming the missing header, or the body that is not JSON, in the one error body", async () => {
    const body = "not json";
    const noDelivery = await app.inject({
      method: "POST",
      url: "/webhooks/github",
      headers: {
        "content-type": "application/json",
        "x-github-event": "push",
        "x-hub-signature-256": await signer.sign(body),
      },
      payload: body,
    });
    expect([noDelivery.statusCode, noDelivery.json().code]).toEqual([422, "invalid_argument"]);
    expect(noDelivery.json().details[0]).toEqual({
      type: "field_violation",
      field: "X-GitHub-Delivery",
      description: "header required (at most 200 characters)",
    });
    const notJson = await app.inject({
      method: "POST",
      url: "/webhooks/github",
      headers: {
        "content-type": "application/json",
        "x-github-event": "push",
        "x-github-delivery": "x",
        "x-hub-signature-256": await signer.sign(body),
      },
      payload: body,
    });
    expect([notJson.statusCode, notJson.json().message]).toEqual([422, "body: not a JSON webhook payload"]);
  });

  it("leaves other routes' JSON parsing alone", async () => {
    const res = await app.inject({ method: "POST", url: "/echo", payload: { a: 1 } });
    expect(res.json()).toEqual({ a: 1 });
  });
});
