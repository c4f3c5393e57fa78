/**
 * `npm run bench:log-cache`: what the `/logs` answer cache (services/activity-log/page-cache.ts)
 * saves when the queue's events arrive while filtered first pages are read, the case behind the
 * filtered `/logs` p99 of `npm run bench:load` (docs/reliability.md "Load"). One repository in the
 * embedded ClickHouse holds 2,000 events of 100 pull requests; each round relays one merge's events
 * (checks end, merged, leave of one pull request, enter of another) and then reads the 14 filter
 * sets of bench:load's `/logs` reader at once, as first pages of a default window whose end moved
 * by the round's second. The same rounds are read through two caches over one engine: "per
 * repository" drops a page for any new event of the repository (the record without the events'
 * kinds: the rule before filters were recorded), "per filter" only for an event its filters may
 * select. Printed: ClickHouse page queries per round, and the time until the last read of a round
 * is answered (p50/p99, ms), with their ratios and PASS/FAIL (per filter makes fewer queries, and
 * its p99 burst is lower). Each answer is checked against an uncached read.
 *
 * Environment: BENCH_ROUNDS (default 200). Wall-clock times on a shared machine vary between runs.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import {
  createClickHouseClient,
  createEventSink,
  createLogPageCache,
  migrateClickHouse,
  type ClickHouseClient,
  type LogFilters,
  type LogPageCache,
} from "../services/activity-log/index.js";
import { readLogRows } from "../services/activity-log/log-page.js";
import type { StoredEventRow } from "../services/store/index.js";

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 200);
const REPO = "bench/cache";
const PULLS = 100;
const DAY = 86_400_000;

const inc = <T>(values: T[]) => ({ mode: "include" as const, values });
const some = [1, 13, 25, 37, 49, 61, 73, 85];
const FILTERS: [LogFilters, number][] = [
  [{ repository: REPO, eventType: inc(["action.queue.checks_end"]) }, 100],
  ...some.map((n): [LogFilters, number] => [{ repository: REPO, pullRequest: inc([BigInt(n)]) }, 10]),
  [{ repository: REPO, eventType: inc(["action.queue.merged"]), baseRef: "main" }, 5],
  [{ repository: REPO, eventType: inc(["action.queue.checks_end"]), outcome: inc(["failure" as const]) }, 10],
  [{ repository: REPO, baseRef: "main" }, 50],
  [{ repository: REPO, eventType: inc(["action.queue.leave"]), pullRequest: inc([85n]) }, 10],
  [{ repository: REPO, eventType: inc(["action.queue.enter", "action.queue.leave"]) }, 20],
];

let nextId = 1;
const event = (atMs: number, type: string, pr: number, outcome = "success"): StoredEventRow => ({
  id: String(nextId++),
  receivedAt: new Date(atMs),
  repository: REPO,
  trigger: "queue",
  pullRequest: String(pr),
  baseRef: "main",
  outcome: outcome as StoredEventRow["outcome"],
  type,
  batchPull: null,
  metadata: "{}",
});
const merge = (atMs: number, pr: number) => [
  event(atMs, "action.queue.checks_end", pr, pr % 7 === 0 ? "failure" : "success"),
  event(atMs, "action.queue.merged", pr),
  event(atMs + 1, "action.queue.leave", pr),
  event(atMs + 1, "action.queue.enter", ((pr + 50) % PULLS) + 1),
];

function counting(client: ClickHouseClient, count: () => void): ClickHouseClient {
  return new Proxy(client, {
    get: (target, key) =>
      key === "query"
        ? (q: { query: string }) => (/FROM events WHERE/.test(q.query) && count(), target.query(q as never))
        : Reflect.get(target, key),
  });
}

const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(p * xs.length))];

async function main(): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "ym-bench-cache-"));
  const client = createClickHouseClient({ embeddedPath: dir });
  try {
    await migrateClickHouse(client);
    const q = { repository: 0, filter: 0 };
    const caches: Record<"repository" | "filter", LogPageCache> = {
      repository: createLogPageCache(counting(client, () => q.repository++)),
      filter: createLogPageCache(counting(client, () => q.filter++)),
    };
    const sink = createEventSink(client, "events", (rows) => {
      caches.filter.sent(rows);
      caches.repository.times.record(
        rows.map((r) => ({ repository: r.repository, receivedAtMs: r.receivedAt.getTime() })),
      );
    });
    let clock = Date.now() - 3_600_000;
    const seed: StoredEventRow[] = [];
    for (let i = 0; i < 500; i++) seed.push(...merge(clock - 3_000_000 + i * 6_000, (i % PULLS) + 1));
    await sink.insertEvents(seed, { mayExist: false });
    const bursts = { repository: [] as number[], filter: [] as number[] };
    const queries = { repository: [] as number[], filter: [] as number[] };
    let wrong = 0;
    for (let round = 0; round < ROUNDS; round++) {
      await sink.insertEvents(merge(clock, (round % PULLS) + 1), { mayExist: false });
      clock += 1000;
      // A default window ends where the log settled: the events of the round before are inside.
      const window = { fromMs: clock - 2000 - DAY, toMs: clock - 2000 };
      const order = round % 2 === 0 ? (["repository", "filter"] as const) : (["filter", "repository"] as const);
      for (const kind of order) {
        const before = q[kind];
        const t0 = performance.now();
        const answers = await Promise.all(FILTERS.map(([f, limit]) => caches[kind].rows(f, window, null, limit)));
        bursts[kind].push(performance.now() - t0);
        queries[kind].push(q[kind] - before);
        if (round % 20 === 0)
          for (const [i, [f, limit]] of FILTERS.entries())
            if (!isDeepStrictEqual(answers[i], await readLogRows(client, f, window, null, limit))) wrong++;
      }
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(`${ROUNDS} rounds of one merge's 4 events, then the ${FILTERS.length} filtered first pages at once`);
    console.log("cache drops a page for      queries/round  burst p50 ms  burst p99 ms");
    for (const kind of ["repository", "filter"] as const)
      console.log(
        `${`any event of the ${kind === "repository" ? "repository" : "filters"}`.padEnd(28)}${mean(queries[kind]).toFixed(2).padStart(13)}${pct(bursts[kind], 0.5).toFixed(1).padStart(14)}${pct(bursts[kind], 0.99).toFixed(1).padStart(14)}`,
      );
    const qRatio = mean(queries.filter) / mean(queries.repository);
    const pRatio = pct(bursts.filter, 0.99) / pct(bursts.repository, 0.99);
    console.log(
      `queries per round, per filter / per repository: ${qRatio.toFixed(2)}: ${qRatio < 1 ? "PASS" : "FAIL"}`,
    );
    console.log(`burst p99, per filter / per repository: ${pRatio.toFixed(2)}: ${pRatio < 1 ? "PASS" : "FAIL"}`);
    console.log(`answers equal to an uncached read: ${wrong === 0 ? "PASS" : `FAIL (${wrong} differ)`}`);
    if (wrong > 0 || qRatio >= 1) process.exitCode = 1;
  } finally {
    await client.close();
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
