/**
 * The health part of `npm run bench:ci` (bench/ci.ts; docs/benchmarks.md "CI Insights"): runs
 * generated straight into an embedded ClickHouse (`INSERT ... SELECT` from `numbers()`, the shape
 * the JUnit route stores: the same test ids and names, one commit per two runs, flaky and broken
 * tests, days), what a read costs, and the kept list of tests (services/ci-insights/kept-health.ts)
 * under a steady ingest: its recomputations and how stale the list gets.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";
import type { ClickHouseClient } from "../services/activity-log/index.js";
import type { KeptHealth, KeptKey } from "../services/ci-insights/index.js";
import { cutPage, type HealthList } from "../services/ci-insights/health-page.js";

export const REPO = "bench/health";

/** A figure's p50/p95 wall and p50 CPU, in milliseconds. */
export interface Timing {
  p50: number;
  p95: number;
  cpu50: number;
}

export const pct = (xs: number[], x: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.max(0, Math.ceil(x * xs.length) - 1))] ?? Number.NaN;

/** Times `f` `rounds` times after 2 warm-up calls: wall and CPU (the process's: chdb's threads count). */
export async function timed<T>(rounds: number, f: () => Promise<T>): Promise<Timing & { last: T }> {
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
  return { last: last as T, p50: pct(times, 0.5), p95: pct(times, 0.95), cpu50: pct(cpu, 0.5) };
}

export const ms = (x: Timing) =>
  `p50 ${x.p50.toFixed(1)} ms, p95 ${x.p95.toFixed(1)} ms (CPU p50 ${x.cpu50.toFixed(1)} ms)`;

/** The outcome rule of a generated run of test `t` (SQL) at its `k`-th run: ≡ 1 (mod 1000) broken, ≡ 0 (mod 100) flaky. */
const OUTCOME = "multiIf(t % 1000 = 1, 'failed', t % 100 = 0 AND k % 2 = 1, 'failed', 'passed')";

/** The INSERT of runs `k` of every test `t` (`source` gives number, t, k), at `at` (SQL, DateTime64). */
const insertRuns = (source: string, at: string) => `INSERT INTO test_runs
    (repository, pipeline, job, test_id, name, outcome, duration_ms, head_sha, branch, run_id, attempt, received_at)
  SELECT '${REPO}', 'ci', 'unit',
    toUUID(concat('00000000-0000-4000-8000-', leftPad(toString(t), 12, '0'))), concat('pkg.test_', toString(t)),
    ${OUTCOME}, 10 + t % 90, toString(intDiv(k, 2)), 'main', toString(k), 1, ${at}
  FROM (${source})`;

/**
 * `runs` runs of `tests` tests spread over the 15 days before `now` (ms), so that a 14-day window
 * starts inside a day that has runs: run k of every test is the k-th upload; then merged.
 */
export async function generateRuns(client: ClickHouseClient, runs: number, tests: number, now: number) {
  await client.command({
    query: insertRuns(
      `SELECT number, number % ${tests} AS t, intDiv(number, ${tests}) AS k FROM numbers(${runs})`,
      `fromUnixTimestamp64Milli(toInt64(${now} - (${runs} - number) * (15 * 86400000 / ${runs})))`,
    ),
  });
  for (const table of ["test_runs", "test_health_daily", "test_health_commits"])
    await client.command({ query: `OPTIMIZE TABLE ${table} FINAL` });
}

/** One upload's runs: run `k` of every test, stored now (what one JUnit upload of every test stores). */
export async function uploadRuns(client: ClickHouseClient, tests: number, k: number): Promise<void> {
  await client.command({
    query: insertRuns(`SELECT number, number AS t, toUInt64(${k}) AS k FROM numbers(${tests})`, "now64(3, 'UTC')"),
  });
}

/** A failed re-run of test `t` on the commit of run `k` (where it passed): `t` becomes flaky. */
export async function flipToFlaky(client: ClickHouseClient, t: number, k: number): Promise<void> {
  await client.command({
    query: `INSERT INTO test_runs (repository, pipeline, job, test_id, name, outcome, duration_ms, head_sha, branch, run_id, attempt, received_at)
      VALUES ('${REPO}', 'ci', 'unit', toUUID('00000000-0000-4000-8000-${String(t).padStart(12, "0")}'),
        'pkg.test_${t}', 'failed', 10, '${Math.floor(k / 2)}', 'main', '${k}', 2, now64(3, 'UTC'))`,
  });
}

export const sleep = (msec: number) => new Promise((r) => setTimeout(r, msec));
/** When a kept list was computed (its window's end), in ms. */
export const computedAt = (list: HealthList, windowDays: number) => list.from.getTime() + windowDays * 86_400_000;

/**
 * A steady ingest for `seconds`: an upload of every test each `everyMs`, the kept list told of
 * each, while the first page is read every 50 ms. Gives the reads' wall times, the computations
 * started, and per upload the time until a read showed a list computed after it (staleness).
 */
/** The event loop's delay over `seconds` of idling (the baseline of {@link underIngest}'s), ms. */
export async function idleLoop(seconds: number) {
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  await sleep(seconds * 1000);
  loop.disable();
  return { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 };
}

export async function underIngest(
  client: ClickHouseClient,
  kept: KeptHealth,
  key: KeptKey,
  o: { tests: number; firstK: number; seconds: number; everyMs: number },
) {
  const reads: number[] = [];
  const pending: number[] = [];
  const stale: number[] = [];
  const before = kept.computations;
  // A read waits for the event loop too: the computation parses its answer on it.
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const end = performance.now() + o.seconds * 1000;
  let uploads = 0;
  const ingest = async () => {
    while (performance.now() < end) {
      const t = performance.now();
      await uploadRuns(client, o.tests, o.firstK + uploads++);
      kept.stored(key.repository);
      pending.push(Date.now());
      await sleep(Math.max(0, o.everyMs - (performance.now() - t)));
    }
  };
  // A read "arrives" every 50 ms: its time counts from its arrival, so the event loop's delay
  // (a computation parsing its answer, an insert) is in it, as a request would wait for it.
  const read = async () => {
    while (performance.now() < end || pending.length > 0) {
      const arrival = performance.now() + 50;
      await sleep(50);
      const list = await kept.list(key);
      cutPage(list, { statuses: [], offset: 0, limit: 100 });
      reads.push(performance.now() - arrival);
      const at = computedAt(list, key.windowDays);
      while (pending.length > 0 && pending[0]! <= at) stale.push(Date.now() - pending.shift()!);
      if (performance.now() > end + 120_000) break;
    }
  };
  await Promise.all([ingest(), read()]);
  loop.disable();
  return {
    loopP99: loop.percentile(99) / 1e6,
    loopMax: loop.max / 1e6,
    uploads,
    computations: kept.computations - before,
    readP50: pct(reads, 0.5),
    readP95: pct(reads, 0.95),
    staleP50: pct(stale, 0.5),
    staleMax: Math.max(...stale),
    unseen: pending.length,
  };
}

/** The time (ms) from a stored run that makes test `t` flaky to the kept list showing it. */
export async function stalenessOf(client: ClickHouseClient, kept: KeptHealth, key: KeptKey, t: number, k: number) {
  await flipToFlaky(client, t, k);
  kept.stored(key.repository);
  const start = performance.now();
  const name = `pkg.test_${t}`;
  for (;;) {
    const list = await kept.list(key);
    if (list.tests.find((h) => h.name === name)?.status === "flaky") return performance.now() - start;
    if (performance.now() - start > 120_000) return Number.POSITIVE_INFINITY;
    await sleep(20);
  }
}
