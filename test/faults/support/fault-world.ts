/**
 * A repository of the local forge in a real server process that a fault test kills and starts
 * again on the same data directory and database (docs/reliability.md): pull requests that each add
 * one file, queued by comment, a CI that always passes, and the checks every scenario ends with:
 * every pull request merged exactly once (one merge commit each on the base's first-parent
 * history, one `action.queue.merged` each in the log, a merge commit on the base that holds its
 * change), and the base's tree the union of the changes.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect } from "vitest";
import { eventually } from "../../support/eventually.js";
import { gitWorkdir } from "../../support/git-workdir.js";
import { restCall } from "../../support/rest-client.js";
import { startServerProcess, type ServerProcess } from "../../support/server-process.js";

const REPO = { owner: "acme", repository: "faults" };

/** The queue's configuration: batches of 3, a short wait, two checks at once. */
const CONFIG = [
  "queue_rules:",
  "  - name: default",
  "    batch_size: 3",
  '    batch_max_wait_time: "1 s"',
  "    branch_protection_injection_mode: merge",
  "merge_queue:",
  "  max_parallel_checks: 2",
  "",
].join("\n");

/** Environment of every server process: a 4 s CI lease, so the jobs of a killed process run again soon. */
const BASE_ENV = { YARDMASTER_CI_SLOTS: "2", YARDMASTER_CI_LEASE_SECONDS: "4" };

/** One scenario's world: the servers started so far (the last one current), the pull request numbers. */
export interface FaultWorld {
  server: ServerProcess;
  pulls: number[];
  /** Starts a server on the same data directory and database (the current one must be dead). */
  restart(env?: NodeJS.ProcessEnv): Promise<ServerProcess>;
  /** Kills the current server with SIGKILL (a crash) and waits until it is gone. */
  kill(): Promise<void>;
  /** Resolves once the current server died by SIGKILL (its failpoint), with its output. */
  died(timeoutMs?: number): Promise<string>;
  /** The subjects of the base's first-parent history since the initial commit, oldest first. */
  firstParents(): string[];
  git(...args: string[]): string;
  /** Every event of one type in the activity log. */
  events(type: string): Promise<any[]>;
  /** Stops whatever still runs and removes the data directory and the database. */
  cleanup(): Promise<void>;
}

/** What a scenario's repository holds besides its pull requests (defaults: the queue's). */
export interface FaultWorldOptions {
  /** The `.yardmaster.yml` on main (default: the queue configuration above). */
  config?: string;
  /** Whether each pull request is queued by a `@yardmaster queue` comment (default true). */
  queue?: boolean;
  /** More branches made at the initial commit (a backport's targets). */
  branches?: string[];
  /** The local CI's `.yardmaster/ci.yml` (default: one check `test` running `check`). */
  ci?: string;
  /** More files of the initial commit (a CI script). */
  files?: Record<string, string>;
}

/**
 * Starts a server with `env` (failpoints), creates the repository with `count` pull requests and
 * queues them all by comment. `check` is the local CI's command (default `true`: checks pass at once).
 */
export async function faultWorld(
  count: number,
  env: NodeJS.ProcessEnv = {},
  check = "true",
  options: FaultWorldOptions = {},
): Promise<FaultWorld> {
  const work = await mkdtemp(path.join(os.tmpdir(), "ym-faults-"));
  const src = await gitWorkdir(path.join(work, "source"));
  const ci = options.ci ?? `checks:\n  - name: test\n    run: "${check}"\n`;
  await src.commit("Initial commit", {
    ".yardmaster.yml": options.config ?? CONFIG,
    ".yardmaster/ci.yml": ci,
    ...options.files,
  });
  for (const branch of options.branches ?? []) src.git("branch", branch, "main");
  const pulls = Array.from({ length: count }, (_, i) => i + 1);
  for (const n of pulls) {
    src.git("switch", "--quiet", "-c", `pr-${n}`, "main");
    await src.commit(`Add ${n}`, { [`changes/${n}.txt`]: `${n}\n` });
  }
  src.git("switch", "--quiet", "main");
  const first = await startServerProcess({ ...BASE_ENV, ...env });
  const servers: ServerProcess[] = [first];
  const bare = path.join(first.dataDir, "repos", "acme", "faults.git");
  const git = (...args: string[]) => execFileSync("git", ["--git-dir", bare, ...args], { encoding: "utf8" }).trim();
  const world: FaultWorld = {
    server: first,
    pulls,
    async restart(extra = {}) {
      const same = { YARDMASTER_DATA_DIR: first.dataDir, DATABASE_URL: first.db.url };
      world.server = await startServerProcess({ ...BASE_ENV, ...same, ...extra });
      servers.push(world.server);
      return world.server;
    },
    async kill() {
      const child = world.server.child;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGKILL");
      await gone;
    },
    async died(timeoutMs = 120_000) {
      const child = world.server.child;
      const output = () => world.server.output().slice(-3000);
      await eventually(async () => expect(child.signalCode, output()).toBe("SIGKILL"), timeoutMs, 50);
      return world.server.output();
    },
    firstParents: () => git("log", "--first-parent", "--reverse", "--format=%s", "main").split("\n").slice(1),
    git,
    async events(type) {
      const query = `per_page=100&received_from=2000-01-01T00:00:00Z&event_type=${type}`;
      const res = await restCall(world.server, "GET", `/v1/repos/acme/faults/logs?${query}`);
      expect(res.status).toBe(200);
      return res.json.events;
    },
    async cleanup() {
      for (const s of servers.reverse()) {
        if (s.child.exitCode === null && s.child.signalCode === null) {
          const gone = new Promise((resolve) => s.child.once("exit", resolve));
          s.child.kill("SIGKILL");
          await gone;
        }
        // Servers after the first ran on the first one's data directory and database; their own
        // fresh database is unused.
        if (s !== first) await s.db.drop();
      }
      await first.db.drop();
      await rm(first.dataDir, { recursive: true, force: true });
      await rm(work, { recursive: true, force: true });
    },
  };
  await rpc(world, "ForgeService/CreateRepository", { ...REPO, from_path: src.path, at_ref: "main" });
  for (const branch of options.branches ?? []) {
    await rpc(world, "ForgeService/PushBranch", { ...REPO, from_path: src.path, source_ref: branch, branch });
  }
  for (const n of pulls) {
    const push = { ...REPO, from_path: src.path, source_ref: `pr-${n}`, branch: `pr-${n}` };
    await rpc(world, "ForgeService/PushBranch", push);
    const open = { ...REPO, head: `pr-${n}`, base: "main", title: `Add ${n}` };
    const opened = await rpc(world, "ForgeService/OpenPullRequest", open);
    expect(Number(opened.pull_request.number)).toBe(n);
  }
  if (options.queue === false) return world;
  for (const n of pulls) {
    await rpc(world, "ForgeService/CommentPullRequest", { ...REPO, number: n, body: "@yardmaster queue" });
  }
  return world;
}

/** One Connect JSON call to the current server as the admin. */
export async function rpc(world: Pick<FaultWorld, "server">, method: string, body: unknown): Promise<any> {
  const res = await restCall(world.server, "POST", `/yardmaster.v1.${method}`, body);
  expect(res.status, `${method}: ${JSON.stringify(res.json)}`).toBe(200);
  return res.json;
}

/** How often each pull request appears in `list`. */
export function countPer(pulls: readonly number[], list: readonly number[]): Record<number, number> {
  return Object.fromEntries(pulls.map((n) => [n, list.filter((x) => x === n).length]));
}

/**
 * Waits until every pull request is merged, then asserts exactly once: one `Merge pull request #n`
 * on the base's first-parent history each, one `action.queue.merged` each, each merge commit on the
 * base and holding its change, and the base's tree the union of the changes.
 */
export async function expectMergedExactlyOnce(world: FaultWorld, timeoutMs = 120_000): Promise<void> {
  const { pulls } = world;
  const once = Object.fromEntries(pulls.map((n) => [n, 1]));
  await eventually(
    async () => {
      for (const n of pulls) {
        const pull = (await rpc(world, "ForgeService/GetPullRequest", { ...REPO, number: n })).pull_request;
        expect(pull.state, `#${n}`).toBe("merged");
      }
    },
    timeoutMs,
    500,
  );
  const subjects = world.firstParents();
  const merges = subjects
    .map((s) => /^Merge pull request #(\d+)/.exec(s))
    .filter((m) => m !== null)
    .map((m) => Number(m![1]));
  expect(countPer(pulls, merges), subjects.join("\n")).toEqual(once);
  expect(merges.length, subjects.join("\n")).toBe(subjects.length);
  for (const n of pulls) {
    const sha = (await rpc(world, "ForgeService/GetPullRequest", { ...REPO, number: n })).pull_request.merge_commit_sha;
    world.git("merge-base", "--is-ancestor", sha, "main");
    expect(world.git("show", `${sha}:changes/${n}.txt`), `#${n} at ${sha}`).toBe(String(n));
  }
  const files = world
    .git("ls-tree", "-r", "--name-only", "main")
    .split("\n")
    .filter((f) => f.startsWith("changes/"))
    .sort();
  expect(files).toEqual(pulls.map((n) => `changes/${n}.txt`).sort());
  const merged = await eventually(async () => {
    const list = await world.events("action.queue.merged");
    expect(list.length).toBeGreaterThanOrEqual(pulls.length);
    return list;
  }, 60_000);
  expect(
    countPer(
      pulls,
      merged.map((e) => e.pull_request),
    ),
  ).toEqual(once);
}
