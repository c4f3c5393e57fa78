/**
 * Mergify's CLI against Yardmaster (docs/mergify-cli.md): the requests its commands build and the
 * structs it decodes the answers with, translated under test/mergify-cli/ from its source, sent
 * to the real server process. One server for the file: a repository whose CI is slow only when a
 * pull request adds SLOW, so that a merged first pull request gives the estimates a CI duration
 * and two slow ones keep both checks slots running while the next waits.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import { cliStdout } from "../support/cli.js";
import { grpcClient, grpcUnary, type GrpcClient } from "../support/grpc-client.js";
import { eventually } from "../support/eventually.js";
import { gitWorkdir, type GitWorkdir } from "../support/git-workdir.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import {
  EventsResponse,
  logsPath,
  logsQuery,
  SimulatorResponse,
  simulatorPath,
  simulatorRequest,
} from "../mergify-cli/config-events.js";
import {
  createPayload,
  deletePayload,
  FreezeList,
  freezeDeletePath,
  freezePath,
  freezesPath,
  PyScheduledFreezeResponse,
  ScheduledFreeze,
  updatePayload,
} from "../mergify-cli/freeze.js";
import { mergifyClient, nextCursorFromLink } from "../mergify-cli/http.js";
import {
  PauseResponse,
  pauseRequest,
  PullView,
  PyQueueStatusResponse,
  StatusView,
  statusPath,
  unpausePath,
} from "../mergify-cli/queue.js";

const REPO = "acme/shop";
let server: ServerProcess;
let work: string;
let src: GitWorkdir;
let client: ReturnType<typeof mergifyClient>;
let slow: number;
let waiting: number;
let forge: GrpcClient;

const CONFIG = [
  "queue_rules:",
  "  - name: default",
  "    batch_size: 1",
  // The CI checks must pass before merging (not before entering: a slow pull request enters at once).
  "    branch_protection_injection_mode: merge",
  "merge_queue:",
  "  max_parallel_checks: 2",
  "",
].join("\n");

const cli = (...args: string[]) => cliStdout(server.cliEnv, args);

/**
 * Pushes a branch adding `files` (the CLI: git), then opens a pull request and queues it by comment
 * through ForgeService over gRPC (no CLI process each); returns its number.
 */
async function queued(branch: string, files: Record<string, string>): Promise<number> {
  src.git("switch", "--quiet", "-c", branch, "main");
  await src.commit(`Add ${branch}`, files);
  src.git("switch", "--quiet", "main");
  await cli("repo", "push", REPO, "--from", src.path, "--ref", branch, "--branch", branch);
  const repo = { owner: "acme", repository: "shop" };
  const opened = await grpcUnary(forge, "openPullRequest", { ...repo, head: branch, base: "main" }, server.adminKey);
  const n = Number(opened.pullRequest.number);
  await grpcUnary(
    forge,
    "commentPullRequest",
    { ...repo, number: BigInt(n), body: "@yardmaster queue" },
    server.adminKey,
  );
  return n;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-mergify-"));
  src = await gitWorkdir(path.join(work, "shop"));
  await src.commit("Initial commit", {
    "README.md": "shop\n",
    ".yardmaster.yml": CONFIG,
    ".yardmaster/ci.yml": 'checks:\n  - name: test\n    run: "test ! -e SLOW || sleep 25"\n',
  });
  server = await startServerProcess({ TRUST_PROXY: "loopback" });
  forge = grpcClient(ForgeService, `127.0.0.1:${server.port}`);
  client = mergifyClient(server.url, server.adminKey);
  await cli("repo", "add", REPO, "--from", src.path);
  // Five merged after a concluded check each: the estimates have a CI duration, and
  // `checks_timeout: auto` a value (docs/merge-queue.md: from 5 durations on).
  const fast: number[] = [];
  for (const i of [1, 2, 3, 4, 5]) fast.push(await queued(`fast-${i}`, { [`fast-${i}.txt`]: "1\n" }));
  await eventually(async () => {
    const merged = await client.get(`/v1/repos/${REPO}/logs`, [["event_type", "action.queue.merged"]]);
    const numbers = EventsResponse.parse(merged.json).events!.map((e) => e.pull_request);
    expect(numbers.sort()).toEqual([...fast].sort());
  }, 120_000);
  slow = await queued("slow", { "SLOW/a": "1\n" });
  await queued("slow-too", { "SLOW/b": "1\n" });
  waiting = await queued("waiting", { "waiting.txt": "1\n" });
}, 240_000);
afterAll(async () => {
  forge?.close();
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("mergify queue status", () => {
  it("decodes the status with the running batch's and the waiting pull request's ETA, future or null", async () => {
    const view = await eventually(async () => {
      const res = await client.get(statusPath(REPO, "main"));
      expect(res.status).toBe(200);
      const v = StatusView.parse(res.json);
      PyQueueStatusResponse.parse(res.json);
      expect(v.batches?.map((b) => b.status.code)).toEqual(["running", "running"]);
      expect(v.waiting_pull_requests?.map((p) => p.number)).toEqual([waiting]);
      return v;
    }, 60_000);
    const readAt = Date.now();
    const running = view.batches![0]!.pull_requests![0]!;
    expect(running.number).toBe(slow);
    // Never "now" for a check past the typical CI duration (about a second here, against 25 s):
    // an estimate is ahead, and past that duration there is none (docs/merge-queue.md "Estimates").
    const eta = running.estimated_merge_at ?? null;
    const waitingEta = view.waiting_pull_requests![0]!.estimated_merge_at ?? null;
    if (eta === null) expect(waitingEta).toBeNull();
    else {
      expect(Date.parse(eta)).toBeGreaterThan(readAt - 5_000);
      expect(Date.parse(waitingEta!)).toBeGreaterThanOrEqual(Date.parse(eta));
    }
    expect(view.pause ?? null).toBeNull();
  });

  it("shows the pause that `queue pause` made, and `queue unpause` lifts it (404 when not paused)", async () => {
    const paused = await client.put(`/v1/repos/${REPO}/merge-queue/pause`, pauseRequest("release 2.0"));
    expect(paused.status).toBe(200);
    expect(PauseResponse.parse(paused.json).reason).toBe("release 2.0");
    // The status shows the pause once the queue has applied it (docs/pause.md: within a second).
    const status = await eventually(async () => {
      const v = StatusView.parse((await client.get(statusPath(REPO))).json);
      expect(v.pause?.reason).toBe("release 2.0");
      return v;
    }, 10_000);
    expect(Date.parse(status.pause!.paused_at!)).toBeGreaterThan(Date.now() - 60_000);
    expect((await client.delete(unpausePath(REPO))).status).toBe(204);
    expect((await client.delete(unpausePath(REPO))).status).toBe(404);
    await eventually(
      async () => expect(StatusView.parse((await client.get(statusPath(REPO))).json).pause ?? null).toBeNull(),
      10_000,
    );
  });
});

describe("GET /queues, the queue listing", () => {
  it("lists the speculative check's checks and evaluated conditions, checks_timeout auto computed, batch_size's ends", async () => {
    const { pulls, running } = await eventually(async () => {
      const res = await client.get(`/v1/repos/${REPO}/queues`);
      expect(res.status).toBe(200);
      const pulls = (res.json as { queues: { pull_requests: Record<string, any>[] }[] }).queues[0]!.pull_requests;
      const running = pulls.find((p) => p.number === slow)!;
      // The local CI reports the check run when it starts (pending), then its conclusion.
      expect(running.speculative_check_pull_request.checks).toEqual([
        expect.objectContaining({ name: "test", state: "pending" }),
      ]);
      return { pulls, running };
    }, 20_000);
    expect(running.speculative_check_pull_request.evaluated_conditions).toContain("  - [ ] `check-success = test`");
    // 1.2 x the 95th percentile of five short CI runs, at least 60 s.
    expect(running.queue_rule.config).toMatchObject({ checks_timeout: 60, batch_size_min: 1, batch_size_max: 1 });
    const queuedOnly = pulls.find((p) => p.number === waiting)!;
    expect(queuedOnly.speculative_check_pull_request).toBeNull();
  });
});

describe("mergify queue show", () => {
  it("decodes a queued pull request with a ci_state the client renders", async () => {
    const res = await client.get(`/v1/repos/${REPO}/merge-queue/pull/${slow}`);
    expect(res.status).toBe(200);
    const view = PullView.parse(res.json);
    expect(view.mergeability_check?.ci_state).toBe("pending");
    expect(view.queue_rule_name).toBe("default");
  });

  it("answers 404 for a pull request not in the queue, the client's not-queued branch", async () => {
    expect((await client.get(`/v1/repos/${REPO}/merge-queue/pull/9999`)).status).toBe(404);
  });
});

describe("mergify config simulate", () => {
  it("takes the configuration as mergify_yml and answers {title, summary}", async () => {
    const rules =
      "pull_request_rules:\n  - name: hello\n    conditions: []\n    actions:\n      comment:\n        message: hi\n";
    const res = await client.post(simulatorPath(REPO, slow), simulatorRequest(rules));
    expect(res.status).toBe(200);
    // The text sent was read: its one rule matches (an empty text would have no rules).
    expect(SimulatorResponse.parse(res.json).title).toBe("1 rule matches");
  });

  it("answers 422 for a text that does not validate (the client's configuration error) and naming both names when both are given", async () => {
    const bad = await client.post(simulatorPath(REPO, slow), simulatorRequest("queue_rules: 3\n"));
    expect(bad.status).toBe(422);
    const both = await client.post(simulatorPath(REPO, slow), { mergify_yml: CONFIG, service_yml: CONFIG });
    expect(both.status).toBe(422);
    const details = (both.json as { details: { type: string; field: string }[] }).details;
    expect(details.filter((d) => d.type === "field_violation").map((d) => d.field)).toEqual([
      "service_yml",
      "mergify_yml",
    ]);
  });
});

describe("mergify freeze", () => {
  it("creates, lists, updates and deletes a freeze in the client's flat shape", async () => {
    const payload = createPayload({
      reason: "release",
      timezone: "Europe/Paris",
      start: "2099-01-01T10:00:00",
      end: "2099-01-02T18:30:00",
      matching: ["base=main"],
      exclude: ["label=hotfix"],
    });
    const created = await client.post(freezesPath(REPO), payload);
    expect(created.status).toBe(200);
    const freeze = ScheduledFreeze.parse(created.json);
    PyScheduledFreezeResponse.parse(created.json);
    expect(freeze).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      reason: "release",
      start: "2099-01-01T10:00:00",
      end: "2099-01-02T18:30:00",
      timezone: "Europe/Paris",
      matching_conditions: ["base=main"],
      exclude_conditions: ["label=hotfix"],
    });
    const id = freeze.id!;

    const listed = FreezeList.parse((await client.get(freezesPath(REPO))).json).scheduled_freezes!;
    expect(listed.map((f) => f.id)).toEqual([id]);

    const renamed = await client.patch(freezePath(REPO, id), updatePayload({ reason: "release 2" }));
    expect(ScheduledFreeze.parse(renamed.json)).toMatchObject({ reason: "release 2", start: "2099-01-01T10:00:00" });
    // A new time zone keeps the wall-clock times; an empty list clears the conditions.
    const moved = await client.patch(
      freezePath(REPO, id),
      updatePayload({ timezone: "America/New_York", matching: [] }),
    );
    expect(ScheduledFreeze.parse(moved.json)).toMatchObject({
      timezone: "America/New_York",
      start: "2099-01-01T10:00:00",
      end: "2099-01-02T18:30:00",
      matching_conditions: [],
      exclude_conditions: ["label=hotfix"],
    });

    expect((await client.post(freezeDeletePath(REPO, id), deletePayload("done"))).status).toBe(204);
    expect(FreezeList.parse((await client.get(freezesPath(REPO))).json).scheduled_freezes).toEqual([]);
    expect((await client.post(freezeDeletePath(REPO, id), deletePayload())).status).toBe(404);
  });

  it("starts a freeze created with start null at once, open-ended with end null", async () => {
    const created = await client.post(
      freezesPath(REPO),
      createPayload({ reason: "incident", timezone: "UTC", matching: ["label=never-set"] }),
    );
    expect(created.status).toBe(200);
    const freeze = PyScheduledFreezeResponse.parse(created.json);
    expect(freeze.end).toBeNull();
    expect(Math.abs(Date.parse(`${freeze.start}Z`) - Date.now())).toBeLessThan(60_000);
    expect((created.json as { active: boolean }).active).toBe(true);
    expect((await client.post(freezeDeletePath(REPO, freeze.id), deletePayload())).status).toBe(204);
  });

  it("names the field of a start that is not a date-time", async () => {
    const res = await client.post(freezesPath(REPO), {
      ...createPayload({ reason: "r", timezone: "UTC" }),
      start: "soon",
    });
    expect(res.status).toBe(422);
    expect((res.json as { details: { field: string }[] }).details[0]!.field).toBe("start");
  });
});

describe("mergify events and queue history", () => {
  const window = () => ({ from: new Date(Date.now() - 86_400_000), to: new Date(Date.now() + 1000) });

  async function twoPages(c: ReturnType<typeof mergifyClient>, origin: string) {
    const query = logsQuery({ ...window(), perPage: 1 });
    const first = await c.get(logsPath(REPO), query);
    expect(first.status).toBe(200);
    const link = first.headers.get("link")!;
    expect(link.startsWith(`<${origin}/v1/repos/${REPO}/logs?`)).toBe(true);
    const cursor = nextCursorFromLink(link);
    expect(cursor).not.toBeNull();
    // client.rs: the same query again, with the cursor appended.
    const second = await c.get(logsPath(REPO), [...query, ["cursor", cursor!]]);
    expect(second.status).toBe(200);
    const [a, b] = [EventsResponse.parse(first.json).events!, EventsResponse.parse(second.json).events!];
    expect([a.length, b.length]).toEqual([1, 1]);
    expect(b[0]!.id).not.toBe(a[0]!.id);
  }

  it("follows the Link header to a second page, its target absolute from the request's Host", async () => {
    await eventually(async () => {
      const res = await client.get(logsPath(REPO), logsQuery({ ...window(), perPage: 100 }));
      expect(EventsResponse.parse(res.json).events!.length).toBeGreaterThan(2);
    }, 30_000);
    await twoPages(client, server.url);
  });

  it("writes the origin a trusted proxy forwards (X-Forwarded-Proto, X-Forwarded-Host)", async () => {
    const proxied = mergifyClient(server.url, server.adminKey, {
      "x-forwarded-proto": "https",
      "x-forwarded-host": "ci.example",
    });
    await twoPages(proxied, "https://ci.example");
  });

  it("answers `queue history`'s query: the queue event types over 90 days", async () => {
    const types = [
      "action.queue.enter",
      "action.queue.checks_start",
      "action.queue.checks_end",
      "action.queue.checks_not_started",
      "action.queue.conflict_deferred",
      "action.queue.batch_bisection_start",
      "action.queue.batch_bisection_end",
      "action.queue.leave",
      "action.queue.merged",
      "action.dequeue",
      "command.queue",
      "command.dequeue",
    ];
    const now = Date.now();
    const res = await client.get(
      logsPath(REPO),
      logsQuery({
        pullRequest: slow,
        eventTypes: types,
        from: new Date(now - 90 * 86_400_000),
        to: new Date(now),
        perPage: 100,
      }),
    );
    expect(res.status).toBe(200);
    expect(EventsResponse.parse(res.json).events!.map((e) => e.type)).toContain("action.queue.enter");
  });
});
