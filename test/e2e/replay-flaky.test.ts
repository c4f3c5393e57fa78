/**
 * `yardmaster replay --flaky` end to end (docs/replay.md "Flaky tests"): the real server process
 * (PostgreSQL, ClickHouse, the local CI, CI Insights) and the real CLI, on a real git history of 6
 * pull requests, with half the CI runs failing spuriously on two named flaky tests: one known
 * flaky (the replay teaches CI Insights), one quarantined. One check runs at a time, so the runs'
 * order is the checks' order: run 2 fails on the known flaky test and its retry (run 3) passes;
 * run 4 fails on the quarantined test and passes as it is. Whatever the batches, every good pull
 * request merges, nothing is bisected, and the report shows the retries and ignored failures the
 * log holds.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReplayReport } from "../../services/replay/index.js";
import { historyRepo } from "../replay/history-fixture.js";
import { runCli, type CliResult } from "../support/cli.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

let server: ServerProcess;
let work: string;
let run: CliResult;

/** Batches of up to 2, one check at a time (the CI's run counter then follows the checks). */
const CONFIG = [
  "queue_rules:",
  "  - name: replay",
  "    batch_size: 2",
  '    batch_max_wait_time: "10 s"',
  "    branch_protection_injection_mode: merge",
  "    merge_method: merge",
  "merge_queue:",
  "  max_parallel_checks: 1",
  "",
].join("\n");

async function logs(type: string): Promise<any[]> {
  const url = `${server.url}/v1/repos/acme/flaky/logs?per_page=100&received_from=2000-01-01T00:00:00Z&event_type=${type}`;
  const res = await fetch(url, { headers: { authorization: `Bearer ${server.adminKey}` } });
  expect(res.status).toBe(200);
  return ((await res.json()) as { events: any[] }).events;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-replay-flaky-"));
  const repo = await historyRepo(path.join(work, "shop"));
  const root = await repo.commit("Initial commit", { "README.md": "shop\n" }, 0);
  for (let i = 1; i <= 6; i++) {
    repo.switchTo(`pr-${i}`, root);
    await repo.commit(`Add change ${i}`, { [`changes/pr-${i}.txt`]: `${i}\n` }, 10 * i - 5);
    repo.switchTo("main");
    repo.merge(`Merge pull request #${i} from acme/pr-${i}`, [`pr-${i}`], 10 * i);
  }
  await writeFile(path.join(work, "queue.yml"), CONFIG);
  server = await startServerProcess({ YARDMASTER_CI_SLOTS: "1" });
  const args = ["replay", "--json", "--timeout", "600", "--from", repo.path, "--repo", "acme/flaky"];
  const flaky = ["--flaky", "0.5", "--flaky-tests", "net.timeout", "--quarantined-tests", "clock.drift"];
  const options = ["--config", path.join(work, "queue.yml"), "--speed", "1e9"];
  run = await runCli([...args, ...flaky, ...options], { ...server.cliEnv, TMPDIR: work }, 620_000);
}, 660_000);
afterAll(async () => {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("a history replayed with flaky tests", () => {
  it("merges every pull request: known flaky failures retried, quarantined ones ignored, none bisected", () => {
    expect(run.code, run.stderr + server.output().slice(-3000)).toBe(0);
    const r = JSON.parse(run.stdout) as ReplayReport;
    expect(r.merged).toHaveLength(6);
    expect(r.dequeued).toEqual([]);
    expect(r.bisections).toBe(0);
    expect(r.tree.equal).toBe(true);
    expect(r.flaky).toMatchObject({
      rate: 0.5,
      known: ["net.timeout"],
      quarantined: ["clock.drift"],
      goodSentBack: [],
    });
    expect(r.flaky!.retries).toBeGreaterThanOrEqual(1);
    expect(r.flaky!.ignoredFailures.length).toBeGreaterThanOrEqual(1);
    for (const i of r.flaky!.ignoredFailures) expect(i.tests).toEqual(["clock.drift"]);
    expect(r.log.consistent).toBe(true);
  });

  it("logs each retry by the known flaky tests rule and each ignored failure, as the report counts them", async () => {
    const r = JSON.parse(run.stdout) as ReplayReport;
    const retried = await logs("ci_insights.job_retried");
    expect(retried).toHaveLength(r.flaky!.retries);
    for (const e of retried) {
      expect(e.metadata).toMatchObject({ rule_name: "known flaky tests", outcome: "retried" });
      expect(e.metadata.condition_matches[0].failing_tests).toEqual(["net.timeout"]);
    }
    const ignored = (await logs("action.queue.checks_end")).filter((e) => e.metadata.ignored_failing_tests);
    expect(ignored.length).toBeGreaterThanOrEqual(r.flaky!.ignoredFailures.length);
    expect(run.stdout).not.toContain("DISAGREES");
  });

  it("documents the options in the command's help", async () => {
    const text = await runCli(["replay", "--help"], server.cliEnv);
    expect(text.stdout).toContain("--flaky <rate>");
    expect(text.stdout).toContain("--quarantined-tests <names>");
  });
});
