/**
 * The `flakyTestsTouched` risk signal (docs/merge-queue.md "Risk-aware batching"): the files of a
 * pull request's diff that are the file of a test known flaky on its base branch, read from CI
 * Insights' kept list of tests (services/ci-insights/flaky-files.ts) and counted by the runner
 * (services/runner/risk-signals.ts). Real embedded ClickHouse and PostgreSQL.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClickHouseClient } from "../../services/activity-log/index.js";
import {
  createKeptHealth,
  flakyTestFiles,
  MAX_FLAKY_TEST_FILES,
  migrateTestRuns,
  type CiInsightsDeps,
  type KeptHealth,
} from "../../services/ci-insights/index.js";
import { flakyFilesOf } from "../../services/ci-insights/flaky-files.js";
import type { HealthList } from "../../services/ci-insights/health-page.js";
import type { TestHealth } from "../../services/ci-insights/index.js";
import {
  countFlakyTestsTouched,
  flakyTestsTouched,
  type FlakyTestFilesReader,
} from "../../services/runner/risk-signals.js";
import { pullRequest } from "../config/builders.js";
import { embeddedClickHouse } from "../support/clickhouse.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { testRunRows } from "../support/test-runs.js";

const REPO = "acme/shop";
const OFF = "acme/quiet";
let db: TestDatabase;
let clickhouse: ClickHouseClient;
let kept: KeptHealth;
let deps: CiInsightsDeps;
let read: FlakyTestFilesReader;

const execution = testRunRows(Date.now() - 3_600_000);
/** One execution of `name` (its report naming `file`) at `sha` on `branch`, a second after the previous one. */
const row = (
  repository: string,
  name: string,
  file: string,
  outcome: "passed" | "failed",
  sha: string,
  branch: string,
) =>
  execution({
    repository,
    name,
    file,
    outcome,
    job: "test",
    sha,
    branch,
    baseBranch: branch,
    attempt: outcome === "failed" ? 1 : 2,
  });

/** A test that failed then passed on the same commit of `branch`: flaky there. */
const flaky = (repository: string, name: string, file: string, branch = "main", sha = "a".repeat(40)) => [
  row(repository, name, file, "failed", sha, branch),
  row(repository, name, file, "passed", sha, branch),
];

/** A capturing logger at debug level: each line's level and message. */
function capture() {
  const lines: { level: number; msg: string }[] = [];
  const logger = pino({ level: "debug" }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  return { logger, lines };
}

beforeAll(async () => {
  db = await freshDatabase();
  clickhouse = await embeddedClickHouse();
  await migrateTestRuns(clickhouse);
  await db.pool.query(
    "INSERT INTO repository_products (repository, product, enabled) VALUES ($1::text, 'ci_insights', true)",
    [REPO],
  );
  kept = createKeptHealth(clickhouse);
  deps = { db: db.pool, clickhouse, logger: pino({ level: "silent" }), eventsWritten: () => {}, keptHealth: kept };
  read = (q) => flakyTestFiles(deps, q);
  const rows = [
    // main: two flaky tests in one file (one report says ./tests/cart.t), a flaky test with no
    // file, a healthy test and a broken one (failed on 5 commits).
    ...flaky(REPO, "app.cart", "./tests/cart.t"),
    ...flaky(REPO, "app.cart_total", "tests/cart.t"),
    ...flaky(REPO, "app.nofile", ""),
    row(REPO, "app.stable", "tests/stable.t", "passed", "a".repeat(40), "main"),
    ...["1", "2", "3", "4", "5"].map((c) => row(REPO, "app.clock", "tests/clock.t", "failed", c.repeat(40), "main")),
    // release: another flaky test, healthy on main.
    ...flaky(REPO, "app.search", "tests/search.t", "release", "b".repeat(40)),
    row(REPO, "app.search", "tests/search.t", "passed", "a".repeat(40), "main"),
    // CI Insights is off for OFF, though its runs are stored.
    ...flaky(OFF, "app.quiet", "tests/quiet.t"),
  ];
  await clickhouse.command({
    query: `INSERT INTO test_runs FORMAT JSONEachRow\n${rows.map((r) => JSON.stringify(r)).join("\n")}`,
  });
}, 120_000);

afterAll(async () => {
  await kept?.close();
  await clickhouse?.close();
  await db?.drop();
});

const pr = (files: string[], base = "main") => pullRequest({ repository: REPO, base, files });

describe("the files of the tests known flaky on a base branch", () => {
  it("holds the flaky tests' files of that branch only, normalised, from the kept list", async () => {
    const before = kept.computations;
    expect([...((await read({ repository: REPO, baseBranch: "main" })) ?? [])]).toEqual(["tests/cart.t"]);
    expect([...((await read({ repository: REPO, baseBranch: "release" })) ?? [])]).toEqual(["tests/search.t"]);
    // Entering again reads the kept lists: no new computation (no ClickHouse scan per pull request).
    await read({ repository: REPO, baseBranch: "main" });
    await read({ repository: REPO, baseBranch: "release" });
    expect(kept.computations - before).toBe(2);
  });

  it("is null when CI Insights is off for the repository", async () => {
    expect(await read({ repository: OFF, baseBranch: "main" })).toBeNull();
  });

  it(`keeps at most ${MAX_FLAKY_TEST_FILES} files, the list's first`, () => {
    const test = (i: number, status: TestHealth["status"]) => ({ testId: String(i), status, file: `t/${i}.t` });
    const tests = [
      test(0, "broken"),
      ...Array.from({ length: MAX_FLAKY_TEST_FILES + 5 }, (_, i) => test(i + 1, "flaky")),
      test(-1, "healthy"),
    ] as TestHealth[];
    const files = flakyFilesOf({ tests } as HealthList);
    expect(files.size).toBe(MAX_FLAKY_TEST_FILES);
    expect(files.has("t/0.t")).toBe(false);
    expect(files.has("t/1.t")).toBe(true);
    expect(files.has(`t/${MAX_FLAKY_TEST_FILES + 1}.t`)).toBe(false);
  });
});

describe("counting the known flaky tests a pull request touches", () => {
  it("counts each touched file once, however spelled; non-flaky tests and other files do not count", () => {
    const flakyFiles = new Set(["tests/cart.t", "tests/search.t"]);
    expect(countFlakyTestsTouched(["./tests/cart.t", "tests/cart.t", "tests/stable.t", "src/a.ts"], flakyFiles)).toBe(
      1,
    );
    expect(countFlakyTestsTouched(["tests/cart.t", "./tests/search.t"], flakyFiles)).toBe(2);
    expect(countFlakyTestsTouched(["tests/cart.t"], new Set())).toBe(0);
  });

  it("reads the base branch's flaky tests: a test flaky on another branch does not count", async () => {
    const { logger } = capture();
    const diff = ["tests/cart.t", "tests/search.t", "tests/stable.t", "tests/clock.t", "src/cart.ts"];
    const on = (base: string) => flakyTestsTouched(read, { repository: REPO, pr: pr(diff, base), log: logger });
    expect(await on("main")).toBe(1);
    expect(await on("release")).toBe(1);
    expect(await on("develop")).toBe(0);
    expect(
      await flakyTestsTouched(read, { repository: REPO, pr: pr(["tests/stable.t", "src/cart.ts"]), log: logger }),
    ).toBe(0);
  });

  it("is 0 with a debug line when CI Insights is off, with a warning when the reader fails or hangs", async () => {
    const { logger, lines } = capture();
    const input = { pr: pullRequest({ repository: OFF, files: ["tests/quiet.t"] }), log: logger };
    expect(await flakyTestsTouched(read, { ...input, repository: OFF })).toBe(0);
    expect(lines.at(-1)).toMatchObject({ level: 20, msg: "CI Insights is off; no known flaky tests counted" });
    const failing: FlakyTestFilesReader = async () => {
      throw new Error("ClickHouse is down");
    };
    expect(await flakyTestsTouched(failing, { ...input, repository: REPO })).toBe(0);
    expect(lines.at(-1)).toMatchObject({ level: 40, msg: expect.stringContaining("known flaky tests not read;") });
    const hanging: FlakyTestFilesReader = () => new Promise(() => {});
    expect(await flakyTestsTouched(hanging, { ...input, repository: REPO, timeoutMs: 50 })).toBe(0);
    expect(lines.at(-1)).toMatchObject({ level: 40, msg: expect.stringContaining("not read in time") });
    expect(await flakyTestsTouched(null, { ...input, repository: REPO })).toBe(0);
  });
});
