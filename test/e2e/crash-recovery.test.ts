/**
 * A crash loses nothing (docs/architecture.md "A forge event, end to end"; docs/merge-queue.md
 * "Runner"; docs/local-forge.md "CI jobs"): the real server process is killed with SIGKILL while a
 * batch's check runs, then started again on the same data directory (the embedded ClickHouse, the git repositories) and
 * the same PostgreSQL database. The queue carries on by itself: the interrupted CI job is claimed
 * again once its lease runs out (`YARDMASTER_CI_LEASE_SECONDS`, 10 s here), and every pull request
 * merges exactly once. The activity log lost no event written before the crash and holds no
 * duplicate: one enter, one merged and one leave per pull request, and every checks_start has
 * exactly one checks_end.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BATCHES_OF_TWO_CONFIG } from "../support/batching-config.js";
import { eventually } from "../support/eventually.js";
import { gitWorkdir, type GitWorkdir } from "../support/git-workdir.js";
import { restCall } from "../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

let first: ServerProcess;
let second: ServerProcess | undefined;
let server: ServerProcess;
let work: string;
let src: GitWorkdir;
const PULLS = [1, 2, 3, 4];
const REPO = { owner: "acme", repository: "crash" };

/** One Connect JSON call (a POST of JSON) to the current server as the admin; returns the answer's JSON. */
async function rpc(method: string, body: unknown): Promise<any> {
  const res = await restCall(server, "POST", `/yardmaster.v1.${method}`, body);
  expect(res.status, `${method}: ${JSON.stringify(res.json)}`).toBe(200);
  return res.json;
}

/** Every event of the repository of one type (a page of 100 is enough here). */
async function events(type: string): Promise<any[]> {
  const res = await restCall(
    server,
    "GET",
    `/v1/repos/acme/crash/logs?per_page=100&received_from=2000-01-01T00:00:00Z&event_type=${type}`,
  );
  expect(res.status).toBe(200);
  return res.json.events;
}

const count = (list: readonly number[]) =>
  Object.fromEntries(PULLS.map((n) => [n, list.filter((x) => x === n).length]));

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-crash-"));
  src = await gitWorkdir(path.join(work, "source"));
  // Each check runs 5 s: long enough for the kill to land while one runs (the test polls every 100 ms).
  await src.commit("Initial commit", {
    ".yardmaster.yml": BATCHES_OF_TWO_CONFIG,
    ".yardmaster/ci.yml": 'checks:\n  - name: test\n    run: "sleep 5"\n',
  });
  for (const n of PULLS) {
    src.git("switch", "--quiet", "-c", `pr-${n}`, "main");
    await src.commit(`Add ${n}`, { [`changes/${n}.txt`]: `${n}\n` });
  }
  src.git("switch", "--quiet", "main");
  // A 10 s CI lease: the restarted process takes over the interrupted job 10 s after its last renewal.
  first = server = await startServerProcess({ YARDMASTER_CI_SLOTS: "2", YARDMASTER_CI_LEASE_SECONDS: "10" });
  await rpc("ForgeService/CreateRepository", { ...REPO, from_path: src.path, at_ref: "main" });
  for (const n of PULLS) {
    await rpc("ForgeService/PushBranch", { ...REPO, from_path: src.path, source_ref: `pr-${n}`, branch: `pr-${n}` });
    const opened = await rpc("ForgeService/OpenPullRequest", {
      ...REPO,
      head: `pr-${n}`,
      base: "main",
      title: `Add ${n}`,
    });
    expect(Number(opened.pull_request.number)).toBe(n);
  }
  // Queued once all are open: the queue's draft pull requests take numbers too.
  for (const n of PULLS)
    await rpc("ForgeService/CommentPullRequest", { ...REPO, number: n, body: "@yardmaster queue" });
  // Kill while a CI job runs: a check run of an open (draft) pull request has started and not concluded.
  await eventually(
    async () => {
      const open = await rpc("ForgeService/ListPullRequests", { ...REPO, state: "open" });
      const running = open.pull_requests
        .flatMap((p: any) => p.checks)
        .filter((c: any) => c.name === "test" && c.started_at && !c.completed_at);
      expect(running.length).toBeGreaterThan(0);
    },
    120_000,
    100,
  );
  const killed = new Promise((resolve) => first.child.once("exit", resolve));
  first.child.kill("SIGKILL");
  await killed;
  second = server = await startServerProcess({
    YARDMASTER_CI_SLOTS: "2",
    YARDMASTER_CI_LEASE_SECONDS: "10",
    YARDMASTER_DATA_DIR: first.dataDir,
    DATABASE_URL: first.db.url,
  });
}, 300_000);

afterAll(async () => {
  // The second process runs on the first one's data directory and database: stop it, then remove them.
  await second?.stop();
  if (first?.child.exitCode === null && first.child.signalCode === null) await first.stop();
  else {
    await first?.db.drop();
    if (first) await rm(first.dataDir, { recursive: true, force: true });
  }
  await rm(work, { recursive: true, force: true });
});

describe("a server killed while a check runs, then started again", () => {
  it("merges every pull request exactly once", async () => {
    // The interrupted CI job is claimed again when its lease (10 s here) has run out.
    await eventually(
      async () => {
        for (const n of PULLS)
          expect((await rpc("ForgeService/GetPullRequest", { ...REPO, number: n })).pull_request.state, `#${n}`).toBe(
            "merged",
          );
      },
      240_000,
      1000,
    );
    const merged = await eventually(async () => {
      const list = await events("action.queue.merged");
      expect(list).toHaveLength(PULLS.length);
      return list;
    }, 60_000);
    expect(count(merged.map((e) => e.pull_request))).toEqual(Object.fromEntries(PULLS.map((n) => [n, 1])));
    expect((await restCall(server, "GET", "/v1/repos/acme/crash/merge-queue/status")).json).toMatchObject({
      batches: [],
      waiting_pull_requests: [],
    });
  });

  it("keeps every event written before the crash, without duplicates", async () => {
    const once = Object.fromEntries(PULLS.map((n) => [n, 1]));
    expect(count((await events("action.queue.enter")).map((e) => e.pull_request))).toEqual(once);
    const leaves = await events("action.queue.leave");
    expect(count(leaves.map((e) => e.pull_request))).toEqual(once);
    expect(leaves.every((e) => e.metadata.merged === true)).toBe(true);
  });

  it("ends every check it started exactly once", async () => {
    const key = (e: any) => `${e.pull_request}/${e.metadata.speculative_check_pull_request?.number}`;
    const starts = (await events("action.queue.checks_start")).map(key).sort();
    const ends = (await events("action.queue.checks_end")).map(key).sort();
    expect(starts.length).toBeGreaterThanOrEqual(PULLS.length);
    expect(new Set(starts).size).toBe(starts.length);
    expect(ends).toEqual(starts);
  });
});
