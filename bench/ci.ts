/**
 * `npm run bench:ci` (docs/benchmarks.md "CI Insights"): two targets of docs/ci-insights.md.
 * 1. Ingest through the real route: a server process (`yardmaster serve`, embedded databases)
 *    takes `--results` test results (default 1,000,000) as JUnit uploads of `--per-upload` cases
 *    (default 10,000), two at a time; prints rows/s and the server's event loop delay during the
 *    ingest against its own idle baseline, measured in the same run (loop-probe.ts).
 *    `--profile DIR`: the server's CPU profile, written there when it stops.
 * 2. The health reads: `--runs` executions (default 5,000,000) of `--tests` tests (default 10,000)
 *    over 15 days, generated inside an embedded ClickHouse (through the materialized views); then
 *    what a user's read costs, timed `--rounds` times (default 30): a page of the list over 14 days
 *    with the totals per status (health-page.ts; the first 100, the first 500, 100 in the healthy
 *    tail); and `--row-rounds` times (default 5) every test's health from the daily aggregates and
 *    from the rows (the brute-force reference): p50, p95 and CPU per call.
 * PASS/FAIL lines: the two health paths give the same figures; each page and its totals are the
 * reference's; a page's p95 ≤ 100 ms; ingest loop delay max ≤ 50 ms. `--only health` or `--only ingest` runs one part; `-- --results 200000
 * --runs 1000000` for a short run.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createClient } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ProductService } from "../gen/yardmaster/v1/admin_pb.js";
import { createClickHouseClient } from "../services/activity-log/index.js";
import { migrateTestRuns, testHealth, type TestHealth } from "../services/ci-insights/index.js";
import { healthPage, listOrder } from "../services/ci-insights/health-page.js";
import { testHealthFromRuns } from "../services/ci-insights/health-rows.js";
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
  },
});
const RESULTS = Number(values.results);
const PER_UPLOAD = Number(values["per-upload"]);
const RUNS = Number(values.runs);
const TESTS = Number(values.tests);
const ROUNDS = Number(values.rounds);
const ROW_ROUNDS = Number(values["row-rounds"]);
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
  try {
    await migrateTestRuns(client);
    const now = Date.now();
    const t0 = performance.now();
    // Spread over 15 days, so that the 14-day window starts inside a day that has runs. One run per (test, commit) and a second one on every other commit; tests ≡ 0 (mod 100) flip
    // between the two runs of a commit (flaky), tests ≡ 1 (mod 1000) always fail (broken).
    await client.command({
      query: `INSERT INTO test_runs (repository, pipeline, job, test_id, name, outcome, duration_ms, head_sha, branch, run_id, attempt, received_at)
        SELECT 'bench/health', 'ci', 'unit',
          toUUID(concat('00000000-0000-4000-8000-', leftPad(toString(t), 12, '0'))), concat('pkg.test_', toString(t)),
          multiIf(t % 1000 = 1, 'failed', t % 100 = 0 AND k % 2 = 1, 'failed', 'passed'),
          10 + t % 90, toString(intDiv(k, 2)), 'main', toString(k), 1,
          fromUnixTimestamp64Milli(toInt64(${now} - (${RUNS} - number) * (15 * 86400000 / ${RUNS})))
        FROM (SELECT number, number % ${TESTS} AS t, intDiv(number, ${TESTS}) AS k FROM numbers(${RUNS}))`,
    });
    for (const table of ["test_runs", "test_health_daily", "test_health_commits"])
      await client.command({ query: `OPTIMIZE TABLE ${table} FINAL` });
    console.log(
      `health: ${RUNS.toLocaleString("en")} runs of ${TESTS.toLocaleString("en")} tests generated and merged in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    // The window of the Tests page: 14 days back from now, to the millisecond (so the part of its
    // first day is read from the rows, as in the service).
    const q = { repository: "bench/health", branch: "main", from: new Date(now - 14 * 86_400_000) };
    const timed = async <T>(rounds: number, f: () => Promise<T>) => {
      const times: number[] = [];
      const cpu: number[] = [];
      let last: T | undefined;
      for (let i = 0; i < rounds + 2; i++) {
        const t = performance.now();
        const c = process.cpuUsage();
        last = await f();
        const used = process.cpuUsage(c);
        if (i >= 2) times.push(performance.now() - t);
        if (i >= 2) cpu.push((used.user + used.system) / 1000);
      }
      const p = (xs: number[], x: number) =>
        [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil(x * xs.length) - 1)]!;
      return { last: last as T, p50: p(times, 0.5), p95: p(times, 0.95), cpu50: p(cpu, 0.5) };
    };
    const ms = (x: { p50: number; p95: number; cpu50: number }) =>
      `p50 ${x.p50.toFixed(1)} ms, p95 ${x.p95.toFixed(1)} ms (CPU p50 ${x.cpu50.toFixed(1)} ms)`;
    // What a user's read costs: the page the Tests page asks (100, worst first, with the totals per
    // status), a bigger one (500), and a page deep in the healthy tail (the CLI's --page-token).
    const pages = [
      { name: "first page of 100 (the Tests page)", offset: 0, limit: 100 },
      { name: "first page of 500", offset: 0, limit: 500 },
      { name: `page of 100 at ${Math.floor(TESTS / 2)}`, offset: Math.floor(TESTS / 2), limit: 100 },
    ];
    const paged = [];
    for (const pg of pages)
      paged.push({ ...pg, ...(await timed(ROUNDS, () => healthPage(client, { ...q, statuses: [], ...pg }))) });
    // Every test's health, the whole set (what the list read before it was paged; auto-quarantine's
    // sweep reads it), from the aggregates and from the rows: the brute-force reference.
    const agg = await timed(ROW_ROUNDS, () => testHealth(client, q));
    const rows = await timed(ROW_ROUNDS, () => testHealthFromRuns(client, q));
    const statuses: Record<string, number> = { broken: 0, flaky: 0, healthy: 0 };
    for (const x of rows.last) statuses[x.status] = (statuses[x.status] ?? 0) + 1;
    const canonical = (h: TestHealth[]) => JSON.stringify([...h].sort((a, b) => a.testId.localeCompare(b.testId)));
    const same = canonical(agg.last) === canonical(rows.last);
    // A page holds the list's figures: all but the failures' commits and pull requests.
    const ordered = [...rows.last]
      .sort(listOrder)
      .map((h) => ({ ...h, firstFailureCommit: null, lastFailureCommit: null, firstFailurePulls: [] }));
    const pagesRight = paged.every(
      (pg) =>
        JSON.stringify(pg.last.tests) === JSON.stringify(ordered.slice(pg.offset, pg.offset + pg.limit)) &&
        JSON.stringify(pg.last.totals) === JSON.stringify(statuses),
    );
    for (const pg of paged) console.log(`health: ${pg.name}, totals ${JSON.stringify(pg.last.totals)}: ${ms(pg)}`);
    console.log(`health: every test, from the aggregates (${ROW_ROUNDS} rounds): ${ms(agg)}`);
    console.log(`health: every test, from the rows (the reference, ${ROW_ROUNDS} rounds): ${ms(rows)}`);
    const first = paged[0]!;
    console.log(
      `health: every test from the aggregates / the first page: ${(agg.p95 / first.p95).toFixed(2)}× the wall time at p95, ${(agg.cpu50 / first.cpu50).toFixed(2)}× the CPU`,
    );
    console.log(
      `health: load average ${os
        .loadavg()
        .map((x) => x.toFixed(1))
        .join(" ")} on ${os.cpus().length} cores`,
    );
    console.log(
      `${pass(same)} health: the aggregates give what the rows give for all ${agg.last.length.toLocaleString("en")} tests`,
    );
    console.log(
      `${pass(pagesRight)} health: each page and its totals are those of the rows' figures, ordered and counted in Node`,
    );
    const worst = Math.max(...paged.map((pg) => pg.p95));
    console.log(
      `${pass(worst <= 100)} health: a page's p95 ≤ 100 ms for ${TESTS.toLocaleString("en")} tests × ${RUNS.toLocaleString("en")} runs (worst ${worst.toFixed(1)} ms)`,
    );
  } finally {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  }
}

const parts = new Set((values.only ?? "health,ingest").split(","));
if (parts.has("health")) await health();
if (parts.has("ingest")) await ingest();
