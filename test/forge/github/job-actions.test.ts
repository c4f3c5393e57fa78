/**
 * The GitHub Actions calls of CI Insights' job retries (services/forge/github/job-logs.ts,
 * job-reruns.ts, job-retries.ts) against the GitHub double, which checks every request and answer
 * against GitHub's OpenAPI description: a job's log read through its signed URL, its end kept and
 * its size bounded; a completed run's failed jobs decided in order until one is retried, that job
 * (or the whole run) re-run, the log downloaded only when asked; a refused re-run logged, not thrown.
 */
import { beforeEach, describe, expect, it } from "vitest";
import { createGithubAppClient, type GithubOctokit } from "../../../services/forge/github/client.js";
import { readJobLogTail } from "../../../services/forge/github/job-logs.js";
import {
  githubJobRetries,
  type GithubFinishedJob,
  type GithubJobRetryHook,
} from "../../../services/forge/github/job-retries.js";
import type { DoubleRepo } from "./support/double-state.js";
import type { DoubleRunJob, DoubleWorkflowRun } from "./support/double-workflow-runs.js";
import { useGithubDouble, type GithubDouble } from "./support/github-double.js";
import { freshRepoName } from "./support/scenarios.js";

let double: GithubDouble;
useGithubDouble((d) => (double = d));

const client = () =>
  createGithubAppClient({
    appId: double.appId,
    privateKey: double.privateKey,
    fetch: double.fetch,
    secondMs: 0,
    spaceWrites: false,
    now: () => double.clock.getTime(),
  });

let repo: DoubleRepo;
let gh: GithubOctokit;
const reruns: string[][] = [];

const job = (name: string, conclusion: string, log = `${name}: ${conclusion}\n`): DoubleRunJob => ({
  id: double.id(),
  name,
  status: "completed",
  conclusion,
  startedAt: double.now(),
  completedAt: double.now(),
  log,
});

/** A completed run of the workflow `CI` at main's tip with `jobs` as its first attempt. */
function run(jobs: DoubleRunJob[]): DoubleWorkflowRun {
  const r = {
    id: double.id(),
    name: "CI",
    headSha: "a".repeat(40),
    headBranch: "main",
    event: "push",
    attempts: [jobs],
  };
  repo.workflowRuns.push(r);
  return r;
}

/** A retry hook deciding with `decide`, for a repository that wants retries. */
const hook = (decide: GithubJobRetryHook["decide"]): GithubJobRetryHook => ({ wanted: async () => true, decide });

const completed = (r: DoubleWorkflowRun) => ({
  repo: repo.fullName,
  runId: r.id,
  attempt: 1,
  workflow: r.name,
  headSha: r.headSha,
  branch: r.headBranch,
  conclusion: "failure",
  url: null,
});

beforeEach(async () => {
  repo = await double.addRepo(freshRepoName("actions"));
  gh = await client().forRepo(repo.fullName);
  reruns.length = 0;
  double.rerunner = {
    async rerun(_repo, r, which) {
      reruns.push(
        r.attempts
          .at(-1)!
          .filter(which)
          .map((j) => j.name),
      );
    },
  };
});

describe("a job's log", () => {
  it("is read through its signed URL, without the token, and only its end is kept", async () => {
    const r = run([job("unit", "failure", `${"x".repeat(3 * 1024 * 1024)}\nError: connect ECONNRESET\n`)]);
    const id = r.attempts[0]![0]!.id;
    const p = { owner: repo.owner, repo: repo.name };
    const tail = await readJobLogTail(gh, double.fetch, p, id, { tailBytes: 1024 });
    expect(tail).toHaveLength(1024);
    expect(tail.endsWith("\nError: connect ECONNRESET\n")).toBe(true);
    // Past the read limit nothing more is downloaded: the end read is the limit's.
    const bounded = await readJobLogTail(gh, double.fetch, p, id, { tailBytes: 1024, readLimit: 1024 * 1024 });
    expect(bounded).toBe("x".repeat(1024));
    expect(double.calls("actions/download-job-logs-for-workflow-run")).toHaveLength(2);
  });
});

describe("a completed run's failed jobs", () => {
  it("are not read for a repository that retries nothing", async () => {
    const r = run([job("unit", "failure")]);
    const listed = double.calls("actions/list-jobs-for-workflow-run-attempt").length;
    const none: GithubJobRetryHook = {
      wanted: async () => false,
      decide: async () => ({ mode: "job", replayed: false }),
    };
    const retries = githubJobRetries(client(), double.fetch, none, console);
    expect(await retries(completed(r))).toEqual({ failedJobs: [], rerun: { kind: "none" } });
    expect(double.calls("actions/list-jobs-for-workflow-run-attempt")).toHaveLength(listed);
    expect(reruns).toEqual([]);
  });

  it("are decided in order until one is retried, and that job alone is re-run, its log unread unless asked", async () => {
    const r = run([job("build", "success"), job("lint", "failure"), job("unit", "timed_out"), job("e2e", "failure")]);
    const seen: GithubFinishedJob[] = [];
    const logsRead = double.calls("actions/download-job-logs-for-workflow-run").length;
    const jobReruns = double.calls("actions/re-run-job-for-workflow-run").length;
    const retries = githubJobRetries(
      client(),
      double.fetch,
      hook(async (j) => {
        seen.push(j);
        return j.job === "unit" ? { mode: "job", replayed: false } : null;
      }),
      console,
    );
    const outcome = await retries(completed(r));
    expect(outcome).toEqual({ failedJobs: ["lint", "unit", "e2e"], rerun: { kind: "job", job: "unit" } });
    expect(seen.map((j) => [j.pipeline, j.job, j.conclusion, j.branch, j.workflowRunId])).toEqual([
      ["CI", "lint", "failure", "main", r.id],
      ["CI", "unit", "timed_out", "main", r.id],
    ]);
    // Each decision's idempotency key: the job's check run and the run's attempt.
    expect(seen.map((j) => j.decisionKey)).toEqual(
      r.attempts[0]!.slice(1, 3).map((j) => `github:check-run:${j.id}:attempt:1`),
    );
    expect(double.calls("actions/download-job-logs-for-workflow-run")).toHaveLength(logsRead);
    expect(await seen[1]!.log()).toBe("unit: timed_out\n");
    expect(reruns).toEqual([["unit"]]);
    expect(double.calls("actions/re-run-job-for-workflow-run")).toHaveLength(jobReruns + 1);
  });

  it("re-runs the whole run on a pipeline decision, and stops deciding", async () => {
    const r = run([job("lint", "failure"), job("unit", "failure")]);
    const seen: string[] = [];
    const runReruns = double.calls("actions/re-run-workflow").length;
    const retries = githubJobRetries(
      client(),
      double.fetch,
      hook(async (j) => (seen.push(j.job), { mode: "pipeline", replayed: false })),
      console,
    );
    expect((await retries(completed(r))).rerun).toEqual({ kind: "run" });
    expect(seen).toEqual(["lint"]);
    expect(reruns).toEqual([["lint", "unit"]]);
    expect(double.calls("actions/re-run-workflow")).toHaveLength(runReruns + 1);
  });

  it("logs a re-run GitHub refuses instead of throwing (the decision is counted already)", async () => {
    const r = run([job("unit", "failure")]);
    double.inject({ operationId: "actions/re-run-job-for-workflow-run", status: 403 });
    const errors: string[] = [];
    const log = { debug() {}, info() {}, warn() {}, error: (_o: unknown, m?: string) => void errors.push(m ?? "") };
    const retries = githubJobRetries(
      client(),
      double.fetch,
      hook(async () => ({ mode: "job", replayed: false })),
      log,
    );
    expect((await retries(completed(r))).rerun).toEqual({ kind: "job", job: "unit" });
    expect(errors).toEqual([expect.stringMatching(/GitHub refused the re-run of workflow run \d+/)]);
    expect(reruns).toEqual([]);
  });

  it("re-runs a redelivered decision only while the run is still at the decided attempt", async () => {
    const r = run([job("unit", "failure")]);
    const jobReruns = double.calls("actions/re-run-job-for-workflow-run").length;
    const replayed = githubJobRetries(
      client(),
      double.fetch,
      hook(async () => ({ mode: "job", replayed: true })),
      console,
    );
    // The first processing counted the decision but stopped before the re-run: it is made now.
    expect((await replayed(completed(r))).rerun).toEqual({ kind: "job", job: "unit" });
    expect(reruns).toEqual([["unit"]]);
    // The double's rerunner only records: the run's next attempt, as GitHub starts it.
    r.attempts.push([job("unit", "failure")]);
    // A later copy of attempt 1's delivery: the re-run was made, none is made again.
    expect((await replayed(completed(r))).rerun).toEqual({ kind: "none" });
    expect(reruns).toEqual([["unit"]]);
    expect(double.calls("actions/re-run-job-for-workflow-run")).toHaveLength(jobReruns + 1);
  });
});
