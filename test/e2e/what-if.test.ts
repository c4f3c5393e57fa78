/**
 * What-if on recorded traffic end to end (docs/what-if.md): the real
 * server process and CLI. A history of 12 pull requests landed by merge commits is replayed
 * (`yardmaster replay`) with a CI of known duration (`sleep 8`) and the last pull request broken on
 * purpose (`--break`); then `yardmaster whatif` replays the recorded traffic under the configuration that ran
 * and under a candidate with larger batches. Asserted:
 * - calibration: for the configuration that ran, the predicted p95 time in queue and CI runs per
 *   merge are within 15% of what the replay observed (its own report, from the log);
 * - the candidate's fewer CI runs per merge come out;
 * - the REST route answers the same figures; a window with too little traffic is refused naming
 *   the figure.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ReplayReport } from "../../services/replay/index.js";
import { historyRepo } from "../replay/history-fixture.js";
import { runCli, type CliResult } from "../support/cli.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";

const PULLS = 12;
const BROKEN = [12];
/**
 * Batches of a fixed size checked one at a time, so that which pull requests share a batch, and
 * which checks run, depend on the arrival order rather than on how fast the machine runs the
 * queue's rounds (the replay's batches and the what-if's then fall the same way); a partial batch
 * waits at most `wait`. With the last pull request broken, batches of 2 spend 7 runs on 11 merges
 * and batches of 6 about 4.
 */
const rule = (size: number, wait: string) =>
  [
    "queue_rules:",
    "  - name: replay",
    `    batch_size: ${size}`,
    `    batch_max_wait_time: "${wait}"`,
    "    branch_protection_injection_mode: merge",
    "    merge_method: merge",
    "merge_queue:",
    "  max_parallel_checks: 1",
    "",
  ].join("\n");
const RAN = rule(2, "10 s");
const CANDIDATE = rule(6, "20 s");

let server: ServerProcess;
let work: string;
let replayed: ReplayReport;
let whatIf: CliResult;
let text: CliResult;

/** 12 pull requests, PR i's head at minute 10i-5, each landed by a merge commit at minute 10i. */
async function buildHistory(dir: string): Promise<string> {
  const repo = await historyRepo(dir);
  const root = await repo.commit("Initial commit", { "README.md": "what-if\n" }, 0);
  for (let i = 1; i <= PULLS; i++) {
    repo.switchTo(`pr-${i}`, root);
    await repo.commit(`Add change ${i}`, { [`changes/pr-${i}.txt`]: `${i}\n` }, 10 * i - 5);
    repo.switchTo("main");
    repo.merge(`Merge pull request #${i} from acme/pr-${i}`, [`pr-${i}`], 10 * i);
  }
  return dir;
}

const within = (predicted: number, observed: number, share: number) =>
  Math.abs(predicted - observed) <= share * observed;

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-whatif-"));
  await writeFile(path.join(work, "ran.yml"), RAN);
  await writeFile(path.join(work, "candidate.yml"), CANDIDATE);
  // The history is built while the server starts: neither needs the other.
  let from: string;
  [from, server] = await Promise.all([
    buildHistory(path.join(work, "history")),
    startServerProcess({ YARDMASTER_CI_SLOTS: "4" }),
  ]);
  const cli = (args: string[]) => runCli(args, server.cliEnv, 300_000);
  const since = new Date().toISOString();
  const run = await cli([
    ...["replay", "--json", "--from", from, "--repo", "acme/traffic", "--config", path.join(work, "ran.yml")],
    ...["--ci", "sleep 8", "--speed", "600", "--break", BROKEN.join(",")],
  ]);
  if (run.code !== 0) throw new Error(`replay failed: ${run.stderr}\n${server.output().slice(-3000)}`);
  replayed = JSON.parse(run.stdout);
  const base = ["whatif", "--repo", "acme/traffic", "--since", since, "--config", path.join(work, "candidate.yml")];
  [whatIf, text] = await Promise.all([cli([...base, "--json"]), cli(base)]);
}, 300_000);
afterAll(async () => {
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("yardmaster whatif on a replayed repository", () => {
  it("predicts, for the configuration that ran, p95 time in queue and runs per merge within 15%", () => {
    expect(whatIf.code, whatIf.stderr).toBe(0);
    const res = JSON.parse(whatIf.stdout);
    const observed = { p95: replayed.timeInQueue!.p95Seconds, runs: replayed.ciRunsPerMerge! };
    const current = { p95: res.current.time_in_queue_p95_seconds, runs: res.current.ci_runs_per_merge };
    console.log(
      JSON.stringify({ observed, current, candidate: res.candidate, traffic: res.traffic, log: res.observed }),
    );
    expect(res.traffic).toMatchObject({ pull_requests: String(PULLS), failed_alone: String(BROKEN.length) });
    expect(Number(res.current.merges)).toBe(replayed.merged.length);
    expect(within(current.p95, observed.p95, 0.15), JSON.stringify({ observed, current })).toBe(true);
    expect(within(current.runs, observed.runs, 0.15), JSON.stringify({ observed, current })).toBe(true);
  });

  it("shows the candidate's larger batches spending fewer CI runs per merge", () => {
    const res = JSON.parse(whatIf.stdout);
    expect(Number(res.candidate.merges)).toBe(PULLS - BROKEN.length);
    expect(res.candidate.ci_runs_per_merge).toBeLessThan(res.current.ci_runs_per_merge);
    expect(text.code, text.stderr).toBe(0);
    expect(text.stdout).toMatch(/CI runs per merge\s+[\d.]+\s+[\d.]+\s+[\d.]+/);
  });

  it("says what it assumed of the tests: blind to them, CI Insights being off for the repository", () => {
    const res = JSON.parse(whatIf.stdout);
    // Proto JSON leaves out fields at their default: false, 0.
    expect(res.traffic.tests.note).toMatch(/^blind to tests/);
    expect(res.traffic.tests.test_aware).toBeUndefined();
    expect(res.traffic.retries).toBeUndefined();
    expect(res.traffic.ignored_failures).toBeUndefined();
    expect(text.stdout).toContain("Assumed: blind to tests (CI Insights is off for the repository)");
    expect(text.stdout).toMatch(/retries \(known flaky\)\s+0\s+0\s+0/);
  });

  it("answers the same over REST, and refuses a window with too little traffic naming the figure", async () => {
    const post = (since: string, until?: string) =>
      fetch(`${server.url}/v1/repos/acme/traffic/traffic-simulator`, {
        method: "POST",
        headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
        body: JSON.stringify({ since, until, service_yml: CANDIDATE }),
      });
    const res = await post(JSON.parse(whatIf.stdout).traffic.since);
    expect(res.status).toBe(200);
    const rest: any = await res.json();
    const cli = JSON.parse(whatIf.stdout).candidate;
    // REST JSON writes 64-bit integers as numbers (docs/rest-json.md), the CLI's JSON as strings.
    expect(Number(rest.candidate.merges)).toBe(Number(cli.merges));
    expect(rest.candidate.ci_runs_per_merge).toBe(cli.ci_runs_per_merge);
    expect(rest.candidate.time_in_queue_p95_seconds).toBe(cli.time_in_queue_p95_seconds);
    const empty = await post("2020-01-01T00:00:00Z", "2020-01-02T00:00:00Z");
    expect(empty.status).toBe(422);
    const refusal: any = await empty.json();
    expect(refusal.code).toBe("failed_precondition");
    expect(refusal.message).toMatch(/0 pull requests entered the queue.*at least 10/);
  });
});
