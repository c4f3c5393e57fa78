/**
 * Prometheus metrics through the real server process (docs/observability.md): a scripted scenario
 * on the local forge — a batch of a good and a broken pull request fails, is bisected, the good
 * one merges and the broken one is dropped as the culprit — moves the queue figures of acme/metrics on branch
 * main (CI runs, merges, dequeues by code, bisections, time in queue, waiting back to 0), and REST,
 * Connect and gRPC calls show in the request durations. /metrics answers without credentials.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { cliStdout } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { gitWorkdir, type GitWorkdir } from "../support/git-workdir.js";
import { grpcClient, grpcUnary } from "../support/grpc-client.js";
import { parsePrometheusText, sampleSum, type Sample } from "../support/prometheus-text.js";
import { restCall } from "../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

let server: ServerProcess;
let work: string;
let src: GitWorkdir;
const repo = { repository: "acme/metrics", branch: "main" };

const CONFIG = [
  "queue_rules:",
  "  - name: default",
  "    batch_size: 2",
  '    batch_max_wait_time: "60 s"',
  "    branch_protection_injection_mode: merge",
  "",
].join("\n");

const cli = (...args: string[]) => cliStdout(server.cliEnv, args);

async function pullRequest(branch: string, files: Record<string, string>): Promise<number> {
  src.git("switch", "--quiet", "-c", branch, "main");
  await src.commit(`Change ${branch}`, files);
  src.git("switch", "--quiet", "main");
  await cli("repo", "push", "acme/metrics", "--from", src.path, "--ref", branch, "--branch", branch);
  const out = await cli("pr", "open", "acme/metrics", "--head", branch, "--base", "main", "--title", branch);
  return Number(/^#(\d+)/.exec(out)![1]);
}

async function scrape(): Promise<Sample[]> {
  const res = await fetch(`${server.url}/metrics`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/plain");
  return parsePrometheusText(await res.text());
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-metrics-"));
  src = await gitWorkdir(path.join(work, "metrics"));
  await src.commit("Initial commit", {
    "README.md": "metrics\n",
    ".yardmaster.yml": CONFIG,
    ".yardmaster/ci.yml": 'checks:\n  - name: test\n    run: "test ! -e BROKEN"\n',
  });
  // LOG_LEVEL info: the start-up log lines exist, and must come after the banner.
  server = await startServerProcess({ YARDMASTER_CI_SLOTS: "3", LOG_LEVEL: "info" });
  await cli("repo", "add", "acme/metrics", "--from", src.path);
});
afterAll(async () => {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("the start-up lines", () => {
  it("say first where the dashboard, the API reference and the metrics are; logs follow as JSON off a terminal", async () => {
    const lines = server.output().split("\n");
    expect(lines.slice(0, 4)).toEqual([
      `Yardmaster is listening on ${server.url} (REST under /v1, Connect, gRPC and gRPC-Web on the same port)`,
      `  Dashboard:      ${server.url}/`,
      `  API reference:  ${server.url}/docs (OpenAPI document: ${server.url}/openapi.json)`,
      `  Metrics:        ${server.url}/metrics (Prometheus text format)`,
    ]);
    const logs = lines.filter((l) => l.startsWith("{"));
    expect(logs.length).toBeGreaterThan(0);
    expect(JSON.parse(logs[0])).toMatchObject({ level: 30, msg: expect.any(String) });
  });
});

describe("GET /metrics", () => {
  it("moves the queue figures with a bisected batch: CI runs, a merge, a dequeue, a bisection, time in queue", async () => {
    const before = await scrape();
    expect(sampleSum(before, "yardmaster_queue_merges_total", repo)).toBe(0);
    const good = await pullRequest("good", { "good.txt": "1\n" });
    const bad = await pullRequest("bad", { BROKEN: "x\n" });
    await cli("pr", "comment", "acme/metrics", String(good), "@yardmaster queue");
    await eventually(async () => {
      expect(sampleSum(await scrape(), "yardmaster_queue_pull_requests_waiting", repo)).toBe(1);
    }, 60_000);
    await cli("pr", "comment", "acme/metrics", String(bad), "@yardmaster queue");
    const after = await eventually(async () => {
      const s = await scrape();
      expect(sampleSum(s, "yardmaster_queue_merges_total", repo)).toBe(1);
      expect(sampleSum(s, "yardmaster_queue_dequeues_total", repo)).toBe(1);
      return s;
    }, 120_000);
    expect(
      sampleSum(after, "yardmaster_queue_dequeues_total", { ...repo, code: "DROPPED_BY_BISECTION_ELIMINATION" }),
    ).toBe(1);
    expect(sampleSum(after, "yardmaster_queue_bisections_total", repo)).toBe(1);
    // The batch of two, then the good half alone (the broken half is the culprit by elimination).
    expect(sampleSum(after, "yardmaster_queue_ci_runs_started_total", repo)).toBe(2);
    expect(sampleSum(after, "yardmaster_queue_time_seconds_count", repo)).toBe(2);
    expect(sampleSum(after, "yardmaster_queue_time_seconds_sum", repo)).toBeGreaterThan(0);
    expect(sampleSum(after, "yardmaster_queue_pull_requests_waiting", repo)).toBe(0);
    expect(sampleSum(after, "yardmaster_queue_batches_checking", repo)).toBe(0);
    expect(after.some((s) => s.name === "yardmaster_outbox_events" && s.value >= 0)).toBe(true);
    expect(after.some((s) => s.name === "yardmaster_outbox_oldest_event_age_seconds" && s.value >= 0)).toBe(true);
    expect(sampleSum(after, "yardmaster_clickhouse_ingest_errors_total")).toBe(0);
  });

  it("times requests by protocol, RPC and status", async () => {
    const rpc = "yardmaster.v1.QueueService/GetMergeQueueStatus";
    await restCall(server, "GET", "/v1/repos/acme/metrics/merge-queue/status");
    await restCall(server, "GET", "/v1/repos/acme/metrics/merge-queue/pull/999");
    await fetch(`${server.url}/yardmaster.v1.QueueService/GetMergeQueueStatus`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${server.adminKey}` },
      body: JSON.stringify({ owner: "acme", repository: "metrics" }),
    });
    const queue = grpcClient(QueueService, `127.0.0.1:${server.port}`);
    await grpcUnary(queue, "getMergeQueueStatus", { owner: "acme", repository: "metrics" }, server.adminKey);
    queue.close();
    const s = await scrape();
    const count = (labels: Record<string, string>) => sampleSum(s, "yardmaster_rpc_duration_seconds_count", labels);
    expect(count({ protocol: "rest", rpc, status: "200" })).toBeGreaterThanOrEqual(1);
    expect(
      count({ protocol: "rest", rpc: "yardmaster.v1.QueueService/GetQueuedPullRequest", status: "404" }),
    ).toBeGreaterThanOrEqual(1);
    expect(count({ protocol: "connect", rpc, status: "ok" })).toBeGreaterThanOrEqual(1);
    expect(count({ protocol: "grpc", rpc, status: "ok" })).toBeGreaterThanOrEqual(1);
  });
});

describe("the log at info level", () => {
  it("says each merge, dequeue and failed batch in one line, and never the admin key", async () => {
    const records = server
      .output()
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l));
    const about = (msg: string) => records.filter((r) => r.msg === msg && r.repository === repo.repository);
    expect(about("pull request merged")).toEqual([expect.objectContaining({ level: 30, branch: "main" })]);
    expect(about("pull request dequeued")).toEqual([
      expect.objectContaining({ level: 30, code: "DROPPED_BY_BISECTION_ELIMINATION", reason: expect.any(String) }),
    ]);
    expect(about("batch failed its checks")).toEqual([
      expect.objectContaining({ level: 30, pull_requests: expect.any(Array), failing_checks: ["test"] }),
    ]);
    expect(server.output()).not.toContain(server.adminKey);
    expect(server.output()).toMatch(/Admin key: generated now, in \S+admin-key \(yma_[\w-]{4}…;/);
  });
});
