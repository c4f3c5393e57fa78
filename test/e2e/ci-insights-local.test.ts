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
import { spawnSync } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import { mergifyClient } from "../mergify-cli/http.js";
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
  src = await gitWorkdir(path.join(work, "app"));
  await src.commit("Initial commit", { "README.md": "app\n", ".yardmaster/ci.yml": ciFile(path.join(work, "count")) });
  server = await startServerProcess({ YARDMASTER_CI_INSIGHTS_SWEEP_SECONDS: "1" });
  forge = grpcClient(ForgeService, `127.0.0.1:${server.port}`);
  client = mergifyClient(server.url, server.adminKey);
  await cli("repo", "add", REPO, "--from", src.path);
  await cli("product", "enable", REPO, "ci_insights");
}, 180_000);
afterAll(async () => {
  forge?.close();
  await server?.stop();
  await rm(work, { recursive: true, force: true });
});

describe("the local CI's JUnit reports", () => {
  it("stores each run's results and computes flaky and broken on the default branch", async () => {
    for (let i = 0; i < 6; i++) await runChecks("main");
    expect(await health()).toEqual({ "app.broken": "broken", "app.flaky": "flaky", "app.ok": "healthy" });
    const out = await cli("tests", "list", REPO);
    expect(out).toMatch(/^broken .* app\.broken$/m);
    expect(out).toMatch(/^flaky .* app\.flaky$/m);
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

describe("this project's own tests as data", () => {
  it("uploads vitest's JUnit output with its real names and durations", async () => {
    const report = path.join(work, "vitest.xml");
    const run = spawnSync(
      process.execPath,
      [
        path.join(ROOT, "node_modules/vitest/vitest.mjs"),
        "run",
        "test/config/condition-grammar.test.ts",
        "--reporter=junit",
        `--outputFile=${report}`,
      ],
      { cwd: ROOT, encoding: "utf8", env: { ...process.env, CI: "true" } },
    );
    expect(run.status).toBe(0);
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
