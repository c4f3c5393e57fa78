/**
 * The list of tests kept between reads (services/ci-insights/kept-health.ts; docs/ci-insights.md
 * "How fresh the list is"), through the list read the API answers (reads.ts `listTests`) and real
 * JUnit uploads (ingest.ts): the list served equals the health computed from the rows, once
 * computed and again after an upload once recomputed in the background; a read in between is
 * served without a computation; an upload that makes a test flaky shows within the documented
 * bound; concurrent first reads share one computation; a changed window is a new list. Real
 * embedded ClickHouse and PostgreSQL; the recomputation interval is shortened to 300 ms.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClickHouseClient } from "../../services/activity-log/index.js";
import {
  createKeptHealth,
  ingestReport,
  migrateTestRuns,
  type CiInsightsDeps,
  type KeptHealth,
  type TestHealth,
} from "../../services/ci-insights/index.js";
import { updateAutoQuarantine } from "../../services/ci-insights/auto-quarantine.js";
import { listOrder } from "../../services/ci-insights/health-page.js";
import { testHealthFromRuns } from "../../services/ci-insights/health-rows.js";
import { listTests } from "../../services/ci-insights/reads.js";
import { embeddedClickHouse } from "../support/clickhouse.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { eventually } from "../support/eventually.js";

const REPO = "acme/kept";
const DAY = 86_400_000;
const REFRESH_MS = 300;
let db: TestDatabase;
let clickhouse: ClickHouseClient;
let kept: KeptHealth;
let deps: CiInsightsDeps;
/** Added to the real clock for the uploads (runs stored in the past). */
let shift = 0;

/** Uploads one JUnit report of `names` on `sha` (`failing` failed), through the ingest. */
async function upload(sha: string, names: string[], failing: string[] = [], branch = "main", attempt = 1) {
  const cases = names.map((n) => {
    const [classname, name] = n.split(".");
    const failed = failing.includes(n) ? '<failure message="no">trace</failure>' : "";
    return `<testcase classname="${classname}" name="${name}" time="0.01">${failed}</testcase>`;
  });
  const xml = `<?xml version="1.0"?><testsuites><testsuite name="s">${cases.join("")}</testsuite></testsuites>`;
  await ingestReport(deps, {
    repository: REPO,
    kind: "junit",
    bytes: new TextEncoder().encode(xml),
    run: { pipeline: "ci", job: "unit", headSha: sha.padEnd(40, "0"), branch, runId: `${sha}-${attempt}`, attempt },
  });
}

/** Every test's health on `branch` from the rows since `from`, as a listed page shows it, in list order. */
async function reference(branch = "main", from = new Date(0)): Promise<TestHealth[]> {
  return (await testHealthFromRuns(clickhouse, { repository: REPO, branch, from }))
    .sort(listOrder)
    .map((h) => ({ ...h, firstFailureCommit: null, lastFailureCommit: null, firstFailurePulls: [] }));
}

const read = async (branch: string | null = null) => {
  const r = await listTests(deps, REPO, branch, [], 1000);
  return { tests: r.tests.map((t) => t.health), totals: r.totals, daily: r.tests.map((t) => t.daily) };
};
const totalsOf = (tests: TestHealth[]) => {
  const totals = { broken: 0, flaky: 0, healthy: 0 };
  for (const h of tests) totals[h.status]++;
  return totals;
};
const names = Array.from({ length: 12 }, (_, i) => `app.t${i}`);

beforeAll(async () => {
  db = await freshDatabase();
  clickhouse = await embeddedClickHouse();
  await migrateTestRuns(clickhouse);
  await db.pool.query(
    "INSERT INTO repository_products (repository, product, enabled) VALUES ($1::text, 'ci_insights', true)",
    [REPO],
  );
  kept = createKeptHealth(clickhouse, { refreshMs: REFRESH_MS });
  deps = {
    db: db.pool,
    clickhouse,
    logger: pino({ level: "silent" }),
    eventsWritten: () => {},
    now: () => new Date(Date.now() + shift),
    keptHealth: kept,
  };
  // Three days ago, app.old ran (outside a 2-day window, inside the default 14 days).
  shift = -3 * DAY;
  await upload("old", ["app.old"]);
  shift = 0;
  // On main: app.t1 fails on every run (broken); app.t2 fails then passes on one commit (flaky).
  for (let i = 0; i < 6; i++) await upload(`c${i}`, names, ["app.t1", ...(i === 0 ? ["app.t2"] : [])]);
  await upload("c0", ["app.t2"], [], "main", 2);
  await upload("r0", names.slice(0, 4), ["app.t3"], "release");
}, 120_000);

afterAll(async () => {
  await kept?.close();
  await clickhouse?.close();
  await db?.drop();
});

describe("the list of tests kept between reads", () => {
  it("serves the figures of the rows, and reads the kept list without computing it again", async () => {
    const want = await reference();
    expect(new Set(want.map((h) => h.status))).toEqual(new Set(["broken", "flaky", "healthy"]));
    const first = await read();
    expect(first.tests).toEqual(want);
    expect(first.totals).toEqual(totalsOf(want));
    // Failures per UTC day over 14 days, today last: app.t1 failed on each of its 6 runs today.
    const daily = (name: string) => first.daily[first.tests.findIndex((h) => h.name === name)];
    expect(daily("app.t1")).toEqual([...new Array(13).fill(0), 6]);
    expect(daily("app.t0")).toEqual(new Array(14).fill(0));
    const computed = kept.computations;
    expect(await read()).toEqual(first);
    expect(kept.computations).toBe(computed);
  });

  it("shows an upload that makes a test flaky within the documented bound, as the rows give it", async () => {
    await read();
    const status = async (name: string) => (await read()).tests.find((h) => h.name === name)?.status;
    expect(await status("app.t5")).toBe("healthy");
    // app.t5 passed on c5; it now fails on a re-run of c5.
    await upload("c5", ["app.t5"], ["app.t5"], "main", 2);
    // The bound (docs/ci-insights.md "How fresh the list is"): the interval plus a computation.
    await eventually(async () => expect(await status("app.t5")).toBe("flaky"), REFRESH_MS + 10_000, 50);
    const want = await reference();
    await eventually(async () => expect((await read()).tests).toEqual(want), 10_000, 50);
    const listed = await read();
    expect(listed.daily[listed.tests.findIndex((h) => h.name === "app.t5")]).toEqual([...new Array(13).fill(0), 1]);
  });

  it("computes a list once for reads that ask it at the same time", async () => {
    const before = kept.computations;
    const [a, b] = await Promise.all([read("release"), read("release")]);
    expect(kept.computations - before).toBe(1);
    expect(a).toEqual(b);
    expect(a.tests).toEqual(await reference("release"));
    expect(a.totals).toEqual({ broken: 0, flaky: 0, healthy: 4 });
  });

  it("computes the list of the new window when the repository's window changes", async () => {
    expect((await read()).tests.map((h) => h.name)).toContain("app.old");
    const before = kept.computations;
    await updateAutoQuarantine(deps, REPO, { windowDays: 2 }, { type: "user", id: 1, name: "alice" });
    const listed = await read();
    expect(kept.computations - before).toBe(1);
    expect(listed.tests.map((h) => h.name)).not.toContain("app.old");
    expect(listed.tests).toEqual(await reference("main", new Date(Date.now() - 2 * DAY)));
  });

  it("recomputes a list read once its window slid (5 minutes, or a new UTC day), serving the last one meanwhile", async () => {
    const key = { repository: REPO, branch: "main", windowDays: 14 };
    const midnight = Math.ceil(Date.now() / DAY) * DAY;
    for (const [start, later] of [
      [Date.now(), 300_000],
      [midnight - 1000, 2000],
    ] as const) {
      let clock = start;
      const k = createKeptHealth(clickhouse, { refreshMs: 0, now: () => new Date(clock) });
      try {
        const first = await k.list(key);
        clock += 1000;
        expect(await k.list(key)).toBe(first);
        expect(k.computations).toBe(1);
        clock += later;
        // Served the last list without waiting; the new one is computed in the background.
        expect(await k.list(key)).toBe(first);
        const next = await eventually(
          async () => {
            const l = await k.list(key);
            expect(l).not.toBe(first);
            return l;
          },
          10_000,
          20,
        );
        expect(next.from.getTime() - first.from.getTime()).toBe(1000 + later);
        expect(k.computations).toBe(2);
      } finally {
        await k.close();
      }
    }
  });
});
