/**
 * Test health from the aggregates (services/ci-insights/health.ts: the daily states the
 * materialized views keep, and the rows of a window's first partial day) against the health from
 * the rows (health-rows.ts), on a generated set: many tests, several branches and days, retries
 * on the same commit, errors and skips, runs at the same millisecond, inserted in many blocks (so
 * the states of one day live in several parts until merged). docs/ci-insights.md "Health".
 * Also the migration's backfill: states rebuilt from the runs stored before the views existed; and
 * the list's pages (health-page.ts: the list computed, then cut) against every test's health
 * from the rows, ordered and filtered in Node.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClickHouseClient } from "../../services/activity-log/index.js";
import { migrateTestRuns, testHealth, type TestHealth } from "../../services/ci-insights/index.js";
import { cutPage, healthList, listOrder } from "../../services/ci-insights/health-page.js";
import { testHealthFromRuns } from "../../services/ci-insights/health-rows.js";
import { embeddedClickHouse } from "../support/clickhouse.js";

const REPO = "acme/health";
const NOW = Date.UTC(2026, 10, 27, 15, 30, 0);
const DAY = 86_400_000;
let clickhouse: ClickHouseClient;

/** A deterministic pseudo-random stream (mulberry32), so a failure can be replayed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString().padStart(12, "0")}`;
const time = (ms: number) => new Date(ms).toISOString().replace("T", " ").replace("Z", "");

/** 60 tests × 3 branches × 20 days of runs: some always fail, some flip on retries, some skip. */
function generated(): Record<string, unknown>[][] {
  const next = random(7);
  const blocks: Record<string, unknown>[][] = [];
  for (let run = 0; run < 120; run++) {
    const at = NOW - 20 * DAY + run * (DAY / 6) + Math.floor(next() * 3_600_000);
    const branch = ["main", "main", "release", "feature/x"][run % 4]!;
    const sha = `sha${Math.floor(run / 2)}`;
    const block: Record<string, unknown>[] = [];
    for (let t = 0; t < 60; t++) {
      const kind = t % 6;
      const r = next();
      const outcome =
        kind === 0
          ? run > 90
            ? "failed"
            : "passed"
          : kind === 1
            ? r < 0.4
              ? "failed"
              : "passed"
            : kind === 2
              ? r < 0.2
                ? "skipped"
                : r < 0.3
                  ? "error"
                  : "passed"
              : kind === 3
                ? "failed"
                : "passed";
      // Tests 4 and 10 get two runs at the same millisecond with different outcomes.
      const twice = t === 4 || t === 10 ? ["passed", "failed"] : [outcome];
      for (const o of twice)
        block.push({
          repository: REPO,
          pipeline: "ci",
          job: t % 2 === 0 ? "unit" : "lint",
          test_id: uuid(t),
          name: `pkg.test_${t}`,
          file: `tests/test_${t}.py`,
          line: t,
          outcome: o,
          duration_ms: 10 + t,
          head_sha: sha,
          branch,
          base_branch: "main",
          run_id: `run${run}`,
          attempt: 1 + (run % 2),
          batch_id: "",
          pull_requests: [run],
          framework: "pytest",
          language: "python",
          failure_message: "",
          upload_id: `u${run}`,
          received_at: time(at),
        });
    }
    blocks.push(block);
  }
  return blocks;
}

const byId = (h: TestHealth[]) => [...h].sort((a, b) => a.testId.localeCompare(b.testId));

/** Every window the service asks: to the millisecond, from a midnight, all history, some tests only. */
const windows = [
  { branch: "main", from: new Date(NOW - 14 * DAY - 12_345) },
  { branch: "main", from: new Date(NOW - 3 * DAY) },
  { branch: "release", from: new Date(Date.UTC(2026, 10, 20)) },
  { branch: "feature/x", from: new Date(0) },
  { branch: "main", from: new Date(NOW - 30 * DAY), testIds: [uuid(0), uuid(3), uuid(4), uuid(59)] },
  { branch: "main", from: new Date(NOW + DAY) },
];

async function expectSamePaths(): Promise<void> {
  for (const w of windows) {
    const q = { repository: REPO, ...w };
    const fromRows = byId(await testHealthFromRuns(clickhouse, q));
    expect(byId(await testHealth(clickhouse, q)), `${w.branch} from ${w.from.toISOString()}`).toEqual(fromRows);
  }
}

beforeAll(async () => {
  clickhouse = await embeddedClickHouse();
  await migrateTestRuns(clickhouse);
  for (const values of generated()) await clickhouse.insert({ table: "test_runs", values, format: "JSONEachRow" });
});

afterAll(async () => {
  await clickhouse?.close();
});

describe("test health from aggregates", () => {
  it("gives what the rows give, for every window", async () => {
    const all = await testHealth(clickhouse, { repository: REPO, branch: "main", from: new Date(0) });
    const statuses = new Set(all.map((h) => h.status));
    // The set covers every status, so an equality below is not an equality of empty answers.
    expect([...statuses].sort()).toEqual(["broken", "flaky", "healthy"]);
    await expectSamePaths();
  });

  it("still does once the parts are merged", async () => {
    for (const table of ["test_runs", "test_health_daily", "test_health_commits"])
      await clickhouse.command({ query: `OPTIMIZE TABLE ${table} FINAL` });
    await expectSamePaths();
  });

  it("rebuilds the states of runs stored before the views existed (the migration's backfill)", async () => {
    await clickhouse.command({ query: "TRUNCATE TABLE test_health_daily" });
    await clickhouse.command({ query: "TRUNCATE TABLE test_health_commits" });
    const empty = await testHealth(clickhouse, { repository: REPO, branch: "main", from: new Date(0) });
    expect(empty).toEqual([]);
    await clickhouse.command({ query: "DELETE FROM ci_insights_schema_migrations WHERE version = 2" });
    expect(await migrateTestRuns(clickhouse)).toEqual(["0002_test_health_states.sql"]);
    await expectSamePaths();
    // Run again, the guard keeps the backfill from counting the runs twice.
    await clickhouse.command({ query: "DELETE FROM ci_insights_schema_migrations WHERE version = 2" });
    await migrateTestRuns(clickhouse);
    await expectSamePaths();
  });
});

describe("the list of tests, a page at a time", () => {
  it("pages through exactly the ordered list, with the totals per status", async () => {
    for (const w of windows.filter((x) => !x.testIds)) {
      const q = { repository: REPO, ...w };
      const all = (await testHealthFromRuns(clickhouse, q)).sort(listOrder);
      const counts = { broken: 0, flaky: 0, healthy: 0 };
      for (const h of all) counts[h.status]++;
      const list = await healthList(clickhouse, q, new Date(NOW));
      for (const statuses of [[], ["healthy"], ["broken", "flaky"]] as const) {
        const wanted = all.filter((h) => statuses.length === 0 || (statuses as readonly string[]).includes(h.status));
        const seen: TestHealth[] = [];
        let offset: number | null = 0;
        while (offset !== null) {
          const page = cutPage(list, { statuses, offset, limit: 11 });
          expect(page.totals, `${w.branch} ${statuses}`).toEqual(counts);
          expect(page.listed).toBe(wanted.length);
          expect(page.tests.length).toBeLessThanOrEqual(11);
          seen.push(...page.tests);
          offset = page.nextOffset;
        }
        // A page holds the list's figures: all but the failures' commits and pull requests.
        const summaries = wanted.map((h) => ({
          ...h,
          firstFailureCommit: null,
          lastFailureCommit: null,
          firstFailurePulls: [],
        }));
        expect(seen, `${w.branch} from ${w.from.toISOString()} ${statuses}`).toEqual(summaries);
      }
    }
  });
});
