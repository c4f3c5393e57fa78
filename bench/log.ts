/**
 * `npm run bench:log` (issue "Activity log", Benchmark): loads 10M synthetic events (1,000
 * repositories, a hot one with 10%, 30 days, all 47 types; bench/log/synthetic-events.ts) into the
 * embedded ClickHouse and prints p50/p95 of the service's own handlers on the hot repository — a
 * `/logs` page of 100 with no filter (deep cursor), with `event_type`, with `pull_request`;
 * `/logs/aggregate` over 1 day and 30 days — and the insert rate through the relay's sink. It then
 * loads the same events into PostgreSQL (same columns, the indexes of docs/activity-log.md "Benchmark")
 * and prints the 30-day aggregate there and the ratio. Targets: page p95 <= 20 ms, 30-day
 * aggregate p95 <= 100 ms, ClickHouse >= 8x faster than PostgreSQL on the 30-day aggregate.
 *
 * Environment: BENCH_EVENTS (default 10,000,000), BENCH_RUNS (timed runs per scenario, default
 * and least 200: every p95, PostgreSQL's too, comes from at least 200 samples; docs/activity-log.md
 * "Benchmark"), BENCH_DIR (keep the data between runs: a directory whose events are reused when their count
 * matches; default a temporary directory removed at the end), DATABASE_URL (a PostgreSQL server;
 * default an embedded one in the bench directory), BENCH_SKIP_POSTGRES=1.
 * Timings are wall clock on a shared machine: they vary by ±30% between runs (docs/activity-log.md "Benchmark").
 */
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createClickHouseClient, migrateClickHouse } from "../services/activity-log/index.js";
import { insertThroughput, loadEvents, queryScenarios } from "./log/clickhouse-scenarios.js";
import { MIN_SAMPLES } from "./log/percentiles.js";
import { postgresBaseline } from "./log/postgres-baseline.js";

const N = Number(process.env.BENCH_EVENTS ?? 10_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? MIN_SAMPLES);
if (!(Number.isInteger(RUNS) && RUNS >= MIN_SAMPLES)) {
  console.error(
    `BENCH_RUNS must be a whole number of at least ${MIN_SAMPLES} (a p95 from fewer samples is not a figure)`,
  );
  process.exit(2);
}
/** The synthetic month ends here (a fixed instant, so reused data stays valid). */
const END_MS = Date.UTC(2026, 10, 1);

const keep = process.env.BENCH_DIR !== undefined;
const dir = keep ? path.resolve(process.env.BENCH_DIR!) : await mkdtemp(path.join(os.tmpdir(), "ym-bench-log-"));
await mkdir(path.join(dir, "clickhouse"), { recursive: true });
const fmt = (ms: number) => `${ms.toFixed(1)} ms`;
const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");

const client = createClickHouseClient({ embeddedPath: path.join(dir, "clickhouse") });
try {
  await migrateClickHouse(client);
  console.log(`ClickHouse (embedded): ${await loadEvents(client, N, END_MS)}`);
  console.log(`hot repository org0/repo0; ${RUNS} timed runs per scenario after 3 warm-ups, parameters varied per run`);
  const results = await queryScenarios(client, END_MS, RUNS);
  for (const [name, l] of Object.entries(results))
    console.log(
      `  ${name.padEnd(46)} p50 ${fmt(l.p50).padStart(9)}  p95 ${fmt(l.p95).padStart(9)}  (${l.runs} samples)`,
    );
  const rate = await insertThroughput(client, END_MS);
  console.log(`  insert through the relay's sink (batches of 1,000)   ${Math.round(rate).toLocaleString("en")} rows/s`);

  const pages = Object.entries(results).filter(([k]) => k.startsWith("/logs page"));
  const month = results["/logs/aggregate, 30 days"];
  console.log("targets:");
  for (const [name, l] of pages) console.log(`  ${name}: p95 ${fmt(l.p95)} <= 20 ms: ${verdict(l.p95 <= 20)}`);
  console.log(`  30-day aggregate: p95 ${fmt(month.p95)} <= 100 ms: ${verdict(month.p95 <= 100)}`);

  if (process.env.BENCH_SKIP_POSTGRES === "1") console.log("  PostgreSQL comparison skipped (BENCH_SKIP_POSTGRES=1)");
  else {
    const pg = await postgresBaseline(client, dir, END_MS, N, RUNS, (line) => console.log(line));
    const ratio = pg.best.p95 / month.p95;
    console.log(
      `  30-day aggregate vs PostgreSQL (${pg.bestName}, p95 ${fmt(pg.best.p95)}): ${ratio.toFixed(1)}x faster >= 8x: ${verdict(ratio >= 8)}`,
    );
  }
} finally {
  await client.close();
  if (!keep) await rm(dir, { recursive: true, force: true });
}
