/**
 * PostgreSQL restarted under a working queue (docs/reliability.md "Database outages"): the real
 * server process runs on a PostgreSQL cluster of the test's own, which is shut down (fast
 * shutdown: every session ended with 57P01, as a restart does) while the local CI runs a check of
 * a queue of three pull requests, and started again a few seconds later on the same port. The
 * process stays alive; during the outage every protocol answers `unavailable` with Retry-After and
 * /readyz answers within 2 s that PostgreSQL is not ready; once the database is back, everything
 * recovers with no restart of Yardmaster and every pull request merges exactly once.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { BATCHES_OF_TWO_CONFIG } from "../support/batching-config.js";
import { eventually } from "../support/eventually.js";
import { gitWorkdir } from "../support/git-workdir.js";
import { grpcClient, grpcUnary } from "../support/grpc-client.js";
import { startOwnPostgres, type OwnPostgres } from "../support/own-postgres.js";
import { restCall } from "../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

const PULLS = [1, 2, 3];
const REPO = { owner: "acme", repository: "outage" };

let pg: OwnPostgres;
let server: ServerProcess;
let work: string;
let pid: number | undefined;
let outageStarted = 0;
/** How long the outage lasts at least, ms: longer than a check (2 s), so one ends during it. */
const OUTAGE_MS = 4000;

async function rpc(method: string, body: unknown): Promise<any> {
  const res = await restCall(server, "POST", `/yardmaster.v1.${method}`, body);
  expect(res.status, `${method}: ${JSON.stringify(res.json)}`).toBe(200);
  return res.json;
}

async function events(type: string): Promise<number[]> {
  const query = `per_page=100&received_from=2000-01-01T00:00:00Z&event_type=${type}`;
  const res = await restCall(server, "GET", `/v1/repos/acme/outage/logs?${query}`);
  expect(res.status).toBe(200);
  return res.json.events.map((e: any) => e.pull_request);
}

const once = Object.fromEntries(PULLS.map((n) => [n, 1]));
const count = (list: readonly number[]) =>
  Object.fromEntries(PULLS.map((n) => [n, list.filter((x) => x === n).length]));

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-faults-pg-"));
  const src = await gitWorkdir(path.join(work, "source"));
  const ci = 'checks:\n  - name: test\n    run: "sleep 2"\n';
  await src.commit("Initial commit", { ".yardmaster.yml": BATCHES_OF_TWO_CONFIG, ".yardmaster/ci.yml": ci });
  for (const n of PULLS) {
    src.git("switch", "--quiet", "-c", `pr-${n}`, "main");
    await src.commit(`Add ${n}`, { [`changes/${n}.txt`]: `${n}\n` });
  }
  src.git("switch", "--quiet", "main");
  pg = await startOwnPostgres();
  server = await startServerProcess({
    DATABASE_URL: pg.url,
    YARDMASTER_CI_SLOTS: "2",
    YARDMASTER_CI_LEASE_SECONDS: "10",
  });
  pid = server.child.pid;
  await rpc("ForgeService/CreateRepository", { ...REPO, from_path: src.path, at_ref: "main" });
  for (const n of PULLS) {
    await rpc("ForgeService/PushBranch", { ...REPO, from_path: src.path, source_ref: `pr-${n}`, branch: `pr-${n}` });
    await rpc("ForgeService/OpenPullRequest", { ...REPO, head: `pr-${n}`, base: "main", title: `Add ${n}` });
  }
  for (const n of PULLS) {
    await rpc("ForgeService/CommentPullRequest", { ...REPO, number: n, body: "@yardmaster queue" });
  }
  // The outage starts while a CI job runs: a check run of a draft has started and not concluded.
  await eventually(
    async () => {
      const open = await rpc("ForgeService/ListPullRequests", { ...REPO, state: "open" });
      const checks = open.pull_requests.flatMap((p: any) => p.checks);
      const running = checks.filter((c: any) => c.name === "test" && c.started_at && !c.completed_at);
      expect(running.length).toBeGreaterThan(0);
    },
    120_000,
    100,
  );
  await pg.stop();
  outageStarted = Date.now();
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await pg?.destroy();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("PostgreSQL shut down and started again while the queue works", () => {
  it("answers REST with 503 unavailable and Retry-After during the outage", async () => {
    const res = await restCall(server, "GET", "/v1/repos/acme/outage/merge-queue/status");
    expect(res.status).toBe(503);
    expect(res.json.code).toBe("unavailable");
    expect(res.json.message).toMatch(/^PostgreSQL does not answer; retry in \d+ s/);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
  });

  it("answers Connect with unavailable (HTTP 503, Retry-After) and gRPC with status 14", async () => {
    const connect = await restCall(server, "POST", "/yardmaster.v1.QueueService/GetMergeQueueStatus", REPO);
    expect(connect.status).toBe(503);
    expect(connect.json.code).toBe("unavailable");
    expect(Number(connect.headers.get("retry-after"))).toBeGreaterThan(0);
    const client = grpcClient(QueueService, `127.0.0.1:${server.port}`);
    try {
      await expect(grpcUnary(client, "getMergeQueueStatus", REPO, server.adminKey)).rejects.toMatchObject({ code: 14 });
    } finally {
      client.close();
    }
  });

  it("answers /readyz within 2 s, not ready, naming PostgreSQL", async () => {
    const started = Date.now();
    const res = await fetch(`${server.url}/readyz`);
    expect(Date.now() - started).toBeLessThan(2000);
    expect(res.status).toBe(503);
    const body: any = await res.json();
    expect(body.status).toBe("not_ready");
    expect(body.checks.postgresql).not.toBe("ok");
    expect(server.child.exitCode).toBeNull();
  });

  it("recovers when PostgreSQL is back, without a restart, and merges every pull request exactly once", async () => {
    await new Promise((r) => setTimeout(r, Math.max(0, OUTAGE_MS - (Date.now() - outageStarted))));
    await pg.start();
    await eventually(
      async () => {
        for (const n of PULLS) {
          const { pull_request: pull } = await rpc("ForgeService/GetPullRequest", { ...REPO, number: n });
          expect(pull.state, `#${n}`).toBe("merged");
        }
      },
      120_000,
      500,
    );
    await eventually(async () => expect(count(await events("action.queue.merged"))).toEqual(once), 30_000);
    expect(count(await events("action.queue.leave"))).toEqual(once);
    const status = await restCall(server, "GET", "/v1/repos/acme/outage/merge-queue/status");
    expect(status.json).toMatchObject({ batches: [], waiting_pull_requests: [] });
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    // The same process all along, and no connection error went unhandled.
    expect(server.child.pid).toBe(pid);
    expect(server.child.exitCode).toBeNull();
    expect(server.output()).not.toMatch(/Unhandled 'error' event|uncaughtException/);
  });
});
