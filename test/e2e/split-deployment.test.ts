/**
 * Split deployment end to end (docs/deployment.md "The operational contract"): two real server processes on
 * one PostgreSQL database. The log process runs `serve --only activity-log` (ClickHouse, the
 * outbox relay, ActivityLogService); the front process runs `serve --only queue,simulator` and
 * reaches the log at YARDMASTER_ACTIVITY_LOG_URL. A pause written by the front arrives in the
 * log process's ClickHouse through the shared outbox and is read back through the front, over
 * REST (Link header and validation errors carried back) and over gRPC; the log process serves
 * no queue route; with the log process gone the front answers 503 naming it.
 */
import * as grpc from "@grpc/grpc-js";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { eventually } from "../support/eventually.js";
import { grpcClient, grpcUnary } from "../support/grpc-client.js";
import { runCli } from "../support/cli.js";
import { createLocalRepository, restCall } from "../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { collect, connectClient, openSse } from "../support/stream-clients.js";

const ADMIN_KEY = "split-deployment-admin-key-0123456789";
let log: ServerProcess;
let front: ServerProcess;

beforeAll(async () => {
  log = await startServerProcess({ YARDMASTER_ADMIN_KEY: ADMIN_KEY }, ["--only", "activity-log"]);
  front = await startServerProcess(
    { YARDMASTER_ADMIN_KEY: ADMIN_KEY, DATABASE_URL: log.db.url, YARDMASTER_ACTIVITY_LOG_URL: log.url },
    ["--only", "queue,simulator"],
  );
  await createLocalRepository(front, "acme/split");
}, 180_000);
afterAll(async () => {
  await front?.stop();
  await log?.stop();
});

/** A REST call under /v1/repos/acme/split with the shared admin key, and the response's Link header. */
async function rest(server: ServerProcess, method: string, path: string, body?: unknown) {
  const res = await restCall(server, method, `/v1/repos/acme/split${path}`, body);
  return { ...res, link: res.headers.get("link") };
}

describe("a front process and a log process", () => {
  it("say which services each runs", () => {
    expect(front.output()).toContain(`Services here: queue, simulator; activity-log at ${log.url}`);
    expect(log.output()).toContain("Services here: activity-log; queue not served; simulator not served");
  });

  it("log a pause made on the front, read back through the front with its Link header", async () => {
    expect((await rest(front, "PUT", "/merge-queue/pause", { reason: "split" })).status).toBe(200);
    expect((await rest(front, "DELETE", "/merge-queue/pause")).status).toBe(204);
    const page = await eventually(async () => {
      const res = await rest(
        front,
        "GET",
        "/logs?per_page=1&event_type=queue.pause.create&event_type=queue.pause.delete",
      );
      expect(res.status).toBe(200);
      expect(res.json.size).toBe(1);
      expect(res.link).toMatch(/rel="next"/);
      return res;
    }, 60_000);
    expect(page.json.events[0].type).toBe("queue.pause.delete");
    const direct = await rest(
      log,
      "GET",
      "/logs?per_page=1&event_type=queue.pause.create&event_type=queue.pause.delete",
    );
    expect(direct.json.events).toEqual(page.json.events);
    expect(
      (await rest(front, "GET", "/logs/aggregate?event_type=queue.pause.create&event_type=queue.pause.delete")).json
        .total,
    ).toBe(2);
  }, 90_000);

  it("carry the log process's validation errors back as they are", async () => {
    const res = await rest(front, "GET", "/logs?per_page=0");
    expect(res.status).toBe(422);
    expect(res.json.details).toContainEqual(expect.objectContaining({ type: "field_violation", field: "per_page" }));
  });

  it("answer gRPC on the front for the log", async () => {
    const client = grpcClient(ActivityLogService, `127.0.0.1:${front.port}`);
    try {
      const list = await grpcUnary(
        client,
        "listLogs",
        { owner: "acme", repository: "split", eventType: ["queue.pause.create"] },
        ADMIN_KEY,
      );
      expect(list.events.map((e: { type: string }) => e.type)).toEqual(["queue.pause.create"]);
      await expect(
        grpcUnary(client, "listLogs", { owner: "acme", repository: "split" }, "not-the-key-at-all"),
      ).rejects.toMatchObject({ code: grpc.status.UNAUTHENTICATED });
    } finally {
      client.close();
    }
  });

  it("relay the log's live tail through the front, over server-sent events and Connect", async () => {
    // Both streams start a minute back, so neither misses the event for opening after it was logged.
    const from = new Date(Date.now() - 60_000);
    const url = `${front.url}/v1/repos/acme/split/logs:watch?event_type=queue.pause.create&received_from=${from.toISOString()}`;
    const sse = await openSse(url, ADMIN_KEY);
    expect(sse.status).toBe(200);
    const ac = new AbortController();
    const got: unknown[] = [];
    const req = {
      owner: "acme",
      repository: "split",
      eventType: ["queue.pause.create"],
      receivedFrom: timestampFromDate(from),
    };
    const watching = collect(
      connectClient(ActivityLogService, front.url, ADMIN_KEY).watchLogs(req, { signal: ac.signal }),
      got,
    );
    try {
      expect((await rest(front, "PUT", "/merge-queue/pause", { reason: "watched" })).status).toBe(200);
      expect((await rest(front, "DELETE", "/merge-queue/pause")).status).toBe(204);
      await eventually(async () => {
        expect(sse.events.map((e) => JSON.parse(e.data).event.metadata?.reason)).toContain("watched");
        expect(got.map((m: any) => m.event.metadata?.reason)).toContain("watched");
      }, 60_000);
      // Each relayed event carries the log process's cursor, so a reconnect resumes there.
      expect(sse.events.every((e) => e.id === JSON.parse(e.data).cursor)).toBe(true);
    } finally {
      sse.close();
      ac.abort();
      await watching;
    }
    // The caller's disconnect ended the log process's stream too.
    await eventually(async () => expect((await restCall(log, "GET", "/readyz")).json.streams.watchers).toBe(0), 10_000);
  }, 90_000);

  it("keep the queue on the front only", async () => {
    expect((await rest(log, "GET", "/merge-queue/pause")).status).toBe(404);
    expect((await rest(front, "GET", "/merge-queue/pause")).json.paused).toBe(false);
  });

  it("refuse to split the local forge's queue from its simulator", async () => {
    const res = await runCli(["serve", "--only", "queue"], {
      ...process.env,
      YARDMASTER_ADMIN_KEY: ADMIN_KEY,
      DATABASE_URL: log.db.url,
      PORT: "0",
    });
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/--only: with FORGE=local the queue and the simulator run in the same process/);
  });

  it("answer 503 naming the log when the log process is gone", async () => {
    const exited = new Promise((r) => log.child.once("exit", r));
    log.child.kill("SIGTERM");
    await exited;
    const res = await rest(front, "GET", "/logs");
    expect(res.status).toBe(503);
    expect(res.json.message).toMatch(/ActivityLogService at http:\/\/127\.0\.0\.1:\d+ is unavailable/);
  });
});
