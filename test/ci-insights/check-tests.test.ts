/**
 * failingTestsOfCheck (services/ci-insights/check-tests.ts), the read side the merge queue's
 * verdicts are built on (docs/ci-insights.md "For the merge queue"): the failing tests of one job at
 * one head SHA — a test that failed and then passed on a retry of the same job is not failing —
 * each with its quarantine and its health on the base branch (flaky, or unknown when it never ran
 * there), bounded to the first `limit` by name. Real embedded ClickHouse and PostgreSQL.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClickHouseClient } from "../../services/activity-log/index.js";
import { failingTestsOfCheck, migrateTestRuns, type CiInsightsDeps } from "../../services/ci-insights/index.js";
import { createQuarantine } from "../../services/ci-insights/quarantine.js";
import { embeddedClickHouse } from "../support/clickhouse.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { testRunRows } from "../support/test-runs.js";

const REPO = "acme/shop";
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
let db: TestDatabase;
let clickhouse: ClickHouseClient;
let deps: CiInsightsDeps;

const execution = testRunRows(NOW - 3_600_000);
/** Stores one execution of `name` in `job` at `sha` on `branch`, a second after the previous one. */
const row = (name: string, outcome: "passed" | "failed", job: string, sha: string, branch: string, attempt = 1) =>
  execution({
    repository: REPO,
    name,
    file: `tests/${name}.t`,
    outcome,
    job,
    sha,
    branch,
    baseBranch: "main",
    attempt,
  });

beforeAll(async () => {
  db = await freshDatabase();
  clickhouse = await embeddedClickHouse();
  await migrateTestRuns(clickhouse);
  deps = {
    db: db.pool,
    clickhouse,
    logger: pino({ level: "silent" }),
    eventsWritten: () => {},
    now: () => new Date(NOW),
  };
  const base = "b".repeat(40);
  const head = "c".repeat(40);
  const rows = [
    // On main: app.flaky failed then passed on the same commit (flaky); app.stable passed.
    row("app.flaky", "failed", "test", base, "main"),
    row("app.flaky", "passed", "test", base, "main", 2),
    row("app.stable", "passed", "test", base, "main"),
    row("app.clock", "failed", "test", base, "main"),
    // The checked commit, job test: four failures, one of them passed on the job's retry.
    row("app.flaky", "failed", "test", head, "mq/main/1"),
    row("app.clock", "failed", "test", head, "mq/main/1"),
    row("app.new", "failed", "test", head, "mq/main/1"),
    row("app.retried", "failed", "test", head, "mq/main/1"),
    row("app.retried", "passed", "test", head, "mq/main/1", 2),
    row("app.stable", "passed", "test", head, "mq/main/1"),
    // Another job of the same commit fails another test.
    row("app.lint", "failed", "lint", head, "mq/main/1"),
  ];
  await clickhouse.command({
    query: `INSERT INTO test_runs FORMAT JSONEachRow\n${rows.map((r) => JSON.stringify(r)).join("\n")}`,
  });
  await createQuarantine(
    deps,
    {
      repository: REPO,
      testName: "app.clock",
      reason: "the clock drifts",
      branch: "main",
      assignee: null,
      expiresAt: null,
    },
    { type: "user", id: 1, name: "ada" },
  );
}, 120_000);

afterAll(async () => {
  await clickhouse?.close();
  await db?.drop();
});

const check = { repository: REPO, baseBranch: "main", job: "test", headSha: "c".repeat(40) };

describe("the failing tests of a check run", () => {
  it("are the latest executions that failed in that job, with quarantine and base-branch health", async () => {
    const failing = await failingTestsOfCheck(deps, check);
    expect(failing.map((t) => [t.name, t.quarantined, t.health])).toEqual([
      ["app.clock", true, "healthy"],
      ["app.flaky", false, "flaky"],
      ["app.new", false, "unknown"],
    ]);
    expect(failing[1]).toMatchObject({
      file: "tests/app.flaky.t",
      failureMessage: "app.flaky failed",
      testId: execution.idOf("app.flaky"),
    });
    expect(failing[0]!.quarantineId).not.toBeNull();
  });

  it("reads at most `limit` of them, by name", async () => {
    expect((await failingTestsOfCheck(deps, check, 2)).map((t) => t.name)).toEqual(["app.clock", "app.flaky"]);
  });

  it("are none for a commit or a job without failures", async () => {
    expect(await failingTestsOfCheck(deps, { ...check, headSha: "d".repeat(40) })).toEqual([]);
    expect((await failingTestsOfCheck(deps, { ...check, job: "lint" })).map((t) => t.name)).toEqual(["app.lint"]);
  });
});
