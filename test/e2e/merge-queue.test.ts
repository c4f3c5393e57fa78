/**
 * The merge queue end to end through the real server process (issue: engine "Done when"): a
 * repository imported into the local forge with a configuration and a CI file; pull requests
 * queued by comment and by API are batched, checked by the local CI and merged; the
 * QueueService reads show it; pause holds the queue; a dequeue through the API removes a pull
 * request; a scheduled freeze made with the CLI holds a checked batch (`frozen`) until deleted;
 * the activity log has the run.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { cliStdout, runCli } from "../support/cli.js";
import { restCall } from "../support/rest-client.js";
import { grpcClient, grpcUnary } from "../support/grpc-client.js";
import { eventually } from "../support/eventually.js";
import { gitWorkdir, type GitWorkdir } from "../support/git-workdir.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

let server: ServerProcess;
let work: string;
let src: GitWorkdir;
const base = "/v1/repos/acme/shop";

const CONFIG = [
  "queue_rules:",
  "  - name: default",
  "    batch_size: 2",
  '    batch_max_wait_time: "2 s"',
  "    branch_protection_injection_mode: merge",
  "merge_queue:",
  "  max_parallel_checks: 2",
  "",
].join("\n");

const cli = (...args: string[]) => cliStdout(server.cliEnv, args);

const api = (method: string, url: string, body?: unknown) => restCall(server, method, url, body);

/** Pushes a branch adding one file and opens a pull request from it; returns its number. */
async function pullRequest(branch: string, file: string, content: string): Promise<number> {
  src.git("switch", "--quiet", "-c", branch, "main");
  await src.commit(`Add ${file}`, { [file]: content });
  src.git("switch", "--quiet", "main");
  await cli("repo", "push", "acme/shop", "--from", src.path, "--ref", branch, "--branch", branch);
  const out = await cli("pr", "open", "acme/shop", "--head", branch, "--base", "main", "--title", `Add ${file}`);
  return Number(/^#(\d+)/.exec(out)![1]);
}

/** `pr show`'s state line of a merged pull request. */
const MERGED = /^state:\s+merged/m;

/** A pull request's state (open, closed, merged) through ForgeService, without a CLI process per poll. */
async function forgeState(n: number): Promise<string> {
  const forge = grpcClient(ForgeService, `127.0.0.1:${server.port}`);
  try {
    return (
      await grpcUnary(
        forge,
        "getPullRequest",
        { owner: "acme", repository: "shop", number: BigInt(n) },
        server.adminKey,
      )
    ).pullRequest.state;
  } finally {
    forge.close();
  }
}

const prState = async (n: number) => (await api("GET", `${base}/merge-queue/pull/${n}`)).status;

/** The file that lets the checks of a tree holding one.txt end (see the CI file below). */
const gate = () => path.join(work, "gate");

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-queue-"));
  src = await gitWorkdir(path.join(work, "shop"));
  await src.commit("Initial commit", {
    "README.md": "shop\n",
    ".yardmaster.yml": CONFIG,
    // A check of a tree holding one.txt waits for the gate file, so the queue can be seen holding it.
    ".yardmaster/ci.yml": `checks:\n  - name: test\n    run: "test ! -e BROKEN && { test ! -e one.txt || until test -e ${gate()}; do sleep 0.1; done; }"\n`,
  });
  server = await startServerProcess({ YARDMASTER_CI_SLOTS: "3" });
  await cli("repo", "add", "acme/shop", "--from", src.path);
});
afterAll(async () => {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("the merge queue through the API", () => {
  it("shows the effective queue configuration read from .yardmaster.yml", async () => {
    // Until the queue has read the file it runs with (and shows) the default configuration.
    await eventually(async () => {
      const res = await api("GET", `${base}/queues/configuration`);
      expect(res.status).toBe(200);
      expect(res.json.configuration).toHaveLength(1);
      expect(res.json.configuration[0]).toMatchObject({
        name: "default",
        config: {
          batch_size: 2,
          batch_max_wait_time: 2,
          merge_method: "",
          queue_branch_prefix: "yardmaster/merge-queue/",
        },
      });
    }, 30_000);
  });

  it("merges pull requests queued by comment and by API, and shows them while they are queued", async () => {
    const one = await pullRequest("one", "one.txt", "1\n");
    const two = await pullRequest("two", "two.txt", "2\n");
    await cli("pr", "comment", "acme/shop", String(one), "@yardmaster queue");
    const queued = await api("GET", `${base}/merge-queue/status`);
    expect(queued.status).toBe(200);
    // The internal EnqueuePullRequest RPC (queued "by API"), over gRPC.
    const queue = grpcClient(QueueService, `127.0.0.1:${server.port}`);
    const entered = await grpcUnary(
      queue,
      "enqueuePullRequest",
      { owner: "acme", repository: "shop", prNumber: BigInt(two), queueRule: "default" },
      server.adminKey,
    );
    queue.close();
    expect(entered.queueRule).toBe("default");
    // Its check waits for the gate: the status shows it queued until the gate opens.
    await eventually(async () => {
      const s = await api("GET", `${base}/merge-queue/status`);
      const shown = [...s.json.batches.flatMap((b: any) => b.pull_requests), ...s.json.waiting_pull_requests].map(
        (p: any) => p.number,
      );
      expect(shown).toContain(one);
    }, 60_000);
    expect(await prState(one)).toBe(200);
    await writeFile(gate(), "");
    await eventually(
      async () => expect([await forgeState(one), await forgeState(two)]).toEqual(["merged", "merged"]),
      120_000,
    );
    expect(await cli("pr", "show", "acme/shop", String(one))).toMatch(MERGED);
    expect(await prState(one)).toBe(404);
    const branches = await api("GET", `${base}/queues/branches`);
    expect(branches.json.base_refs).toEqual(["main"]);
    const logs = await eventually(async () => {
      const l = await api("GET", `${base}/logs?event_type=action.queue.merged&per_page=100`);
      expect(l.json.events.map((e: any) => e.pull_request).sort()).toEqual([one, two].sort());
      return l;
    }, 30_000);
    expect(logs.json.events[0].metadata.merge_commit_sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it("holds the queue while paused, and merges once unpaused", async () => {
    expect((await api("PUT", `${base}/merge-queue/pause`, { reason: "release" })).status).toBe(200);
    const three = await pullRequest("three", "three.txt", "3\n");
    await cli("pr", "comment", "acme/shop", String(three), "@yardmaster queue");
    await eventually(async () => {
      const detail = await api("GET", `${base}/merge-queue/pull/${three}`);
      expect(detail.status).toBe(200);
      expect(detail.json).toMatchObject({
        number: three,
        position: 0,
        queue_rule_name: "default",
        queue_rule: { name: "default" },
      });
    }, 60_000);
    const impact = await api("GET", `${base}/merge-queue/pull/${three}/dequeue-impact`);
    expect(impact.json).toEqual({ interrupted_batches: 0, rechecked_pull_requests: 0, cascaded_pull_requests: 0 });
    expect(await forgeState(three)).toBe("open");
    expect((await api("DELETE", `${base}/merge-queue/pause`)).status).toBe(204);
    await eventually(async () => expect(await forgeState(three)).toBe("merged"), 120_000);
  });

  it("dequeues a pull request through the API with PR_MANUALLY_DEQUEUED", async () => {
    expect((await api("PUT", `${base}/queue/pause`, { reason: "hold" })).status).toBe(200);
    const four = await pullRequest("four", "four.txt", "4\n");
    await cli("pr", "comment", "acme/shop", String(four), "@yardmaster queue");
    await eventually(async () => expect(await prState(four)).toBe(200), 60_000);
    expect((await api("POST", `${base}/merge-queue/pull/${four}/dequeue`)).status).toBe(204);
    expect(await prState(four)).toBe(404);
    expect((await api("POST", `${base}/merge-queue/pull/${four}/dequeue`)).status).toBe(404);
    expect((await api("POST", `${base}/queue/pause/delete`)).status).toBe(204);
    const leave = await eventually(async () => {
      const l = await api("GET", `${base}/logs?event_type=action.queue.leave&pull_request=${four}`);
      expect(l.json.events).toHaveLength(1);
      return l.json.events[0];
    }, 30_000);
    expect(leave.metadata).toMatchObject({ dequeue_code: "PR_MANUALLY_DEQUEUED", merged: false });
    const dequeue = await api("GET", `${base}/logs?event_type=action.dequeue&pull_request=${four}`);
    expect(dequeue.json.events).toHaveLength(1);
  });

  it("checks but does not merge what a scheduled freeze matches (frozen), and merges it once the freeze is deleted", async () => {
    const created = await cli(
      "freeze",
      "create",
      "acme/shop",
      "--reason",
      "release 2.0",
      "--timezone",
      "Europe/Paris",
      "--exclude",
      "label=hotfix",
    );
    const id = /^([0-9a-f-]{36}) {2}active {2}release 2\.0$/m.exec(created)![1]!;
    expect(await cli("freeze", "list", "acme/shop")).toContain(`${id}  active  release 2.0`);
    const five = await pullRequest("five", "five.txt", "5\n");
    await cli("pr", "comment", "acme/shop", String(five), "@yardmaster queue");
    await eventually(async () => {
      const s = await api("GET", `${base}/merge-queue/status`);
      expect(s.json.batches.map((b: any) => [b.status.code, b.pull_requests.map((p: any) => p.number)])).toEqual([
        ["frozen", [five]],
      ]);
    }, 120_000);
    expect(await forgeState(five)).toBe("open");
    expect(await cli("freeze", "delete", "acme/shop", id, "--reason", "shipped")).toBe(
      `scheduled freeze ${id} deleted`,
    );
    await eventually(async () => expect(await forgeState(five)).toBe("merged"), 120_000);
    const logged = await eventually(async () => {
      const l = await api("GET", `${base}/logs?event_type=scheduled_freeze.create&event_type=scheduled_freeze.delete`);
      expect(l.json.events).toHaveLength(2);
      return l.json.events;
    }, 30_000);
    expect(logged.map((e: any) => e.type)).toEqual(["scheduled_freeze.delete", "scheduled_freeze.create"]);
    expect(logged[1].metadata.scheduled_freeze_attributes).toMatchObject({
      reason: "release 2.0",
      timezone: "Europe/Paris",
      end: null,
      exclude_conditions: ["label=hotfix"],
    });
    const leave = await eventually(async () => {
      const l = await api("GET", `${base}/logs?event_type=action.queue.leave&pull_request=${five}`);
      expect(l.json.events).toHaveLength(1);
      return l.json.events[0];
    }, 30_000);
    expect(leave.metadata).toMatchObject({ dequeue_code: "PR_MERGED" });
    expect(leave.metadata.seconds_waiting_for_freeze).toBeGreaterThanOrEqual(0);
  });

  it("refuses a bad freeze with a message naming the field, and an unknown one as not found", async () => {
    const zone = await runCli(
      ["freeze", "create", "acme/shop", "--reason", "x", "--timezone", "Mars/Olympus"],
      server.cliEnv,
    );
    expect(zone.code).toBe(1);
    expect(zone.stderr).toMatch(/timezone.*unknown time zone "Mars\/Olympus".*InvalidArgument/);
    const id = await runCli(["freeze", "delete", "acme/shop", "not-a-uuid"], server.cliEnv);
    expect(id.code).toBe(1);
    expect(id.stderr).toMatch(/^yardmaster: .*\bid\b.*\(InvalidArgument\)$/m);
    const unknown = await runCli(
      ["freeze", "delete", "acme/shop", "00000000-0000-4000-8000-000000000000"],
      server.cliEnv,
    );
    expect(unknown.stderr).toBe(
      "yardmaster: acme/shop has no scheduled freeze 00000000-0000-4000-8000-000000000000 (NotFound)\n",
    );
  });
});
