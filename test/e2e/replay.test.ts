/**
 * `yardmaster replay` end to end (docs/replay.md): the real server process (real PostgreSQL, the
 * embedded ClickHouse engine, real HTTP) and the real CLI, on two real git histories replayed at
 * the same time into two repositories of one server:
 * - a repository built here: 8 pull requests landed by merge commits (one octopus), one commit
 *   pushed without a pull request, two pull requests broken with --break: every good one merges,
 *   the two leave named as culprits by bisection, the base ends with the history's tree without their files,
 *   every check has its checks_start / checks_end pair, the failed batches were bisected, and
 *   /logs/aggregate counts what /logs lists;
 * - this project's own first 6 changes (a linear history), CI `true`, replayed at the same time on the
 *   same server (the README walkthrough replays 20 alone): all merged, tree equal.
 * High speeds keep it short; the self history runs on the default configuration (docs/replay.md).
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReplayReport } from "../../services/replay/index.js";
import { runCli, type CliResult } from "../support/cli.js";
import { ROOT, startServerProcess, type ServerProcess } from "../support/server-process.js";
import { historyRepo, type HistoryRepo } from "../replay/history-fixture.js";

let server: ServerProcess;
let work: string;
let shop: HistoryRepo;
let shopRun: CliResult;
let selfRun: CliResult;
const BROKEN = [5, 6];

/**
 * Batches of 4: the pull requests come at once and enter in replay order, within a few seconds, so
 * on a machine that keeps up they are batched 1-4 and 5-8, and the broken ones, 5 and 6, are each
 * the first of a failing batch, named by a failing first prefix (CHECKS_FAILED). A slow machine
 * queues them further apart than the batch wait (15 s), so a batch may start short with a broken
 * one last: every prefix passes and bisection eliminates it (DROPPED_BY_BISECTION_ELIMINATION).
 * Either way bisection names exactly the two culprits, which is what is asserted. The wait is
 * short because the pull requests left behind a culprit make a short batch that waits it out from
 * when they entered: at 1 min, that wait was most of the file's time.
 */
const CONFIG = [
  "queue_rules:",
  "  - name: replay",
  "    batch_size: 4",
  '    batch_max_wait_time: "15 s"',
  "    branch_protection_injection_mode: merge",
  "    merge_method: merge",
  "merge_queue:",
  "  max_parallel_checks: 2",
  "",
].join("\n");

/** The shop's history: PR i's head adds changes/pr-i.txt at minute 10i-5 and lands at minute 10i; PRs 7 and 8 land together (octopus); a commit lands directly after PR 4. */
async function buildShop(dir: string): Promise<HistoryRepo> {
  const repo = await historyRepo(dir);
  const root = await repo.commit("Initial commit", { "README.md": "shop\n" }, 0);
  for (let i = 1; i <= 8; i++) {
    repo.switchTo(`pr-${i}`, root);
    await repo.commit(`Add change ${i}`, { [`changes/pr-${i}.txt`]: `${i}\n` }, 10 * i - 5, i % 2 ? "Ada" : "Bob");
    repo.switchTo("main");
    if (i === 7) continue;
    repo.merge(
      i === 8 ? "Merge branches 'pr-7' and 'pr-8'" : `Merge pull request #${i} from acme/pr-${i}`,
      i === 8 ? ["pr-7", "pr-8"] : [`pr-${i}`],
      10 * i,
    );
    if (i === 4) await repo.commit("Fix the README directly on main", { "README.md": "the shop\n" }, 43, "Cy");
  }
  return repo;
}

/** `path mode sha` lines of a tree, without the replay's own files. */
function treeListing(gitDir: string, rev: string): string[] {
  return execFileSync("git", ["--git-dir", gitDir, "ls-tree", "-r", rev], { encoding: "utf8" })
    .split("\n")
    .filter((l) => l !== "" && !/\t\.yardmaster(\.yml|\/)/.test(l));
}

async function api(url: string): Promise<{ json: any; link: string | null }> {
  const res = await fetch(server.url + url, { headers: { authorization: `Bearer ${server.adminKey}` } });
  expect(res.status).toBe(200);
  return { json: await res.json(), link: res.headers.get("link") };
}

/** Every event of a repository of these types, following the Link header's next pages. */
async function allEvents(repo: string, types: string[]): Promise<any[]> {
  const events: any[] = [];
  let url: string | null =
    `/v1/repos/${repo}/logs?per_page=100&received_from=2000-01-01T00:00:00Z&${types.map((t) => `event_type=${t}`).join("&")}`;
  while (url) {
    const page = await api(url);
    events.push(...page.json.events);
    // Link targets are absolute URLs (docs/mergify-cli.md "Pagination"); `api` takes the path.
    const next = /<([^>]+)>; rel="next"/.exec(page.link ?? "")?.[1];
    url = next === undefined ? null : new URL(next).pathname + new URL(next).search;
  }
  return events;
}

const report = (run: CliResult): ReplayReport => JSON.parse(run.stdout);

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-replay-"));
  await writeFile(path.join(work, "queue.yml"), CONFIG);
  // The history is built while the server starts: neither needs the other.
  [shop, server] = await Promise.all([
    buildShop(path.join(work, "shop")),
    startServerProcess({ YARDMASTER_CI_SLOTS: "2" }),
  ]);
  const replay = (args: string[]) => runCli(["replay", "--json", "--timeout", "900", ...args], server.cliEnv, 920_000);
  [shopRun, selfRun] = await Promise.all([
    replay([
      "--from",
      shop.path,
      "--repo",
      "acme/shop",
      "--config",
      path.join(work, "queue.yml"),
      "--speed",
      "1e9",
      "--break",
      BROKEN.join(","),
    ]),
    // The default configuration (batches of 2-4, 3 s wait): nothing here depends on batch positions.
    replay(["--from", ROOT, "--repo", "demo/self", "--limit", "6", "--ci", "true", "--speed", "1e9"]),
  ]);
}, 960_000);
afterAll(async () => {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("replaying a repository with merge commits and two broken pull requests", () => {
  it("merges every good pull request and dequeues the two broken ones as culprits found by bisection", () => {
    expect(shopRun.code, shopRun.stderr + server.output().slice(-3000)).toBe(0);
    const r = report(shopRun);
    expect(r).toMatchObject({
      mode: "merges",
      changes: 8,
      pullRequests: 8,
      broken: BROKEN,
      notQueued: [],
      outsideChanges: { pushed: 1, refused: [] },
    });
    expect(r.merged).toHaveLength(6);
    expect(r.dequeued.map((d) => d.order)).toEqual(BROKEN);
    for (const d of r.dequeued) expect(["CHECKS_FAILED", "DROPPED_BY_BISECTION_ELIMINATION"]).toContain(d.code);
    expect(r.bisections).toBeGreaterThanOrEqual(1);
    expect(r.log.consistent).toBe(true);
  });

  it("ends with the history's tree without the broken pull requests' files", () => {
    const forgeGit = path.join(server.dataDir, "repos", "acme", "shop.git");
    const expected = treeListing(path.join(shop.path, ".git"), "main").filter(
      (l) => !BROKEN.some((b) => l.endsWith(`\tchanges/pr-${b}.txt`)),
    );
    expect(treeListing(forgeGit, "main")).toEqual(expected);
    expect(expected).toHaveLength(7);
  });

  it("logs a checks_start / checks_end pair per check and member, and bisections that found the broken ones", async () => {
    const events = await allEvents("acme/shop", [
      "action.queue.checks_start",
      "action.queue.checks_end",
      "action.queue.batch_bisection_start",
      "action.queue.batch_bisection_end",
    ]);
    const key = (e: any) =>
      `${e.pull_request}/${e.metadata.batch_id}/${e.metadata.speculative_check_pull_request.number}`;
    const count = (type: string) => {
      const m = new Map<string, number>();
      for (const e of events.filter((x) => x.type === type)) m.set(key(e), (m.get(key(e)) ?? 0) + 1);
      return m;
    };
    const starts = count("action.queue.checks_start");
    expect(starts.size).toBeGreaterThan(0);
    expect(count("action.queue.checks_end")).toEqual(starts);
    expect([...starts.values()].every((n) => n === 1)).toBe(true);

    const numbers = report(shopRun).dequeued.map((d) => d.number);
    const bisected = new Set(
      events.filter((e) => e.type === "action.queue.batch_bisection_start").map((e) => e.metadata.batch_id),
    );
    const ends = events.filter((e) => e.type === "action.queue.batch_bisection_end");
    expect(new Set(ends.map((e) => e.metadata.batch_id))).toEqual(bisected);
    // Every culprit a bisection named is a broken pull request.
    expect(ends.flatMap((e) => e.metadata.culprit_pr_numbers).every((n: number) => numbers.includes(n))).toBe(true);
    // Pull request 5 was first in the failing batch 5-8, so a bisection named it.
    expect(ends.some((e) => e.metadata.culprit_pr_numbers.includes(numbers[0]))).toBe(true);
  });

  it("counts in /logs/aggregate what /logs lists, type by type", async () => {
    const events = await allEvents("acme/shop", []);
    const listed: Record<string, number> = {};
    for (const e of events) listed[e.type] = (listed[e.type] ?? 0) + 1;
    const agg = await api("/v1/repos/acme/shop/logs/aggregate?received_from=2000-01-01T00:00:00Z");
    expect(Number(agg.json.total)).toBe(events.length);
    expect(Object.fromEntries(agg.json.by_event_type.map((f: any) => [f.value, Number(f.count)]))).toEqual(listed);
    expect(listed["action.queue.checks_start"]).toBeGreaterThan(0);
  });
});

describe("replaying this project's own first 6 changes, beside the other history", () => {
  it("merges all of them with CI `true`, and ends with the history's tree", () => {
    expect(selfRun.code, selfRun.stderr + server.output().slice(-3000)).toBe(0);
    const r = report(selfRun);
    expect(r).toMatchObject({
      mode: "linear",
      changes: 6,
      pullRequests: 6,
      dequeued: [],
      notQueued: [],
      broken: [],
      tree: { equal: true },
    });
    expect(r.merged).toHaveLength(6);
    expect(r.ciRuns).toBeGreaterThanOrEqual(6 / 4);
  });
});
