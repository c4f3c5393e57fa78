/**
 * The pull request simulation names the scheduled freezes that concern the pull request
 * (services/simulator/freeze-notes.ts, docs/scheduled-freeze.md): one that holds its merge now,
 * one that will when it begins; not one that ended, nor one whose conditions leave it out. Through
 * the SimulatorService over a real database, the forge a test double.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ForgePort } from "../../services/forge/types.js";
import { createSimulatorService } from "../../services/simulator/index.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { labels, pullRequest } from "../config/builders.js";

const NOW = Date.parse("2026-12-24T12:00:00Z");
const HOUR = 3_600_000;
let db: TestDatabase;

beforeAll(async () => {
  db = await freshDatabase();
  // Four freezes: active now, beginning in a week (open-ended), ended last week, and one for docs only.
  await db.pool.query(
    "INSERT INTO scheduled_freezes (id, repository, reason, start_at, end_at, timezone, matching_conditions, exclude_conditions, created_by, created_at) VALUES" +
      " (gen_random_uuid(), 'acme/widgets', 'release 2.0', $1, $2, 'Europe/Paris', '[\"base=main\"]', '[\"label=hotfix\"]', '{}', now())," +
      " (gen_random_uuid(), 'acme/widgets', 'new year', $3, NULL, 'UTC', '[]', '[]', '{}', now())," +
      " (gen_random_uuid(), 'acme/widgets', 'last week', $4, $5, 'UTC', '[]', '[]', '{}', now())," +
      " (gen_random_uuid(), 'acme/widgets', 'docs only', $1, $2, 'UTC', '[\"label=docs\"]', '[]', '{}', now())",
    [
      new Date(NOW - HOUR),
      new Date(NOW + 72 * HOUR),
      new Date(NOW + 7 * 24 * HOUR),
      new Date(NOW - 9 * 24 * HOUR),
      new Date(NOW - 7 * 24 * HOUR),
    ],
  );
});
afterAll(() => db?.drop());

async function summaryFor(prLabels: string[]): Promise<string> {
  const forge = {
    getPullRequest: async () => pullRequest({ number: 7, base: "main", labels: labels(...prLabels) }),
  } as unknown as ForgePort;
  const service = createSimulatorService({ db: db.pool, forge, now: () => NOW });
  const res = await service.simulatePullRequest!(
    { owner: "acme", repository: "widgets", number: 7n, serviceYml: "queue_rules:\n  - name: default\n" } as never,
    undefined as never,
  );
  return (res as { summary: string }).summary;
}

describe("the pull request simulation and scheduled freezes", () => {
  it("names the freeze holding the merge now and the one that will, with their windows", async () => {
    const summary = await summaryFor([]);
    expect(summary).toContain("### Scheduled freezes");
    expect(summary).toContain(
      "- ❄️ **release 2.0**, from 2026-12-24T11:00:00Z to 2026-12-27T12:00:00Z (Europe/Paris): it holds this pull request's merge now; its checks still run.",
    );
    expect(summary).toContain(
      "- ❄️ **new year**, from 2026-12-31T12:00:00Z until it is deleted (UTC): it will hold this pull request's merge while it lasts.",
    );
    expect(summary).not.toContain("last week");
    expect(summary).not.toContain("docs only");
  });

  it("leaves out a freeze whose exclude conditions let the pull request through", async () => {
    const summary = await summaryFor(["hotfix"]);
    expect(summary).not.toContain("release 2.0");
    expect(summary).toContain("new year");
  });
});
