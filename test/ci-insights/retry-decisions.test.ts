/**
 * A job retry decision is idempotent per key (services/ci-insights/retry-rules.ts,
 * docs/ci-insights.md "Job retries"): the same finished job handed over again with the same
 * decision key — a GitHub webhook redelivered after its first processing failed part-way, or
 * delivered twice at once — answers the first decision and counts one retry against the day's
 * quota and the job's max_retry, with one ci_insights.job_retried event. Real PostgreSQL.
 */
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ClickHouseClient } from "../../services/activity-log/index.js";
import { decideRetry, sweepCiInsights, type CiInsightsDeps } from "../../services/ci-insights/index.js";
import { createRetryRule, type FinishedJob } from "../../services/ci-insights/retry-rules.js";
import { ciInsightsStore } from "../../services/store/index.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";

const REPO = "acme/retries";
const NOW = new Date(Date.UTC(2026, 10, 28, 9, 0, 0));
const DAY = "2026-11-28";
let db: TestDatabase;
let deps: CiInsightsDeps;

const job = (decisionKey: string | undefined, headSha = "a".repeat(40)): FinishedJob => ({
  repository: REPO,
  pipeline: "CI",
  job: "unit",
  branch: "main",
  headSha,
  conclusion: "failure",
  log: "connect ECONNRESET",
  workflowRunId: 7,
  jobUrl: null,
  decisionKey,
});

/** The ci_insights.job_retried events written, as [outcome, attempt]. */
async function retriedEvents(): Promise<[string, number][]> {
  const res = await db.pool.query<{ metadata: string }>(
    "SELECT metadata FROM event_outbox WHERE repository = $1 AND type = 'ci_insights.job_retried' ORDER BY id",
    [REPO],
  );
  return res.rows.map((r) => {
    const m = JSON.parse(r.metadata) as { outcome: string; retry_attempt: number };
    return [m.outcome, m.retry_attempt];
  });
}

beforeAll(async () => {
  db = await freshDatabase();
  deps = {
    db: db.pool,
    // The retry decision reads PostgreSQL only.
    clickhouse: null as unknown as ClickHouseClient,
    logger: pino({ level: "silent" }),
    eventsWritten: () => {},
    now: () => NOW,
  };
  await db.pool.query(
    "INSERT INTO repository_products (repository, product, enabled) VALUES ($1, 'ci_insights', true)",
    [REPO],
  );
  await createRetryRule(deps, {
    repository: REPO,
    name: "network",
    jobNames: ["unit"],
    pipelineNames: [],
    branches: [],
    conclusions: [],
    logPattern: "ECONNRESET",
    maxRetry: 3,
    retryMode: "job",
  });
}, 60_000);
afterAll(async () => {
  await db?.drop();
});

describe("a retry decision redelivered", () => {
  it("answers the first decision again and counts one retry and one quota unit", async () => {
    const first = await decideRetry(deps, job("github:check-run:11:attempt:1"));
    expect(first).toEqual({ retry: true, mode: "job", rule: "network", attempt: 1 });
    // The same delivery processed again (its first processing failed after the decision).
    const again = await decideRetry(deps, job("github:check-run:11:attempt:1"));
    expect(again).toEqual({ retry: true, mode: "job", rule: "network", attempt: 1, replayed: true });
    expect(await ciInsightsStore.retriesOn(db.pool, REPO, DAY)).toBe(1);
    expect(await retriedEvents()).toEqual([["retried", 1]]);
    // The run's next attempt is another decision: counted.
    expect(await decideRetry(deps, job("github:check-run:12:attempt:2"))).toMatchObject({ retry: true, attempt: 2 });
    expect(await ciInsightsStore.retriesOn(db.pool, REPO, DAY)).toBe(2);
    expect(await retriedEvents()).toEqual([
      ["retried", 1],
      ["retried", 2],
    ]);
  });

  it("counts once when the same decision is asked twice at the same time", async () => {
    const before = await ciInsightsStore.retriesOn(db.pool, REPO, DAY);
    const events = (await retriedEvents()).length;
    const both = await Promise.all([
      decideRetry(deps, job("github:check-run:21:attempt:1", "b".repeat(40))),
      decideRetry(deps, job("github:check-run:21:attempt:1", "b".repeat(40))),
    ]);
    expect(both.map((d) => d.retry)).toEqual([true, true]);
    expect(both.filter((d) => d.replayed)).toHaveLength(1);
    expect(await ciInsightsStore.retriesOn(db.pool, REPO, DAY)).toBe(before + 1);
    expect(await retriedEvents()).toHaveLength(events + 1);
  });

  it("replays a quota refusal as a refusal, without logging it again", async () => {
    await ciInsightsStore.setDailyRetryQuota(db.pool, REPO, await ciInsightsStore.retriesOn(db.pool, REPO, DAY));
    const events = (await retriedEvents()).length;
    const key = "github:check-run:31:attempt:1";
    expect(await decideRetry(deps, job(key, "c".repeat(40)))).toMatchObject({
      retry: false,
      reason: "skipped_quota_exceeded",
    });
    // The quota is raised before the redelivery: the decision taken stays the one answered.
    await ciInsightsStore.setDailyRetryQuota(db.pool, REPO, 50);
    expect(await decideRetry(deps, job(key, "c".repeat(40)))).toEqual({
      retry: false,
      reason: "skipped_quota_exceeded",
      rule: "network",
      replayed: true,
    });
    expect((await retriedEvents()).slice(events)).toEqual([["skipped_quota_exceeded", 0]]);
  });

  it("without a key (the local CI's retries in one job), every decision counts", async () => {
    const before = await ciInsightsStore.retriesOn(db.pool, REPO, DAY);
    await decideRetry(deps, job(undefined, "d".repeat(40)));
    await decideRetry(deps, job(undefined, "d".repeat(40)));
    expect(await ciInsightsStore.retriesOn(db.pool, REPO, DAY)).toBe(before + 2);
  });
});

describe("retry records past their retention (30 days)", () => {
  const rows = async () => {
    const res = await db.pool.query<{ n: string }>(
      `SELECT (SELECT count(*) FROM ci_retry_decisions WHERE repository = $1)
            + (SELECT count(*) FROM ci_job_retries WHERE repository = $1)
            + (SELECT count(*) FROM ci_retry_usage WHERE repository = $1) AS n`,
      [REPO],
    );
    return Number(res.rows[0]!.n);
  };
  const sweepAt = (daysLater: number) =>
    sweepCiInsights({ ...deps, now: () => new Date(NOW.getTime() + daysLater * 86_400_000) });

  it("are kept within 30 days, so a late redelivery is still answered once", async () => {
    const kept = await rows();
    expect(kept).toBeGreaterThan(0);
    expect((await sweepAt(29)).forgotten).toBe(0);
    expect(await rows()).toBe(kept);
    expect(await decideRetry(deps, job("github:check-run:11:attempt:1"))).toMatchObject({ replayed: true });
  });

  it("are forgotten by the CI Insights sweep after 30 days", async () => {
    const kept = await rows();
    expect((await sweepAt(31)).forgotten).toBe(kept);
    expect(await rows()).toBe(0);
  });
});
