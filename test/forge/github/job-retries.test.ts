/**
 * CI Insights' job retry rules on GitHub (docs/ci-insights.md "Job retries", docs/github.md
 * "Operations"): a real server process (`FORGE=github`) against the GitHub double over HTTP, whose
 * Actions run a workflow `CI` (job `unit`, failing with a network error in its log on a tree
 * holding `BROKEN`) and a workflow `Lint` (job `lint`, passing) on every push to main. A failed run
 * reaches the server as `workflow_run` completed; its jobs and the failed job's log are read, the
 * rule decides, and the job (or the run) is re-run through Actions' API, once; the quota spent
 * logs `skipped_quota_exceeded` and re-runs nothing. Every request is checked against GitHub's
 * OpenAPI description by the double.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { mergifyClient } from "../../mergify-cli/http.js";
import { cliStdout } from "../../support/cli.js";
import { eventually } from "../../support/eventually.js";
import { startServerProcess, type ServerProcess } from "../../support/server-process.js";
import { DoubleActions } from "./support/double-actions.js";
import { serveDouble, type DoubleHttp } from "./support/double-http.js";
import type { DoubleRepo } from "./support/double-state.js";
import { GithubDouble } from "./support/github-double.js";

const SECRET = "job-retries-webhook-secret";
const base = "/v1/ci/acme/repositories/app";
let double: GithubDouble;
let actions: DoubleActions;
let http: DoubleHttp;
let server: ServerProcess;
let repo: DoubleRepo;
let client: ReturnType<typeof mergifyClient>;

type Retried = {
  retry_attempt: number;
  outcome: string;
  rule_name: string;
  retry_mode: string;
  workflow_run_id: number;
};
/** The ci_insights.job_retried events as [rule, mode, attempt, outcome], oldest first. */
async function retried(): Promise<[string, string, number, string][]> {
  const logs = await client.get("/v1/repos/acme/app/logs", [["event_type", "ci_insights.job_retried"]]);
  const events = (logs.json as { events: { metadata: Retried }[] }).events.map((e) => e.metadata).reverse();
  return events.map((e) => [e.rule_name, e.retry_mode, e.retry_attempt, e.outcome]);
}

async function rule(body: Record<string, unknown>): Promise<string> {
  const res = await client.post(`${base}/retry-rules`, body);
  expect(res.status, JSON.stringify(res.json)).toBe(201);
  return (res.json as { id: string }).id;
}

/** Pushes a commit on main (`BROKEN` makes `unit` fail); returns its SHA once Actions started on it. */
async function push(message: string, files: Record<string, string>): Promise<string> {
  const sha = await repo.commit("main", files, message);
  await actions.observe(repo);
  return sha;
}

/** The `workflow_run` deliveries of the CI workflow at `sha` that the server answered. */
const runDeliveries = (sha: string) =>
  double.webhooks.deliveries.filter((d) => {
    if (d.event !== "workflow_run" || d.status !== "OK") return false;
    const run = JSON.parse(d.request.body).workflow_run;
    return run.head_sha === sha && run.name === "CI";
  }).length;

/** The runs of `unit` at `sha` (first attempt and re-runs), once each concluded. */
const unitRuns = (sha: string) => actions.runs.filter((r) => r.job === "unit" && r.sha === sha);

beforeAll(async () => {
  double = await GithubDouble.start();
  double.clockSource = Date.now;
  actions = new DoubleActions(double);
  http = await serveDouble(double.fetch);
  repo = await double.addRepo("acme/app", { files: { ".yardmaster.yml": "queue_rules:\n  - name: default\n" } });
  await actions.use(repo, [
    {
      name: "unit",
      workflow: "CI",
      on: { push: { branches: ["main"] } },
      failsWith: "BROKEN",
      failureLog: "npm ERR! request to https://registry.npmjs.org failed, reason: connect ECONNRESET 104.16.0.35:443",
    },
    { name: "lint", workflow: "Lint", on: { push: { branches: ["main"] } }, failsWith: "LINT_BROKEN" },
  ]);
  server = await startServerProcess({
    FORGE: "github",
    GITHUB_APP_ID: String(double.appId),
    GITHUB_PRIVATE_KEY: double.privateKey.replace(/\n/g, "\\n"),
    GITHUB_WEBHOOK_SECRET: SECRET,
    GITHUB_API_URL: http.url,
    GITHUB_SPACE_WRITES: "false",
    LOG_LEVEL: "warn",
  });
  await double.deliverWebhooksTo(async (delivery) => {
    const res = await fetch(`${server.url}/webhooks/github`, {
      method: "POST",
      headers: delivery.headers,
      body: delivery.body,
    });
    await res.arrayBuffer();
    return res.status;
  }, SECRET);
  client = mergifyClient(server.url, server.adminKey);
  await cliStdout(server.cliEnv, ["product", "enable", "acme/app", "ci_insights"]);
}, 180_000);
afterAll(async () => {
  await actions?.idle().catch(() => {});
  await server?.stop();
  await http?.close();
  await double?.stop();
});
afterEach(() => {
  expect(double.problems.splice(0)).toEqual([]);
});

describe("job retry rules on GitHub Actions", () => {
  let network: string;

  it("re-runs a failed job whose log matches a rule once, by its own re-run, and logs retried", async () => {
    network = await rule({
      name: "network",
      job_names: ["un*"],
      pipeline_names: ["CI"],
      log_pattern: "ECONNRESET",
      max_retry: 1,
      retry_mode: "job",
    });
    const sha = await push("Break the build", { BROKEN: "1\n" });
    // The first attempt fails, is re-run once, fails again; the second failure is past max_retry.
    await eventually(async () => {
      expect(unitRuns(sha).map((r) => r.conclusion)).toEqual(["failure", "failure"]);
      expect(runDeliveries(sha)).toBe(2);
    }, 60_000);
    await actions.idle();
    expect(double.calls("actions/re-run-job-for-workflow-run")).toHaveLength(1);
    expect(double.calls("actions/re-run-workflow")).toHaveLength(0);
    expect(double.calls("actions/re-run-workflow-failed-jobs")).toHaveLength(0);
    // The rule's log pattern was searched in the job's log, read through its redirect.
    expect(double.calls("actions/download-job-logs-for-workflow-run").length).toBeGreaterThanOrEqual(1);
    const run = repo.workflowRuns.find((w) => w.headSha === sha && w.name === "CI")!;
    expect(run.attempts).toHaveLength(2);
    await eventually(async () => expect(await retried()).toEqual([["network", "job", 1, "retried"]]), 30_000);
    const logs = await client.get("/v1/repos/acme/app/logs", [["event_type", "ci_insights.job_retried"]]);
    const [event] = (logs.json as { events: { metadata: Retried }[] }).events;
    expect(event!.metadata.workflow_run_id).toBe(run.id);
    // The passing Lint workflow was not retried: its completed run was ignored.
    expect(actions.runs.filter((r) => r.job === "lint" && r.sha === sha)).toHaveLength(1);
  }, 120_000);

  it("logs skipped_quota_exceeded and re-runs nothing once the day's quota is spent", async () => {
    expect((await client.put(`${base}/retry-quota`, { daily_quota: 1 })).status).toBe(200);
    const sha = await push("Break it again", { BROKEN: "2\n" });
    await eventually(async () => {
      expect(runDeliveries(sha)).toBe(1);
      expect(await retried()).toHaveLength(2);
    }, 60_000);
    await actions.idle();
    expect((await retried())[1]).toEqual(["network", "job", 0, "skipped_quota_exceeded"]);
    expect(unitRuns(sha)).toHaveLength(1);
    expect(double.calls("actions/re-run-job-for-workflow-run")).toHaveLength(1);
  }, 120_000);

  it("re-runs the whole workflow run in pipeline mode, without reading a log no rule asks for", async () => {
    expect((await client.delete(`${base}/retry-rules/${network}`)).status).toBe(204);
    expect((await client.put(`${base}/retry-quota`, { daily_quota: 50 })).status).toBe(200);
    await rule({ name: "whole", job_names: ["unit"], max_retry: 1, retry_mode: "pipeline" });
    const logsRead = double.calls("actions/download-job-logs-for-workflow-run").length;
    const sha = await push("Break it a third time", { BROKEN: "3\n" });
    await eventually(async () => {
      expect(unitRuns(sha).map((r) => r.conclusion)).toEqual(["failure", "failure"]);
      expect(runDeliveries(sha)).toBe(2);
    }, 60_000);
    await actions.idle();
    expect(double.calls("actions/re-run-workflow")).toHaveLength(1);
    expect(double.calls("actions/re-run-job-for-workflow-run")).toHaveLength(1);
    expect(double.calls("actions/download-job-logs-for-workflow-run")).toHaveLength(logsRead);
    await eventually(async () => expect((await retried()).at(-1)).toEqual(["whole", "pipeline", 1, "retried"]), 30_000);
  }, 120_000);
});
