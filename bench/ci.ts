/**
 * `npm run bench:ci` (docs/benchmarks.md "CI Insights"): two targets of docs/ci-insights.md.
 * 1. Ingest through the real route: a server process (`yardmaster serve`, embedded databases)
 *    takes `--results` test results (default 1,000,000) as JUnit uploads of `--per-upload` cases
 *    (default 10,000), two at a time; prints rows/s and the server's event loop delay during the
 *    ingest against its own idle baseline, measured in the same run (loop-probe.ts).
 *    `--profile DIR`: the server's CPU profile, written there when it stops.
 * 2. The list of tests by health (bench/ci-health.ts): `--runs` executions (default 5,000,000) of
 *    `--tests` tests (default 10,000) over 15 days, loaded straight into an embedded ClickHouse
 *    (`INSERT ... SELECT` from `numbers()`, the shape the route stores, through the materialized
 *    views: ingesting 5M through the route would take too long, the route's figure is part 1);
 *    then the list computed at read (every test's health, a recomputation; `--row-rounds` times,
 *    default 5) against the list kept between reads (services/ci-insights/kept-health.ts): a
 *    page cut from it, `--rounds` times (default 30; the first 100 with their failures per day,
 *    the first 500, 100 in the healthy tail); under a steady ingest for `--ingest-seconds`
 *    (default 30; an upload of every test each second) the recomputations, their wall time, the
 *    reads' and how long an upload takes to show; and the time a run making a test flaky takes
 *    to show when the ingest is quiet.
 * PASS/FAIL lines: the aggregates give the rows' figures; each page of the kept list and its totals
 * are the rows' figures over the same window (brute force); a page's p95 ≤ 100 ms; a stored run
 * shows within 10 s plus two computations; ingest loop delay max ≤ 50 ms. `--only health` or
 * `--only ingest` runs one part; `-- --results 200000 --runs 1000000` for a short run.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ProductService } from "../gen/yardmaster/v1/admin_pb.js";
import { createClickHouseClient } from "../services/activity-log/index.js";
import { createKeptHealth, migrateTestRuns, testHealth, type TestHealth } from "../services/ci-insights/index.js";
import { cutPage, failuresPerDay, healthList, listOrder } from "../services/ci-insights/health-page.js";
import { testHealthFromRuns } from "../services/ci-insights/health-rows.js";
import { generateRuns, idleLoop, ms, pct, REPO, sleep, stalenessOf, timed, underIngest } from "./ci-health.js";
import { startBenchServer } from "./load/server.js";

const { values } = parseArgs({
  options: {
    results: { type: "string", default: "1000000" },
    "per-upload": { type: "string", default: "10000" },
    only: { type: "string" },
    profile: { type: "string" },
    runs: { type: "string", default: "5000000" },
    tests: { type: "string", default: "10000" },
    rounds: { type: "string", default: "30" },
    "row-rounds": { type: "string", default: "5" },
    "ingest-seconds": { type: "string", default: "30" },
  },
});
const RESULTS = Number(values.results);
const PER_UPLOAD = Number(values["per-upload"]);
const RUNS = Number(values.runs);
const TESTS = Number(values.tests);
const ROUNDS = Number(values.rounds);
const ROW_ROUNDS = Number(values["row-rounds"]);
const INGEST_SECONDS = Number(values["ingest-seconds"]);
const pass = (ok: boolean) => (ok ? "PASS" : "FAIL");

/** A JUnit report of `n` cases, one in 50 failing, named per upload so that tests repeat across uploads. */
function report(upload: number, n: number): string {
  const cases: string[] = [];
  for (let i = 0; i < n; i++) {
    const failed = (i + upload) % 50 === 0 ? '<failure message="assert 1 == 0">trace</failure>' : "";
    cases.push(`<testcase classname="pkg.mod${i % 100}" name="test_${i}" time="0.0${i % 10}">${failed}</testcase>`);
  }
  return `<?xml version="1.0"?><testsuites><testsuite name="bench">${cases.join("")}</testsuite></testsuites>`;
}

async function ingest(): Promise<void> {
  // `--profile DIR`: the server writes a CPU profile of its main thread there when it stops.
  const server = await startBenchServer(values.profile ? ["--cpu-prof", "--cpu-prof-dir", values.profile] : []);
  try {
    const products = createClient(
      ProductService,
      createConnectTransport({
        baseUrl: server.url,
        httpVersion: "1.1",
        interceptors: [(next) => (req) => (req.header.set("authorization", `Bearer ${server.adminKey}`), next(req))],
      }),
    );
    await products.setProductEnabled({ owner: "bench", repository: "ingest", product: "ci_insights", enabled: true });
    await server.probe();
    await new Promise((r) => setTimeout(r, 3000));
    const idle = await server.probe();
    const uploads = Math.ceil(RESULTS / PER_UPLOAD);
    const bodies = [report(0, PER_UPLOAD), report(1, PER_UPLOAD)];
    let next = 0;
    let stored = 0;
    const started = performance.now();
    const worker = async () => {
      while (next < uploads) {
        const i = next++;
        const sha = i.toString(16).padStart(40, "0");
        const url = `${server.url}/v1/repos/bench/ingest/ci/junit?pipeline_name=ci&job_name=unit&branch=main&head_sha=${sha}`;
        const res = await fetch(url, {
          method: "POST",
          headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/xml" },
          body: bodies[i % 2],
        });
        const body = (await res.json()) as { test_runs?: number; message?: string };
        if (!res.ok) throw new Error(`upload ${i}: HTTP ${res.status} ${body.message}`);
        stored += body.test_runs ?? 0;
      }
    };
    await Promise.all([worker(), worker()]);
    const seconds = (performance.now() - started) / 1000;
    const busy = await server.probe();
    console.log(
      `ingest: ${stored.toLocaleString("en")} results in ${uploads} uploads of ${PER_UPLOAD.toLocaleString("en")} in ${seconds.toFixed(1)} s: ${Math.round(stored / seconds).toLocaleString("en")} rows/s`,
    );
    console.log(
      `ingest: server event loop delay p99 ${busy.p99.toFixed(1)} ms, max ${busy.max.toFixed(1)} ms (idle baseline: p99 ${idle.p99.toFixed(1)} ms, max ${idle.max.toFixed(1)} ms; CPU ${busy.cpu.toFixed(2)} cores)`,
    );
    console.log(`${pass(busy.max <= 50)} ingest: event loop held at most 50 ms (max ${busy.max.toFixed(1)} ms)`);
  } finally {
    await server.stop();
  }
}

async function health(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "ym-bench-ci-"));
  const client = createClickHouseClient({ embeddedPath: dir });
  const computed: number[] = [];
  const kept = createKeptHealth(client, { onComputed: (_, wall) => computed.push(wall) });
  const load = () =>
    `load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(" ")} on ${os.cpus().length} cores`;
  try {
    await migrateTestRuns(client);
    const now = Date.now();
    const t0 = performance.now();
    await generateRuns(client, RUNS, TESTS, now);
    console.log(
      `health: ${RUNS.toLocaleString("en")} runs of ${TESTS.toLocaleString("en")} tests loaded straight into ClickHouse (INSERT ... SELECT from numbers(), the shape the JUnit route stores; not through the route) and merged in ${((performance.now() - t0) / 1000).toFixed(1)} s (${load()})`,
    );
    // The window of the Tests page: 14 days back from now, to the millisecond.
    const key = { repository: REPO, branch: "main", windowDays: 14 };
    const q = { repository: REPO, branch: "main", from: new Date(now - 14 * 86_400_000) };
    // Computed at each read (before the list was kept): what a recomputation costs.
    const compute = await timed(ROW_ROUNDS, () => healthList(client, q, new Date()));
    console.log(`health: the list computed (every test, ordered; a recomputation) ${ms(compute)}`);
    // Kept: the first read computes, the others cut a page from the kept list.
    await kept.list(key);
    const pages = [
      { name: "first page of 100 (the Tests page)", offset: 0, limit: 100 },
      { name: "first page of 500", offset: 0, limit: 500 },
      { name: `page of 100 at ${Math.floor(TESTS / 2)}`, offset: Math.floor(TESTS / 2), limit: 100 },
    ];
    const paged = [];
    for (const pg of pages)
      paged.push({
        ...pg,
        ...(await timed(ROUNDS, async () => cutPage(await kept.list(key), { statuses: [], ...pg }))),
      });
    for (const pg of paged)
      console.log(`health: kept list, ${pg.name}, totals ${JSON.stringify(pg.last.totals)}: ${ms(pg)}`);
    // What ListTests reads of ClickHouse's figures: the page and its tests' failures per UTC day.
    const withDaily = await timed(ROUNDS, async () => {
      const list = await kept.list(key);
      const page = cutPage(list, { statuses: [], offset: 0, limit: 100 });
      return page.tests.map((h) => ({ h, daily: failuresPerDay(list, h.testId) }));
    });
    console.log(
      `health: kept list, first page of 100 with its failures per day (ListTests' figures): ${ms(withDaily)}`,
    );
    console.log(
      `health: a page's figures at p95: ${compute.p95.toFixed(1)} ms computed at read (CPU p50 ${compute.cpu50.toFixed(1)} ms), ${withDaily.p95.toFixed(2)} ms cut from the kept list (CPU p50 ${withDaily.cpu50.toFixed(2)} ms) (${load()})`,
    );
    // Brute force: the kept list, paged, against the rows' figures over the same window.
    const list = await kept.list(key);
    const rows = await timed(ROW_ROUNDS, () => testHealthFromRuns(client, { ...q, from: list.from }));
    const agg = await testHealth(client, { ...q, from: list.from });
    const statuses: Record<string, number> = { broken: 0, flaky: 0, healthy: 0 };
    for (const x of rows.last) statuses[x.status] = (statuses[x.status] ?? 0) + 1;
    const canonical = (h: TestHealth[]) => JSON.stringify([...h].sort((a, b) => a.testId.localeCompare(b.testId)));
    const same = canonical(agg) === canonical(rows.last);
    const ordered = [...rows.last]
      .sort(listOrder)
      .map((h) => ({ ...h, firstFailureCommit: null, lastFailureCommit: null, firstFailurePulls: [] }));
    const pagesRight = pages.every((pg) => {
      const page = cutPage(list, { statuses: [], ...pg });
      return (
        JSON.stringify(page.tests) === JSON.stringify(ordered.slice(pg.offset, pg.offset + pg.limit)) &&
        JSON.stringify(page.totals) === JSON.stringify(statuses)
      );
    });
    console.log(`health: every test, from the rows (the reference, ${ROW_ROUNDS} rounds): ${ms(rows)}`);
    // Under a steady ingest: an upload of every test each second, the first page read every 50 ms.
    const firstK = Math.ceil(RUNS / TESTS);
    const idle = await idleLoop(3);
    const before = computed.length;
    const ingest = await underIngest(client, kept, key, {
      tests: TESTS,
      firstK,
      seconds: INGEST_SECONDS,
      everyMs: 1000,
    });
    const during = computed.slice(before);
    console.log(
      `health: under ingest (${ingest.uploads} uploads of ${TESTS.toLocaleString("en")} runs in ${INGEST_SECONDS} s): ${ingest.computations} recomputations (one per ${(INGEST_SECONDS / Math.max(1, ingest.computations)).toFixed(1)} s), wall p50 ${pct(during, 0.5).toFixed(0)} ms, max ${Math.max(...during).toFixed(0)} ms; first page read (from its arrival, the event loop's wait included) p50 ${ingest.readP50.toFixed(1)} ms, p95 ${ingest.readP95.toFixed(1)} ms; event loop delay p99 ${ingest.loopP99.toFixed(0)} ms, max ${ingest.loopMax.toFixed(0)} ms (idle baseline p99 ${idle.p99.toFixed(0)} ms, max ${idle.max.toFixed(0)} ms); an upload shown after p50 ${(ingest.staleP50 / 1000).toFixed(1)} s, max ${(ingest.staleMax / 1000).toFixed(1)} s (${ingest.unseen} never shown) (${load()})`,
    );
    // Quiet again: a run that makes a healthy test flaky, after a quiet spell of 10 s (computed at
    // once), then another right after (the interval has not passed since the last computation).
    await sleep(10_000);
    const quietFirst = await stalenessOf(client, kept, key, 50, firstK + ingest.uploads - 1);
    const quietNext = await stalenessOf(client, kept, key, 150, firstK + ingest.uploads - 1);
    console.log(
      `health: a run making a test flaky shown in the list after ${(quietFirst / 1000).toFixed(2)} s (after a quiet spell), ${(quietNext / 1000).toFixed(2)} s (right after another) (${load()})`,
    );
    const slowest = Math.max(...computed);
    const bound = 10_000 + 2 * slowest;
    console.log(
      `${pass(same)} health: the aggregates give what the rows give for all ${agg.length.toLocaleString("en")} tests`,
    );
    console.log(`${pass(pagesRight)} health: each page of the kept list and its totals are those of the rows' figures`);
    const worst = Math.max(withDaily.p95, ...paged.map((pg) => pg.p95));
    console.log(
      `${pass(worst <= 100)} health: a page's p95 ≤ 100 ms for ${TESTS.toLocaleString("en")} tests × ${RUNS.toLocaleString("en")} runs (worst ${worst.toFixed(1)} ms)`,
    );
    console.log(
      `${pass(ingest.readP95 <= 100)} health: under ingest, a page's p95 from its arrival ≤ 100 ms (${ingest.readP95.toFixed(1)} ms)`,
    );
    const stalest = Math.max(ingest.staleMax, quietFirst, quietNext);
    console.log(
      `${pass(stalest <= bound && ingest.unseen === 0)} health: a stored run shows within 10 s + two computations (${(bound / 1000).toFixed(1)} s; stalest ${(stalest / 1000).toFixed(1)} s)`,
    );
  } finally {
    await kept.close();
    await client.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const parts = new Set((values.only ?? "health,ingest").split(","));
if (parts.has("health")) await health();
if (parts.has("ingest")) await ingest();
