/**
 * Job retry rules on the local CI (docs/ci-insights.md "Job retries"), on the real server process
 * with one CI slot (jobs run one after the other, oldest first): a failed check matching a rule is
 * run again, at most `max_retry` times per commit; once the day's quota is spent the decision is
 * logged `skipped_quota_exceeded` and the check is not re-run; a pipeline-mode rule re-runs every
 * check of the commit; a log pattern that backtracks is stopped by its time limit in a worker
 * thread and the check is left as it ended. Each check appends the commit's phase to a file
 * outside the work tree, so the test counts the runs. That a job is over is known by a marker
 * job queued after it: with one slot, the marker runs only once the job before it has finished.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mergifyClient } from "../mergify-cli/http.js";
import { cliStdout } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { gitWorkdir, type GitWorkdir } from "../support/git-workdir.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

const REPO = "acme/retry";
const base = "/v1/ci/acme/repositories/retry";
let server: ServerProcess;
let work: string;
let src: GitWorkdir;
let client: ReturnType<typeof mergifyClient>;
const cli = (...args: string[]) => cliStdout(server.cliEnv, args);

/**
 * `unit` fails with a line that makes `^(a+)+$` backtrack for hours, then a network error; `lint`
 * passes.
 */
const ciFile = (dir: string) =>
  [
    "checks:",
    "  - name: unit",
    "    run: |",
    `      echo "$(cat phase.txt)" >> ${dir}/unit.runs`,
    `      echo '${"a".repeat(40)}!'`,
    "      echo 'connect ECONNRESET 10.0.0.1:443'",
    "      exit 1",
    "  - name: lint",
    "    run: |",
    `      echo "$(cat phase.txt)" >> ${dir}/lint.runs`,
    "",
  ].join("\n");

/** How many times `check` ran in `phase`. */
async function runs(check: "unit" | "lint" | "mark", phase: string): Promise<number> {
  const text = await readFile(path.join(work, `${check}.runs`), "utf8").catch(() => "");
  return text.split("\n").filter((l) => l === phase).length;
}

/** Commits `phase` on main, pushes it, runs the local CI there and waits until that job is over. */
async function runPhase(phase: string): Promise<void> {
  await src.commit(phase, { "phase.txt": `${phase}\n` });
  await cli("repo", "push", REPO, "--from", src.path, "--ref", "main", "--branch", "main");
  await cli("ci", "run", REPO, "main");
  const marks = await runs("mark", "mark");
  await cli("ci", "run", REPO, "marker");
  await eventually(async () => expect(await runs("mark", "mark")).toBe(marks + 1), 120_000);
}

type Retried = { retry_attempt: number; outcome: string; rule_name: string; retry_mode: string };
/** The ci_insights.job_retried events as [rule, mode, attempt, outcome], sorted. */
async function retried(): Promise<[string, string, number, string][]> {
  const logs = await client.get(`/v1/repos/${REPO}/logs`, [["event_type", "ci_insights.job_retried"]]);
  const events = (logs.json as { events: { metadata: Retried }[] }).events.map((e) => e.metadata);
  return events
    .map((e): [string, string, number, string] => [e.rule_name, e.retry_mode, e.retry_attempt, e.outcome])
    .sort((a, b) => a.join().localeCompare(b.join()));
}

async function rule(body: Record<string, unknown>): Promise<string> {
  const res = await client.post(`${base}/retry-rules`, body);
  expect(res.status).toBe(201);
  return (res.json as { id: string }).id;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-ci-retries-"));
  src = await gitWorkdir(path.join(work, "app"));
  await src.commit("Initial commit", { "phase.txt": "initial\n", ".yardmaster/ci.yml": ciFile(work) });
  server = await startServerProcess({ YARDMASTER_CI_SLOTS: "1" });
  client = mergifyClient(server.url, server.adminKey);
  await cli("repo", "add", REPO, "--from", src.path);
  await cli("product", "enable", REPO, "ci_insights");
  src.git("switch", "--quiet", "-c", "marker");
  await src.commit("Marker", {
    ".yardmaster/ci.yml": `checks:\n  - name: mark\n    run: echo mark >> ${work}/mark.runs\n`,
  });
  await cli("repo", "push", REPO, "--from", src.path, "--ref", "marker", "--branch", "marker");
  src.git("switch", "--quiet", "main");
}, 180_000);
afterAll(async () => {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("job retry rules on the local CI", () => {
  let network: string;
  it("re-runs a failed check matching a rule, at most max_retry times per commit", async () => {
    network = await rule({
      name: "network",
      job_names: ["un*"],
      log_pattern: "ECONNRESET",
      max_retry: 2,
      retry_mode: "job",
    });
    await runPhase("job");
    expect(await runs("unit", "job")).toBe(3);
    expect(await runs("lint", "job")).toBe(1);
    const events = await eventually(async () => {
      const e = await retried();
      expect(e).toHaveLength(2);
      return e;
    }, 30_000);
    expect(events).toEqual([
      ["network", "job", 1, "retried"],
      ["network", "job", 2, "retried"],
    ]);
  }, 240_000);

  it("logs skipped_quota_exceeded and does not re-run once the day's quota is spent", async () => {
    expect((await client.put(`${base}/retry-quota`, { daily_quota: 3 })).status).toBe(200);
    await runPhase("quota");
    expect(await runs("unit", "quota")).toBe(2);
    const events = await eventually(async () => {
      const e = await retried();
      expect(e).toHaveLength(4);
      return e;
    }, 30_000);
    expect(events).toEqual([
      ["network", "job", 0, "skipped_quota_exceeded"],
      ["network", "job", 1, "retried"],
      ["network", "job", 1, "retried"],
      ["network", "job", 2, "retried"],
    ]);
    const listed = (await client.get(`${base}/retry-rules`)).json as { daily_quota: number; retries_today: number };
    expect(listed).toMatchObject({ daily_quota: 3, retries_today: 3 });
  }, 240_000);

  it("re-runs every check of the commit in pipeline mode", async () => {
    expect((await client.delete(`${base}/retry-rules/${network}`)).status).toBe(204);
    expect((await client.put(`${base}/retry-quota`, { daily_quota: 50 })).status).toBe(200);
    await rule({ name: "whole", job_names: ["unit"], max_retry: 1, retry_mode: "pipeline" });
    await runPhase("pipeline");
    expect(await runs("unit", "pipeline")).toBe(2);
    expect(await runs("lint", "pipeline")).toBe(2);
    const events = await eventually(async () => {
      const e = await retried();
      expect(e).toHaveLength(5);
      return e;
    }, 30_000);
    expect(events.filter(([name]) => name === "whole")).toEqual([["whole", "pipeline", 1, "retried"]]);
  }, 240_000);

  // The pattern would match the network error, but only after trying 2^40 ways to split the line before it.
  it("stops a backtracking log pattern at its time limit and leaves the check failed, not retried", async () => {
    const list = (await client.get(`${base}/retry-rules`)).json as { rules: { id: string }[] };
    for (const r of list.rules) await client.delete(`${base}/retry-rules/${r.id}`);
    await rule({
      name: "slow",
      job_names: ["unit"],
      log_pattern: "^(a+)+$|ECONNRESET",
      max_retry: 3,
      retry_mode: "job",
    });
    await runPhase("backtrack");
    expect(await runs("unit", "backtrack")).toBe(1);
    expect(await retried()).toHaveLength(5);
    expect((await fetch(new URL("/healthz", server.url))).status).toBe(200);
  }, 240_000);
});
