/**
 * Quarantines (docs/ci-insights.md "Quarantine"): created by a person (Mergify's
 * `POST .../quarantines` shape, with Yardmaster's assignee and expiry) or by auto-quarantine,
 * lifted by a person or by their expiry; each change and its log event (test.quarantined,
 * test.dequarantined) commit in one transaction. A quarantine past its expiry no longer holds,
 * even before the sweep lifts it.
 */
import { randomUUID } from "node:crypto";
import type { ActorInfo } from "../auth/index.js";
import { DomainError, invalidField } from "../contracts/index.js";
import { appendToOutbox, ciInsightsStore as store, withTransaction } from "../store/index.js";
import { defaultBranchOf, nowOf, type CiInsightsDeps } from "./deps.js";
import { dequarantinedEvent, quarantinedEvent } from "./events.js";
import { testHealth, type HealthStatus } from "./health.js";
import { searchTests } from "./test-runs.js";

type QuarantineRow = store.QuarantineRow;

/** What a person asks to quarantine. */
export interface QuarantineInput {
  repository: string;
  testName: string;
  reason: string;
  branch: string | null;
  assignee: string | null;
  expiresAt: Date | null;
}

/** Whether a quarantine holds at `now` (not past its expiry). */
export const holds = (q: QuarantineRow, now: Date): boolean => q.expiresAt === null || q.expiresAt > now;

/** The test's id and health on a branch, when the test has runs (for the event's health_status_at_event). */
async function knownTest(
  deps: CiInsightsDeps,
  repository: string,
  name: string,
  branch: string,
): Promise<{ testId: string | null; health: HealthStatus }> {
  const found = await searchTests(deps.clickhouse, repository, {
    names: [name],
    pipelines: [],
    pipelinesExcluded: [],
    jobs: [],
    jobsExcluded: [],
    limit: 2,
  });
  if (found.length !== 1) return { testId: null, health: "healthy" };
  const since = new Date(nowOf(deps).getTime() - 30 * 86_400_000);
  const [h] = await testHealth(deps.clickhouse, { repository, branch, from: since, testIds: [found[0]!.test_id] });
  return { testId: found[0]!.test_id, health: h?.status ?? "healthy" };
}

/**
 * Quarantines a test for a person; logs test.quarantined.
 * @throws DomainError already_exists when the test is quarantined already; invalid_argument naming
 *   expires_at when it is not in the future
 */
export async function createQuarantine(
  deps: CiInsightsDeps,
  input: QuarantineInput,
  by: ActorInfo,
): Promise<QuarantineRow> {
  const now = nowOf(deps);
  if (input.expiresAt !== null && input.expiresAt <= now) throw invalidField("expires_at", "must be in the future");
  const branch = input.branch ?? (await defaultBranchOf(deps, input.repository));
  const known = await knownTest(deps, input.repository, input.testName, branch);
  const row = await withTransaction(deps.db, async (client) => {
    const inserted = await store.insertQuarantine(client, {
      id: randomUUID(),
      repository: input.repository,
      testName: input.testName,
      testId: known.testId,
      reason: input.reason,
      branch: input.branch,
      source: "manual",
      assignee: input.assignee,
      expiresAt: input.expiresAt,
      healthStatusAtEvent: known.health,
      isRecovered: false,
      createdAt: now,
    });
    if (inserted === null) return null;
    await appendToOutbox(client, [quarantinedEvent(inserted, by)]);
    return inserted;
  });
  if (row === null) {
    const existing = await store.findQuarantineByName(deps.db, input.repository, input.testName);
    throw new DomainError(
      "already_exists",
      `test "${input.testName}" is already quarantined${existing ? ` (id ${existing.id})` : ""}`,
    );
  }
  deps.eventsWritten();
  return row;
}

/**
 * Lifts a quarantine for a person; logs test.dequarantined.
 * @throws DomainError not_found when the repository has no quarantine with this id
 */
export async function deleteQuarantine(
  deps: CiInsightsDeps,
  repository: string,
  id: string,
  by: ActorInfo,
): Promise<void> {
  const now = nowOf(deps);
  const deleted = await withTransaction(deps.db, async (client) => {
    const row = await store.deleteQuarantine(client, repository, id);
    if (row) await appendToOutbox(client, [dequarantinedEvent(row, by, now)]);
    return row;
  });
  if (deleted === null) throw new DomainError("not_found", `no quarantine ${id} in ${repository}`);
  deps.eventsWritten();
}

/** The quarantines in force (not expired), oldest first. */
export async function listQuarantines(deps: CiInsightsDeps, repository: string): Promise<QuarantineRow[]> {
  const now = nowOf(deps);
  return (await store.listQuarantines(deps.db, repository)).filter((q) => holds(q, now));
}

/**
 * Splits test names into quarantined on `branch` and not: each name once, in the order given.
 * @returns the two lists and the quarantines that matched, by test name
 */
export async function checkQuarantines(
  deps: CiInsightsDeps,
  repository: string,
  names: readonly string[],
  branch: string,
): Promise<{ quarantined: string[]; notQuarantined: string[]; byName: Map<string, QuarantineRow> }> {
  const now = nowOf(deps);
  const unique = [...new Set(names)];
  const rows = (await store.quarantinedAmong(deps.db, repository, unique, branch)).filter((q) => holds(q, now));
  const byName = new Map(rows.map((q) => [q.testName, q]));
  return {
    quarantined: unique.filter((n) => byName.has(n)),
    notQuarantined: unique.filter((n) => !byName.has(n)),
    byName,
  };
}
