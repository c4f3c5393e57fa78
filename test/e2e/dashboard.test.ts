/**
 * The web dashboard in a real browser (docs/dashboard.md "Tests"): Debian's chromium driven by
 * playwright-core against the real server process, whose local-forge repository is being replayed
 * (this project's first 6 changes, CI `sleep 3`). One server, one browser, one page that is loaded
 * once and then only clicked through:
 * - signed in with the admin key alone, the home lists the replayed repository by itself;
 * - the queue page shows batches appear, then empty as their pull requests merge, without a
 *   reload, and lists them as recently merged, each with its batch;
 * - the statistics page shows the figures GetQueueStatistics answers for the replay;
 * - pausing from the page shows the banner, and `GET merge-queue/pause` agrees; so does unpausing;
 * - a facet filter on the log page shows the counts `/logs/aggregate` answers for that filter, in
 *   a window fitted to the run's events;
 * - the simulator page shows a configuration error at its line and column;
 * - a second repository, self-tuned with a week of recorded traffic (test/support/recorded-traffic.ts),
 *   answers the same tuned settings and traffic on `/queues`, the queued pull request and
 *   `/queues/configuration` (docs/self-tuning.md "Where it shows"), and its configuration page
 *   shows them.
 * Each page's screenshot is written to docs/dashboard/ (shown in docs/dashboard.md).
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import type { ReplayReport } from "../../services/replay/index.js";
import { clickThrough, launchBrowser, screenshot, signedInPage } from "../support/browser.js";
import { runCli, type CliResult } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { gitWorkdir } from "../support/git-workdir.js";
import { grpcClient, grpcUnary, type GrpcClient } from "../support/grpc-client.js";
import { appendRecordedTraffic, RECORDED } from "../support/recorded-traffic.js";
import { ROOT, startServerProcess, type ServerProcess } from "../support/server-process.js";

const REPO = "demo/dash";
let server: ServerProcess;
let browser: Browser;
let page: Page;
let loads: () => number;
let replay: Promise<CliResult>;

async function api(method: string, route: string, body?: unknown, repo = REPO): Promise<any> {
  const res = await fetch(`${server.url}/v1/repos/${repo}/${route}`, {
    method,
    headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, json: res.status === 204 ? null : await res.json() };
}

beforeAll(async () => {
  server = await startServerProcess();
  browser = await launchBrowser();
  ({ page, loads } = await signedInPage(browser, server.url, server.adminKey));
  replay = runCli(
    ["replay", "--json", "--from", ROOT, "--repo", REPO, "--limit", "6", "--ci", "sleep 3", "--speed", "1e9"],
    server.cliEnv,
    300_000,
  );
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await replay?.catch(() => undefined);
  await server?.stop();
});

describe("the dashboard, live on a replayed repository", () => {
  it("shows batches appear on the queue page, then its pull requests merge, without a reload", async () => {
    // The branch appears on the first page when its queue does (WatchMergeQueue), then one click.
    await page.getByRole("link", { name: "main", exact: true }).waitFor({ timeout: 120_000 });
    await screenshot(page, "repositories-replay");
    await clickThrough(page, "main", /^Queue of main/);
    await page.getByTestId("batch").first().waitFor({ timeout: 120_000 });
    const shown = (await page.getByTestId("batch-pr").getByRole("link").allInnerTexts()).map((t) => Number(t.slice(1)));
    expect(shown.length).toBeGreaterThan(0);
    await screenshot(page, "queue");

    // A pull request of the train, and back (history, no reload).
    await clickThrough(page, `#${shown[0]}`, new RegExp(`^#${shown[0]} `));
    await page.getByRole("heading", { name: "Timeline" }).waitFor();
    await page.getByTestId("event").first().waitFor();
    await screenshot(page, "pull-request-queued");
    await page.goBack();
    await page.getByRole("heading", { name: /^Queue of main/ }).waitFor();

    const run = await replay;
    expect(run.code, run.stderr + server.output().slice(-2000)).toBe(0);
    const report = JSON.parse(run.stdout) as ReplayReport;
    expect(report.merged).toHaveLength(6);
    expect(report.merged).toEqual(expect.arrayContaining(shown));
    await page.getByText("No batch is being checked.").waitFor({ timeout: 30_000 });
    await page.getByText("No pull request waits for a batch.").waitFor();
    // Each merged pull request is in the history, with its result in words and its batch.
    const rows = page.getByTestId("history-row");
    await eventually(async () => expect(await rows.count()).toBe(6), 30_000);
    const merged = (await rows.locator("td:first-child").allInnerTexts()).map((t) => Number(t.slice(1)));
    expect(merged.sort((a, b) => a - b)).toEqual([...report.merged].sort((a, b) => a - b));
    expect(new Set(await rows.locator("td:nth-child(2)").allInnerTexts())).toEqual(new Set(["merged"]));
    expect(await rows.getByRole("link", { name: "batch" }).count()).toBe(6);
    await screenshot(page, "queue-history");
    expect(loads()).toBe(1);
  });

  it("shows the replay's statistics as GetQueueStatistics answers them, in a window fitted to its events", async () => {
    await clickThrough(page, "Statistics", /^Statistics/);
    const stats = (await api("GET", "queues/statistics?base_ref=main")).json;
    expect(Number(stats.summary.merges)).toBe(6);
    const total = (id: string) => page.getByTestId(`total-${id}`);
    await total("merges").getByText("6", { exact: true }).waitFor();
    expect(await total("ci-runs").textContent()).toBe(String(stats.summary.ci_runs));
    expect(await total("ci-runs-per-merge").textContent()).toBe(stats.summary.ci_runs_per_merge.toFixed(2));
    expect(await total("bisections").textContent()).toBe("0");
    expect(await page.getByTestId("window").textContent()).toContain("fitted to the queue's events");
    expect(await page.getByTestId("chart").count()).toBe(7);
    await screenshot(page, "statistics");
    await clickThrough(page, "Branches", /^demo\/dash/);
    expect(loads()).toBe(1);
  });

  it("pauses from the page: the banner shows, and GET merge-queue/pause agrees; then unpauses", async () => {
    await clickThrough(page, "main", /^Queue of main/);
    await page.getByLabel("Pause reason").fill("release freeze from the dashboard");
    await page.getByRole("button", { name: "Pause the queue" }).click();
    const banner = page.getByRole("status", { name: "Queue paused" });
    await banner.getByText("release freeze from the dashboard").waitFor();
    const paused = await api("GET", "merge-queue/pause");
    expect(paused.json).toMatchObject({ paused: true, reason: "release freeze from the dashboard" });
    await screenshot(page, "queue-paused");

    await banner.getByRole("button", { name: "Unpause" }).click();
    await banner.waitFor({ state: "detached" });
    expect((await api("GET", "merge-queue/pause")).json).toMatchObject({ paused: false, reason: null });
    expect(loads()).toBe(1);
  });

  it("filters the log by a facet and shows the counts /logs/aggregate answers for that filter", async () => {
    await clickThrough(page, "Activity log", /^Activity log/);
    const type = "action.queue.merged";
    const facetBox = page.locator('fieldset[data-facet="event_type"]');
    // The facet says the type in words, its name in the label's title.
    await facetBox.locator(`li[data-value="${type}"] input`).check();
    await page.waitForURL(/event_type=action\.queue\.merged/);
    const agg = (await api("GET", `logs/aggregate?event_type=${type}`)).json;
    expect(Number(agg.total)).toBe(6);
    await page.getByTestId("total").getByText(String(agg.total), { exact: true }).waitFor();
    const facet = async (param: string) => {
      const items = page.locator(`fieldset[data-facet="${param}"] li`);
      const values = await items.evaluateAll((lis) => lis.map((li) => li.getAttribute("data-value")));
      const counts = await items.locator(".count").allInnerTexts();
      return Object.fromEntries(values.map((v, i) => [v, Number(counts[i])]));
    };
    const expected = (list: { value: string; count: number | string }[]) =>
      Object.fromEntries(list.map((f) => [String(f.value), Number(f.count)]));
    expect(await facet("event_type")).toEqual(expected(agg.by_event_type));
    expect(await facet("outcome")).toEqual(expected(agg.by_outcome));
    expect(await facet("trigger")).toEqual(expected(agg.by_trigger));
    expect(await facet("pull_request")).toEqual(expected(agg.by_pull_request));
    const types = await page.getByTestId("event").evaluateAll((rows) => rows.map((r) => r.getAttribute("data-type")));
    expect(new Set(types)).toEqual(new Set([type]));
    expect(new Set(await page.getByTestId("event").locator("td:nth-child(2)").allInnerTexts())).toEqual(
      new Set(["merged by the queue"]),
    );
    // The default window is fitted to the events: the run's minute is spread over many buckets.
    expect(await page.getByTestId("window").textContent()).toContain("fitted to the events");
    expect(await page.getByTestId("window").textContent()).toMatch(/in buckets of \d+ s$/);
    await screenshot(page, "activity-log");
    expect(loads()).toBe(1);
  });

  it("shows a configuration error of the simulator at its line and column", async () => {
    await clickThrough(page, "Configuration", /^Configuration$/);
    const text = "queue_rules:\n  - name: default\n    batch_size: many\n";
    await page.getByLabel("Configuration (YAML)").fill(text);
    await page.getByRole("button", { name: "Validate" }).click();
    const rest = await api("POST", "configuration-simulator", { service_yml: text });
    expect(rest.status).toBe(422);
    const at = /\(line (\d+), column (\d+)\)/.exec(rest.json.message)!;
    expect(at[1]).toBe("3");
    await page.getByTestId("sim-error").getByText(`Line ${at[1]}, column ${at[2]}:`).waitFor();
    await page.locator(`li.bad-line[data-line="${at[1]}"]`).waitFor();
    expect(await page.locator("li.bad-line").count()).toBe(1);
    await screenshot(page, "configuration");
    expect(loads()).toBe(1);
  });
});

describe("a self-tuned repository with a week of recorded traffic", () => {
  const TUNED = "demo/tuned";
  const at = { owner: "demo", repository: "tuned" };
  let work: string;
  let forge: GrpcClient;
  let number: bigint;
  const comment = (body: string) => grpcUnary(forge, "commentPullRequest", { ...at, number, body }, server.adminKey);
  const ruleConfig = async () => (await api("GET", "queues/configuration", undefined, TUNED)).json.configuration[0];

  beforeAll(async () => {
    await appendRecordedTraffic(server, TUNED);
    work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-tuned-"));
    const src = await gitWorkdir(path.join(work, "tuned"));
    // No batch size, wait or parallelism: self-tuned (docs/self-tuning.md).
    await src.commit("Initial commit", {
      "README.md": "tuned\n",
      ".yardmaster.yml": "queue_rules:\n  - name: default\n",
    });
    src.git("switch", "--quiet", "-c", "feature", "main");
    await src.commit("Add a file", { "feature.txt": "1\n" });
    src.git("switch", "--quiet", "main");
    forge = grpcClient(ForgeService, `127.0.0.1:${server.port}`);
    await grpcUnary(forge, "createRepository", { ...at, fromPath: src.path }, server.adminKey);
    const opened = { ...at, head: "feature", base: "main", title: "Add a file" };
    number = (await grpcUnary(forge, "openPullRequest", opened, server.adminKey)).pullRequest.number;
    // The first round reads the traffic in the background; a later one applies what it chooses.
    await eventually(
      async () => {
        await comment("a comment, so the repository has a round");
        expect((await ruleConfig()).config.self_tuning.observed).not.toBeNull();
      },
      60_000,
      1000,
    );
    await comment("@yardmaster queue");
  }, 180_000);
  afterAll(async () => {
    forge?.close();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it("answers the same tuned settings on /queues, the pull request and /queues/configuration", async () => {
    const rule = await ruleConfig();
    expect(rule.name).toBe("default");
    const statics = { batch_size: { min: 1, max: 1 }, batch_max_wait_time: 30, max_parallel_checks: 5 };
    // λ·D = 8, p = 0.05: batches {2, 4}, a wait of D/3, 6 checks (docs/self-tuning.md "The choice").
    const tuned = { batch_size: { min: 2, max: 4 }, batch_max_wait_time: 600, max_parallel_checks: 6 };
    expect(rule.config).toMatchObject({
      batch_size: 4,
      batch_size_min: 2,
      batch_size_max: 4,
      batch_max_wait_time: 600,
    });
    expect(rule.config.max_parallel_checks).toBe(6);
    expect(rule.config.self_tuning).toEqual({
      ...tuned,
      configured: statics,
      observed: {
        arrivals_per_hour: RECORDED.arrivalsPerHour,
        ci_duration: RECORDED.ciSeconds,
        failure_rate: RECORDED.failureRate,
        computed_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      },
    });
    // The lone pull request waits up to 10 minutes for a second one: it stays queued meanwhile.
    const listed = await eventually(async () => {
      const q = (await api("GET", "queues", undefined, TUNED)).json;
      expect(q.queues[0].pull_requests.map((p: any) => p.number)).toEqual([Number(number)]);
      return q.queues[0].pull_requests[0];
    }, 30_000);
    expect(listed.queue_rule).toEqual(rule);
    const detail = await api("GET", `merge-queue/pull/${number}`, undefined, TUNED);
    expect(detail.status).toBe(200);
    expect(detail.json.queue_rule).toEqual(rule);
  });

  it("shows the running settings, the configured ones and the traffic on the configuration page", async () => {
    const rule = await ruleConfig();
    // The home lists the new repository by itself (ListRepositories).
    await clickThrough(page, "Yardmaster", /^Repositories/);
    await clickThrough(page, TUNED, TUNED);
    await clickThrough(page, "Configuration", /^Configuration$/);
    const section = page.locator('section[data-rule="default"]');
    const row = (label: string) =>
      section.getByTestId("rule-settings").getByRole("row", { name: new RegExp(`^${label}`) });
    const cells = async (label: string) => (await row(label).getByRole("cell").allInnerTexts()).map((t) => t.trim());
    await section.getByTestId("self-tuning").getByText("Chosen by self-tuning").waitFor();
    expect(await cells("Batch size")).toEqual(["2–4", "1–1"]);
    expect(await cells("Batch max wait time")).toEqual(["10 min", "30 s"]);
    expect(await cells("Max parallel checks")).toEqual(["6", "5"]);
    expect(await cells("Checks timeout")).toEqual(["none", "none"]);
    const tuning = section.getByTestId("self-tuning");
    expect(await tuning.getByTestId("arrival-rate").textContent()).toBe("16.0 pull requests per hour");
    expect(await tuning.getByTestId("ci-duration").textContent()).toBe("30 min");
    expect(await tuning.getByTestId("failure-rate").textContent()).toBe("5.0%");
    const computed = await tuning.getByTestId("computed-at").locator("time").getAttribute("datetime");
    expect(computed).toBe(rule.config.self_tuning.observed.computed_at);
    await screenshot(page, "configuration-self-tuned");
    expect(loads()).toBe(1);
  });
});
