/**
 * CI Insights with the local CI (docs/ci-insights.md "Local CI", "Health", "Auto-quarantine"), on
 * the real server process: a repository whose check writes a JUnit report (`junit:` in
 * `.yardmaster/ci.yml`) with a test that fails every other run (flaky), one that always fails
 * (broken) and one that passes. Runs on the default branch give each its health; auto-quarantine
 * picks the flaky one and logs it; a pull request's check whose only failing tests are
 * quarantined passes, naming them; an expired quarantine lifts itself; the CLI shows it all; and
 * this project's own vitest JUnit output, uploaded with `yardmaster ci junit-upload`, appears with
 * its real test names and durations.
 */
import { spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import { mergifyClient } from "../mergify-cli/http.js";
import { clickThrough, launchBrowser, screenshot, signedInPage } from "../support/browser.js";
import { cliStdout } from "../support/cli.js";
import { eventually } from "../support/eventually.js";
import { gitWorkdir, type GitWorkdir } from "../support/git-workdir.js";
import { parsePrometheusText, sampleSum } from "../support/prometheus-text.js";
import { grpcClient, grpcUnary, type GrpcClient } from "../support/grpc-client.js";
import { ROOT, startServerProcess, type ServerProcess } from "../support/server-process.js";

const REPO = "acme/app";
let server: ServerProcess;
let work: string;
let src: GitWorkdir;
let forge: GrpcClient;
let client: ReturnType<typeof mergifyClient>;
let launched: Promise<Browser> | undefined;
/** This project's vitest on one file, JUnit to `<work>/vitest.xml`: its exit status. Needs no server, so it runs from the start. */
let ownVitest: Promise<number | null>;

/** One chromium for the file's dashboard tests, launched by the first (docs/contributing.md "The suite's time"). */
const sharedBrowser = (): Promise<Browser> => (launched ??= launchBrowser());

const cli = (...args: string[]) => cliStdout(server.cliEnv, args);
const base = "/v1/ci/acme/repositories/app";

/** The check: a counter outside the work tree makes `app.flaky` fail on odd runs; `app.broken` always fails. */
const ciFile = (counter: string) =>
  [
    "checks:",
    "  - name: test",
    "    junit: reports/*.xml",
    "    run: |",
    `      n=$(cat ${counter} 2>/dev/null || echo 0); n=$((n+1)); echo $n > ${counter}`,
    "      mkdir -p reports",
    `      if [ $((n % 2)) -eq 1 ]; then f='<failure message="boom">flaky</failure>'; else f=''; fi`,
    `      echo "<testsuites><testsuite name='s'><testcase classname='app' name='flaky' time='0.2'>$f</testcase><testcase classname='app' name='broken' time='0.1'><failure message='always'/></testcase><testcase classname='app' name='ok' time='0.05'/></testsuite></testsuites>" > reports/junit.xml`,
    "      exit 1",
    "",
  ].join("\n");

/** Runs of `app.ok` stored so far (one per check run). */
async function okRuns(): Promise<number> {
  const found = await client.get(`${base}/search/tests`, [["test_name", "app.ok"]]);
  const tests = (found.json as { tests: { test_id: string }[] }).tests;
  if (tests.length === 0) return 0;
  const runs = await client.get(`${base}/tests/${tests[0]!.test_id}/runs`, [["limit", "500"]]);
  return (runs.json as { runs: unknown[] }).runs.length;
}

/** Runs the checks at `ref` and waits for their report. */
async function runChecks(ref: string): Promise<void> {
  const before = await okRuns();
  await cli("ci", "run", REPO, ref);
  await eventually(async () => expect(await okRuns()).toBe(before + 1), 60_000);
}

async function health(): Promise<Record<string, string>> {
  const list = await client.get(`${base}/tests`);
  const tests = (list.json as { tests: { test_name: string; health_status: string }[] }).tests;
  return Object.fromEntries(tests.map((t) => [t.test_name, t.health_status]));
}

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-ci-insights-"));
  const vitest = [path.join(ROOT, "node_modules/vitest/vitest.mjs"), "run", "test/config/condition-grammar.test.ts"];
  const junit = ["--reporter=junit", `--outputFile=${path.join(work, "vitest.xml")}`];
  const env = { ...process.env, CI: "true" };
  const child = spawn(process.execPath, [...vitest, ...junit], { cwd: ROOT, env, stdio: "ignore" });
  ownVitest = new Promise((resolve) => child.once("close", resolve).once("error", () => resolve(null)));
  src = await gitWorkdir(path.join(work, "app"));
  await src.commit("Initial commit", { "README.md": "app\n", ".yardmaster/ci.yml": ciFile(path.join(work, "count")) });
  server = await startServerProcess({ YARDMASTER_CI_INSIGHTS_SWEEP_SECONDS: "1" });
  forge = grpcClient(ForgeService, `127.0.0.1:${server.port}`);
  client = mergifyClient(server.url, server.adminKey);
  await cli("repo", "add", REPO, "--from", src.path);
  await cli("product", "enable", REPO, "ci_insights");
}, 180_000);
afterAll(async () => {
  await (await launched?.catch(() => undefined))?.close();
  forge?.close();
  await server?.stop();
  await ownVitest;
  await rm(work, { recursive: true, force: true });
});

describe("the local CI's JUnit reports", () => {
  it("stores each run's results and computes flaky and broken on the default branch", async () => {
    for (let i = 0; i < 6; i++) await runChecks("main");
    expect(await health()).toEqual({ "app.broken": "broken", "app.flaky": "flaky", "app.ok": "healthy" });
    const out = await cli("tests", "list", REPO);
    expect(out).toMatch(/^broken .* app\.broken$/m);
    expect(out).toMatch(/^flaky .* app\.flaky$/m);
    expect(out).toContain("1 broken, 1 flaky, 1 healthy");
    // The list a page at a time: the worst first, the totals per status, the next page's token.
    const first = await client.get(`${base}/tests`, [["per_page", "2"]]);
    const page = first.json as { tests: { test_name: string }[]; totals: unknown; next_page_token: string };
    expect(page.tests.map((t) => t.test_name)).toEqual(["app.broken", "app.flaky"]);
    expect(page.totals).toEqual({ healthy: 1, flaky: 1, broken: 1 });
    const second = await client.get(`${base}/tests`, [
      ["per_page", "2"],
      ["page_token", page.next_page_token],
    ]);
    expect(second.json).toMatchObject({ tests: [{ test_name: "app.ok" }], next_page_token: "" });
    const bad = await client.get(`${base}/tests`, [["page_token", "nonsense"]]);
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.json)).toContain("page_token");
  }, 240_000);

  it("auto-quarantines the flaky test and logs it with its health", async () => {
    await client.put(`${base}/auto-quarantine`, { enabled: true, min_runs: 3, flakiness_threshold: 0.5 });
    const logged = await eventually(async () => {
      const logs = await client.get("/v1/repos/acme/app/logs", [["event_type", "test.quarantined"]]);
      const events = (logs.json as { events: { metadata: Record<string, unknown> }[] }).events;
      expect(events).toHaveLength(1);
      return events[0]!.metadata;
    }, 30_000);
    expect(logged).toMatchObject({
      test_name: "app.flaky",
      source: "auto",
      health_status_at_event: "flaky",
      quarantined_by: null,
    });
    const scraped = parsePrometheusText(await (await fetch(new URL("/metrics", server.url))).text());
    expect(sampleSum(scraped, "yardmaster_quarantined_tests", { source: "auto" })).toBe(1);
    const enabled = await client.get("/v1/repos/acme/app/logs", [
      ["event_type", "ci_insights.auto_quarantine.enabled"],
    ]);
    expect((enabled.json as { events: unknown[] }).events).toHaveLength(1);
  }, 60_000);

  it("passes a pull request's check whose only failing tests are quarantined, naming them", async () => {
    await cli("tests", "quarantine", REPO, "app.broken", "--reason", "known", "--owner", "alice");
    src.git("switch", "--quiet", "-c", "feature", "main");
    await src.commit("Feature", { "feature.txt": "1\n" });
    await cli("repo", "push", REPO, "--from", src.path, "--ref", "feature", "--branch", "feature");
    const opened = await grpcUnary(
      forge,
      "openPullRequest",
      { owner: "acme", repository: "app", head: "feature", base: "main" },
      server.adminKey,
    );
    const number = Number(opened.pullRequest.number);
    const check = await eventually(async () => {
      const res = await grpcUnary(
        forge,
        "getPullRequest",
        { owner: "acme", repository: "app", number: BigInt(number) },
        server.adminKey,
      );
      const c = res.pullRequest.checks.find((x: { name: string }) => x.name === "test");
      expect(c?.state).not.toBe("pending");
      expect(c).toBeDefined();
      return c;
    }, 60_000);
    expect(check.state).toBe("success");
  }, 120_000);

  it("lifts an expired quarantine by itself and logs test.dequarantined with source auto", async () => {
    const created = await client.post(`${base}/quarantines`, {
      test_name: "app.ok",
      reason: "short",
      expires_at: new Date(Date.now() + 2_000).toISOString(),
    });
    expect(created.status).toBe(201);
    await eventually(async () => {
      const logs = await client.get("/v1/repos/acme/app/logs", [["event_type", "test.dequarantined"]]);
      const events = (logs.json as { events: { metadata: Record<string, unknown> }[] }).events;
      expect(events.map((e) => [e.metadata.test_name, e.metadata.source])).toEqual([["app.ok", "auto"]]);
    }, 30_000);
    const names = (
      (await client.get(`${base}/quarantines`)).json as { quarantined_tests: { test_name: string }[] }
    ).quarantined_tests.map((q) => q.test_name);
    expect(names.sort()).toEqual(["app.broken", "app.flaky"]);
  }, 60_000);
});

describe("the dashboard's Tests page", () => {
  type Summary = {
    test_id: string;
    test_name: string;
    health_status: string;
    success_ratio: number;
    failure_ratio: number;
    flakiness_ratio: number;
    runs: string;
    daily_failures: string[];
  };
  const pct = (r: number) => `${(r * 100).toFixed(1)}%`;
  const listed = async () => ((await client.get(`${base}/tests`)).json as { tests: Summary[] }).tests;
  const quarantines = async () =>
    (
      (await client.get(`${base}/quarantines`)).json as {
        quarantined_tests: { test_name: string; assignee: string | null; expires_at: string | null; source: string }[];
      }
    ).quarantined_tests;

  it("lists the tests by health with the API's ratios and failures per day, live, and a test's history", async () => {
    const browser = await sharedBrowser();
    try {
      const { page, loads } = await signedInPage(browser, server.url, server.adminKey);
      await page.goto(`${server.url}/repos/acme/app`);
      const opened = loads();
      await clickThrough(page, "Tests", /^Tests/);
      const row = (name: string) => page.locator(`tr[data-test="${name}"]`);
      await row("app.ok").waitFor();
      const api = await listed();
      // Broken first, then flaky, then the rest, as the API orders them.
      const names = await page
        .locator("tr[data-test]")
        .evaluateAll((rows) => rows.map((r) => r.getAttribute("data-test")));
      expect(names).toEqual(api.map((t) => t.test_name));
      expect(names.slice(0, 2)).toEqual(["app.broken", "app.flaky"]);
      for (const t of api) {
        const text = await row(t.test_name).textContent();
        expect(text).toContain(t.health_status);
        for (const r of [t.success_ratio, t.failure_ratio, t.flakiness_ratio]) expect(text).toContain(pct(r));
        const failures = t.daily_failures.map(Number);
        const total = failures.reduce((a, b) => a + b, 0);
        expect(await row(t.test_name).getByRole("img").getAttribute("aria-label")).toBe(
          `${total} failure${total === 1 ? "" : "s"} over 14 days, per day: ${failures.join(", ")}`,
        );
      }
      // The broken test failed on every run: its sparkline counts them all.
      const broken = api.find((t) => t.test_name === "app.broken")!;
      expect(broken.daily_failures.map(Number).reduce((a, b) => a + b, 0)).toBe(Number(broken.runs));
      expect(await row("app.broken").getByTestId("quarantine-note").textContent()).toBe(
        "quarantined (manual), owner alice, until lifted",
      );
      expect(await row("app.flaky").getByTestId("quarantine-note").textContent()).toMatch(
        /^quarantined \(auto\), expires in \d+ h$/,
      );
      expect(await row("app.ok").locator("td").nth(9).textContent()).toBe("—");

      // Live: a new run on main shows without a reload.
      const runsCell = row("app.ok").locator("td").nth(3);
      const before = Number(await runsCell.textContent());
      await runChecks("main");
      await expect.poll(async () => Number(await runsCell.textContent()), { timeout: 30_000 }).toBe(before + 1);
      await screenshot(page, "tests");

      // A test's page: its details as GetTest answers them, and its runs as ListTestRuns does.
      const flaky = (await listed()).find((t) => t.test_name === "app.flaky")!;
      await clickThrough(page, "app.flaky", "app.flaky");
      const details = page.getByTestId("test-details");
      await details.waitFor();
      const shown = await details.textContent();
      expect(shown).toContain("flaky");
      expect(shown).toContain(pct(flaky.flakiness_ratio));
      const runs = ((await client.get(`${base}/tests/${flaky.test_id}/runs`)).json as { runs: { outcome: string }[] })
        .runs;
      const rows = page.getByTestId("runs").locator("tbody tr");
      await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(runs.length);
      expect(await rows.first().locator("td").nth(1).textContent()).toBe(runs[0]!.outcome);
      await page.getByTestId("chart").locator("canvas").first().waitFor();
      expect(await page.getByTestId("quarantine-note").count()).toBe(0);
      expect(
        await page.locator("table[data-testid=quarantines] tr[data-quarantine='app.flaky']").textContent(),
      ).toContain("auto");
      await screenshot(page, "test-history");
      // Every step above happened in the page as loaded, without a reload.
      expect(loads()).toBe(opened);
    } finally {
      // The page's own context (browser.newPage): the next test signs in afresh.
      await Promise.all(browser.contexts().map((c) => c.close()));
    }
  }, 120_000);

  it("quarantines with an owner and an expiry, lifts, and saves the auto-quarantine settings from the page", async () => {
    const browser = await sharedBrowser();
    try {
      const { page, loads } = await signedInPage(browser, server.url, server.adminKey);
      await page.goto(`${server.url}/repos/acme/app/tests`);
      const opened = loads();
      const form = page.getByRole("form", { name: "Quarantine a test" });
      await form.getByLabel("Test").fill("app.ok");
      await form.getByLabel("Reason").fill("timing-dependent");
      await form.getByLabel("Owner").fill("bob");
      await form.getByLabel("Expires in (days)").fill("3");
      const asked = Date.now();
      await form.getByRole("button", { name: "Quarantine" }).click();
      const row = page.locator("tr[data-quarantine='app.ok']");
      await row.waitFor();
      const stored = (await quarantines()).find((q) => q.test_name === "app.ok")!;
      expect(stored).toMatchObject({ assignee: "bob", source: "manual" });
      const expires = Date.parse(stored.expires_at!);
      expect(expires).toBeGreaterThanOrEqual(asked + 3 * 86_400_000 - 1000);
      expect(expires).toBeLessThanOrEqual(Date.now() + 3 * 86_400_000);
      expect(await page.locator("tr[data-test='app.ok']").getByTestId("quarantine-note").textContent()).toBe(
        "quarantined (manual), owner bob, expires in 72 h",
      );

      await row.getByRole("button", { name: "Lift the quarantine of app.ok" }).click();
      await row.waitFor({ state: "detached" });
      expect((await quarantines()).map((q) => q.test_name).sort()).toEqual(["app.broken", "app.flaky"]);

      const settings = page.getByRole("form", { name: "Auto-quarantine settings" });
      await settings.getByLabel("Minimum runs").fill("4");
      await settings.getByLabel("Expiry (days, 0 = until lifted)").fill("10");
      await settings.getByRole("button", { name: "Save" }).click();
      await eventually(async () => {
        const s = (await client.get(`${base}/auto-quarantine`)).json as Record<string, unknown>;
        expect(s).toMatchObject({ enabled: true, min_runs: 4, expiry_days: 10, flakiness_threshold: 0.5 });
      });
      await eventually(async () => {
        const modified = await client.get("/v1/repos/acme/app/logs", [
          ["event_type", "ci_insights.auto_quarantine.modified"],
        ]);
        expect((modified.json as { events: unknown[] }).events).toHaveLength(1);
      }, 30_000);
      // A value the service refuses is its error beside the form, and nothing changes.
      await settings.getByLabel("Window (days)", { exact: true }).fill("0");
      // Past the browser's own check of `min`, so the service's refusal shows.
      await settings.evaluate((f) => {
        (f as unknown as { noValidate: boolean }).noValidate = true;
      });
      await settings.getByRole("button", { name: "Save" }).click();
      await settings.getByRole("alert").waitFor();
      expect(await settings.getByRole("alert").textContent()).toMatch(/window_days/);
      expect(((await client.get(`${base}/auto-quarantine`)).json as { window_days: number }).window_days).toBe(14);
      // Every step above happened in the page as loaded, without a reload.
      expect(loads()).toBe(opened);
    } finally {
      // The page's own context (browser.newPage): the next test signs in afresh.
      await Promise.all(browser.contexts().map((c) => c.close()));
    }
  }, 120_000);
});

describe("this project's own tests as data", () => {
  it("uploads vitest's JUnit output with its real names and durations", async () => {
    const report = path.join(work, "vitest.xml");
    expect(await ownVitest).toBe(0);
    const xml = await readFile(report, "utf8");
    const first = /<testcase classname="([^"]+)" name="([^"]+)" time="([\d.]+)"/.exec(xml)!;
    // vitest names a case "<describe> > <it>", written with XML escapes.
    const unescapeXml = (v: string) =>
      v.replace(
        /&(gt|lt|quot|apos|amp);/g,
        (_, e: string) => ({ gt: ">", lt: "<", quot: '"', apos: "'", amp: "&" })[e]!,
      );
    const out = await cli(
      "ci",
      "junit-upload",
      "--repo",
      REPO,
      "--head-sha",
      "b".repeat(40),
      "--branch",
      "main",
      "--job",
      "vitest",
      "--framework",
      "vitest",
      report,
    );
    const stored = Number(/: (\d+) test runs stored/.exec(out)![1]);
    expect(stored).toBe((xml.match(/<testcase /g) ?? []).length);
    const name = `${unescapeXml(first[1]!)}.${unescapeXml(first[2]!)}`;
    expect(name).toBe("test/config/condition-grammar.test.ts.valid conditions > base=main");
    const found = await client.get(`${base}/search/tests`, [
      ["test_name", name],
      ["job_name", "vitest"],
    ]);
    const [t] = (found.json as { tests: { test_id: string }[] }).tests;
    const runs = await client.get(`${base}/tests/${t!.test_id}/runs`);
    expect((runs.json as { runs: { duration_ms: number }[] }).runs[0]!.duration_ms).toBe(
      Math.round(Number(first[3]) * 1000),
    );
  }, 120_000);
});
