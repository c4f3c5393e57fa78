/**
 * Auto-quarantine (docs/ci-insights.md "Auto-quarantine"): the settings and their events, and the
 * sweep that, for each repository with CI Insights and auto-quarantine enabled,
 * - quarantines (on every branch, source `auto`, no actor) each test of the default branch that is
 *   flaky with at least `min_runs` runs and a flakiness ratio of at least `flakiness_threshold`
 *   in the window — and, unless `ignore_broken_on_default_branch`, each broken one — for
 *   `expiry_days` (0: until lifted); logs test.quarantined with its health at the time;
 * - lifts every quarantine whose expiry passed (any source), logging test.dequarantined with
 *   `source: auto`;
 * - marks `is_recovered` a quarantined test that ran without a failure over the last
 *   `recovery_days` on the default branch (and clears it after a new failure);
 * - forgets job retry records older than their retention (store/ci-insights/retry-retention.ts).
 * Every write is idempotent (a unique test name per repository, SKIP LOCKED expiry claims), so two
 * processes sweeping at once log each change once.
 */
import { randomUUID } from "node:crypto";
import type { ActorInfo } from "../auth/index.js";
import { invalidField } from "../contracts/index.js";
import { appendToOutbox, ciInsightsStore as store, productStates, withTransaction } from "../store/index.js";
import { defaultBranchOf, nowOf, type CiInsightsDeps } from "./deps.js";
import { autoQuarantineEvent, dequarantinedEvent, quarantinedEvent } from "./events.js";
import { testHealth } from "./health.js";
import { searchTests } from "./test-runs.js";

type Settings = store.AutoQuarantineRow;

/**
 * Changes the settings given (the others keep their value); logs .enabled, .disabled or .modified
 * when something changed.
 * @throws InvalidArgumentError naming flakiness_threshold outside 0 to 1
 */
export async function updateAutoQuarantine(
  deps: CiInsightsDeps,
  repository: string,
  change: Partial<Settings>,
  by: ActorInfo,
): Promise<Settings> {
  const t = change.flakinessThreshold;
  if (t !== undefined && !(t > 0 && t <= 1)) throw invalidField("flakiness_threshold", "must be above 0 and at most 1");
  const now = nowOf(deps);
  const { after, changed } = await withTransaction(deps.db, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtextextended($1::text, 3301))", [repository]);
    const before = await store.autoQuarantineSettings(client, repository, true);
    const next: Settings = { ...before };
    for (const [k, v] of Object.entries(change))
      if (v !== undefined) (next as unknown as Record<string, unknown>)[k] = v;
    const same = (Object.keys(before) as (keyof Settings)[]).every((k) => before[k] === next[k]);
    if (same) return { after: before, changed: false };
    await store.saveAutoQuarantineSettings(client, repository, next, now);
    await appendToOutbox(client, [autoQuarantineEvent(repository, before, next, by, now)]);
    return { after: next, changed: true };
  });
  if (changed) deps.eventsWritten();
  return after;
}

/** What one sweep did, for logs and tests. */
export interface SweepReport {
  quarantined: string[];
  lifted: string[];
  recovered: string[];
  /** Job retry records forgotten (decisions, job counts, days of usage). */
  forgotten: number;
}

/** Runs the sweep once over every repository (see the module comment). */
export async function sweepCiInsights(deps: CiInsightsDeps): Promise<SweepReport> {
  const report: SweepReport = { quarantined: [], lifted: [], recovered: [], forgotten: 0 };
  for (const repository of await store.autoQuarantineRepositories(deps.db)) {
    if (!(await productStates(deps.db, repository)).ci_insights) continue;
    report.quarantined.push(...(await autoQuarantine(deps, repository)));
  }
  report.lifted.push(...(await liftExpired(deps)));
  for (const repository of await store.repositoriesWithQuarantines(deps.db))
    report.recovered.push(...(await markRecoveries(deps, repository)));
  const retention = store.RETRY_RECORD_RETENTION_DAYS * 86_400_000;
  const pruned = await store.pruneRetryRecords(deps.db, new Date(nowOf(deps).getTime() - retention));
  report.forgotten = pruned.decisions + pruned.jobs + pruned.days;
  if (report.quarantined.length || report.lifted.length) deps.eventsWritten();
  return report;
}

async function autoQuarantine(deps: CiInsightsDeps, repository: string): Promise<string[]> {
  const s = await store.autoQuarantineSettings(deps.db, repository);
  const now = nowOf(deps);
  const branch = await defaultBranchOf(deps, repository);
  const health = await testHealth(deps.clickhouse, {
    repository,
    branch,
    from: new Date(now.getTime() - s.windowDays * 86_400_000),
  });
  const picked = health.filter(
    (h) =>
      h.runs >= s.minRuns &&
      ((h.status === "flaky" && h.flakinessRatio >= s.flakinessThreshold) ||
        (h.status === "broken" && !s.ignoreBrokenOnDefaultBranch)),
  );
  const done: string[] = [];
  for (const h of picked) {
    const row = await withTransaction(deps.db, async (client) => {
      const inserted = await store.insertQuarantine(client, {
        id: randomUUID(),
        repository,
        testName: h.name,
        testId: h.testId,
        reason:
          h.status === "flaky"
            ? `auto-quarantined: flaky on ${branch} (passed and failed on ${h.flakyCommits} of ${h.commits} commits)`
            : `auto-quarantined: broken on ${branch} (its last runs all failed)`,
        branch: null,
        source: "auto",
        assignee: null,
        expiresAt: s.expiryDays > 0 ? new Date(now.getTime() + s.expiryDays * 86_400_000) : null,
        healthStatusAtEvent: h.status,
        isRecovered: false,
        createdAt: now,
      });
      if (inserted) await appendToOutbox(client, [quarantinedEvent(inserted, null)]);
      return inserted;
    });
    if (row) done.push(`${repository} ${h.name}`);
  }
  if (done.length) deps.logger.info({ repository, tests: done.length }, "CI Insights: flaky tests auto-quarantined");
  return done;
}

async function liftExpired(deps: CiInsightsDeps): Promise<string[]> {
  const now = nowOf(deps);
  const lifted: string[] = [];
  for (;;) {
    const batch = await withTransaction(deps.db, async (client) => {
      const rows = await store.expiredQuarantines(client, now, 100);
      for (const q of rows) await store.deleteQuarantine(client, q.repository, q.id);
      if (rows.length)
        await appendToOutbox(
          client,
          rows.map((q) => dequarantinedEvent(q, null, now)),
        );
      return rows;
    });
    lifted.push(...batch.map((q) => `${q.repository} ${q.testName}`));
    if (batch.length < 100) return lifted;
  }
}

async function markRecoveries(deps: CiInsightsDeps, repository: string): Promise<string[]> {
  const quarantines = await store.listQuarantines(deps.db, repository);
  if (quarantines.length === 0) return [];
  const s = await store.autoQuarantineSettings(deps.db, repository);
  const now = nowOf(deps);
  const branch = await defaultBranchOf(deps, repository);
  const ids = await searchTests(deps.clickhouse, repository, {
    names: quarantines.map((q) => q.testName),
    pipelines: [],
    pipelinesExcluded: [],
    jobs: [],
    jobsExcluded: [],
    limit: 10_000,
  });
  const health = await testHealth(deps.clickhouse, {
    repository,
    branch,
    from: new Date(now.getTime() - s.recoveryDays * 86_400_000),
    testIds: ids.map((t) => t.test_id),
  });
  const byName = new Map<string, { runs: number; failures: number }>();
  for (const h of health) {
    const seen = byName.get(h.name) ?? { runs: 0, failures: 0 };
    byName.set(h.name, { runs: seen.runs + h.runs, failures: seen.failures + h.failures });
  }
  // Recovered: it ran in the recovery window, never failing, and was quarantined before the window began.
  const windowStart = now.getTime() - s.recoveryDays * 86_400_000;
  const isRecovered = (q: store.QuarantineRow) => {
    const f = byName.get(q.testName);
    return f !== undefined && f.runs > 0 && f.failures === 0 && q.createdAt.getTime() <= windowStart;
  };
  const now_ = quarantines.filter((q) => !q.isRecovered && isRecovered(q));
  const relapsed = quarantines.filter((q) => q.isRecovered && (byName.get(q.testName)?.failures ?? 0) > 0);
  await store.markRecovered(
    deps.db,
    repository,
    now_.map((q) => q.id),
    true,
  );
  await store.markRecovered(
    deps.db,
    repository,
    relapsed.map((q) => q.id),
    false,
  );
  return now_.map((q) => `${repository} ${q.testName}`);
}
