/**
 * WatchMergeQueue end to end (docs/api.md "Streams"), one real server process: three watchers —
 * Connect, gRPC and server-sent events — see every status change of a scripted scenario (pull
 * requests queued by API one after the other, then one dequeued) in order, nothing else; a token
 * scoped to one repository cannot watch another, on every protocol.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import { Code, ConnectError } from "@connectrpc/connect";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { QueueService, type WatchMergeQueueResponse } from "../../gen/yardmaster/v1/queue_pb.js";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { cliStdout } from "../support/cli.js";
import { restCall } from "../support/rest-client.js";
import { grpcClient, grpcUnary, type GrpcClient } from "../support/grpc-client.js";
import { eventually } from "../support/eventually.js";
import { gitWorkdir, type GitWorkdir } from "../support/git-workdir.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import { collect, connectClient, grpcStream, openSse } from "../support/stream-clients.js";

let server: ServerProcess;
let work: string;
let src: GitWorkdir;
let queue: GrpcClient;

// Pull requests wait for a batch of five for an hour: each API call is one visible status change.
const CONFIG = ["queue_rules:", "  - name: default", "    batch_size: 5", '    batch_max_wait_time: "1 h"', ""].join(
  "\n",
);

const cli = (...args: string[]) => cliStdout(server.cliEnv, args);

async function pullRequest(branch: string): Promise<number> {
  src.git("switch", "--quiet", "-c", branch, "main");
  await src.commit(`Add ${branch}`, { [`${branch}.txt`]: `${branch}\n` });
  src.git("switch", "--quiet", "main");
  await cli("repo", "push", "acme/shop", "--from", src.path, "--ref", branch, "--branch", branch);
  const out = await cli("pr", "open", "acme/shop", "--head", branch, "--base", "main", "--title", branch);
  return Number(/^#(\d+)/.exec(out)![1]);
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-watch-"));
  src = await gitWorkdir(path.join(work, "shop"));
  await src.commit("Initial commit", { "README.md": "shop\n", ".yardmaster.yml": CONFIG });
  server = await startServerProcess();
  await cli("repo", "add", "acme/shop", "--from", src.path);
  queue = grpcClient(QueueService, `127.0.0.1:${server.port}`);
});
afterAll(async () => {
  queue?.close();
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

/** The queued pull requests (in batches, then waiting) of a status in REST JSON. */
const queuedIn = (status: {
  batches: { pull_requests: { number: unknown }[] }[];
  waiting_pull_requests: { number: unknown }[];
}): number[] =>
  [...status.batches.flatMap((b) => b.pull_requests), ...status.waiting_pull_requests].map((p) => Number(p.number));

/** The queued pull requests of each message that reports a change, consecutive repeats merged. */
function waitingLists(statuses: { waiting: number[]; changed: boolean }[]): number[][] {
  const lists: number[][] = [];
  for (const s of statuses.filter((x) => x.changed))
    if (JSON.stringify(lists.at(-1)) !== JSON.stringify(s.waiting)) lists.push(s.waiting);
  return lists;
}

describe("WatchMergeQueue", () => {
  it("shows every change of a scripted scenario in order, on Connect, gRPC and server-sent events", async () => {
    const prs = [await pullRequest("one"), await pullRequest("two"), await pullRequest("three")];
    const req = { owner: "acme", repository: "shop" };
    const ac = new AbortController();
    const viaConnect: WatchMergeQueueResponse[] = [];
    const connectDone = collect(
      connectClient(QueueService, server.url, server.adminKey).watchMergeQueue(req, { signal: ac.signal }),
      viaConnect,
    );
    const viaGrpc: WatchMergeQueueResponse[] = [];
    const g = grpcStream(queue, "watchMergeQueue", req, server.adminKey, viaGrpc);
    const sse = await openSse(`${server.url}/v1/repos/acme/shop/merge-queue/status:watch`, server.adminKey);
    expect(sse.status).toBe(200);

    const typed = (m: WatchMergeQueueResponse) => ({
      waiting: [...m.status!.batches.flatMap((b) => b.pullRequests), ...m.status!.waitingPullRequests].map((p) =>
        Number(p.number),
      ),
      changed: m.changed,
    });
    const seen = () => ({
      connect: waitingLists(viaConnect.map(typed)),
      grpc: waitingLists(viaGrpc.map(typed)),
      sse: waitingLists(
        sse.events.map((e) => {
          const m = JSON.parse(e.data);
          return { waiting: queuedIn(m.status), changed: m.changed };
        }),
      ),
    });
    // Each step waits until every watcher shows it, so that coalescing cannot merge two steps.
    const expectSeen = (lists: number[][]) =>
      eventually(async () => expect(seen()).toEqual({ connect: lists, grpc: lists, sse: lists }), 30_000, 100);

    const expected: number[][] = [[]];
    await expectSeen(expected);
    for (const n of prs) {
      await grpcUnary(queue, "enqueuePullRequest", { ...req, prNumber: BigInt(n) }, server.adminKey);
      expected.push([...(expected.at(-1) ?? []), n]);
      await expectSeen(expected);
    }
    const dequeued = await restCall(server, "POST", `/v1/repos/acme/shop/merge-queue/pull/${prs[1]}/dequeue`);
    expect(dequeued.status).toBe(204);
    expected.push([prs[0], prs[2]]);
    await expectSeen(expected);
    expect(viaConnect.map((m) => m.sequence)).toEqual(viaConnect.map((_m, i) => BigInt(i + 1)));

    ac.abort();
    g.cancel();
    sse.close();
    await Promise.all([connectDone, g.done, sse.ended]);
    // The server let go of every watcher once its client went away.
    await eventually(
      async () => expect((await restCall(server, "GET", "/readyz")).json.streams.watchers).toBe(0),
      10_000,
    );
  }, 120_000);
});

describe("a token scoped to acme/alpha", () => {
  let token: string;
  beforeAll(async () => {
    token = await cli("token", "create", "--repo", "acme/alpha", "--description", "alpha only");
  });

  it("watches acme/alpha", async () => {
    const sse = await openSse(`${server.url}/v1/repos/acme/alpha/merge-queue/status:watch`, token);
    expect(sse.status).toBe(200);
    await eventually(async () => expect(sse.events.length).toBeGreaterThan(0), 10_000, 50);
    sse.close();
  });

  it.each([["merge-queue/status:watch"], ["logs:watch"]])(
    "cannot watch acme/shop over server-sent events (%s)",
    async (route) => {
      const sse = await openSse(`${server.url}/v1/repos/acme/shop/${route}`, token);
      expect(sse.status).toBe(403);
      expect(sse.events).toEqual([]);
    },
  );

  it("cannot watch acme/shop over Connect", async () => {
    const req = { owner: "acme", repository: "shop" };
    for (const stream of [
      connectClient(QueueService, server.url, token).watchMergeQueue(req),
      connectClient(ActivityLogService, server.url, token).watchLogs(req),
    ]) {
      const got: unknown[] = [];
      const err = await collect(stream, got);
      expect(got).toEqual([]);
      expect(ConnectError.from(err).code).toBe(Code.PermissionDenied);
    }
  });

  it("cannot watch acme/shop over gRPC", async () => {
    const logs = grpcClient(ActivityLogService, `127.0.0.1:${server.port}`);
    try {
      for (const [client, method] of [
        [queue, "watchMergeQueue"],
        [logs, "watchLogs"],
      ] as const) {
        const got: unknown[] = [];
        const s = await grpcStream(client, method, { owner: "acme", repository: "shop" }, token, got).done;
        expect(got).toEqual([]);
        expect(s.code).toBe(grpc.status.PERMISSION_DENIED);
      }
    } finally {
      logs.close();
    }
  });
});
