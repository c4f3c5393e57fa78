/**
 * The traffic the self-tuning default reads from a repository's activity log
 * (services/activity-log/observed-traffic.ts, docs/self-tuning.md), on the embedded ClickHouse: the
 * arrivals, merges, culprits and median CI duration of a window, nothing from outside the window
 * or from another repository, and aborted checks left out of the CI duration.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clickHouseTime, readTrafficSample, type ClickHouseClient } from "../../services/activity-log/index.js";
import { observedTraffic } from "../../services/engine/index.js";
import { embeddedClickHouse } from "../support/clickhouse.js";

const T = Date.UTC(2026, 10, 20, 0);
const H = 3_600_000;
let ch: ClickHouseClient;
let id = 0;

const row = (repository: string, at: number, type: string, metadata: object) => ({
  id: String(++id),
  received_at: clickHouseTime(new Date(at)),
  repository,
  trigger: "Rule: test",
  pull_request: String(id),
  base_ref: "main",
  outcome: "neutral",
  type,
  batch_pull: "-1",
  metadata: JSON.stringify(metadata),
});
const check = (startMin: number, minutes: number, aborted = false) => ({
  aborted,
  speculative_check_pull_request: {
    checks_started_at: new Date(T + startMin * 60_000).toISOString(),
    checks_ended_at: new Date(T + (startMin + minutes) * 60_000).toISOString(),
  },
});

beforeAll(async () => {
  ch = await embeddedClickHouse();
  const rows = [
    // acme/app, hours 0-10: 40 arrivals, 36 merged, 2 culprits, 1 pull request dequeued by hand.
    ...Array.from({ length: 40 }, (_, i) => row("acme/app", T + i * 15 * 60_000, "action.queue.enter", {})),
    ...Array.from({ length: 36 }, (_, i) =>
      row("acme/app", T + H + i * 60_000, "action.queue.leave", { merged: true, dequeue_code: "PR_MERGED" }),
    ),
    row("acme/app", T + 2 * H, "action.queue.leave", { merged: false, dequeue_code: "CHECKS_FAILED" }),
    row("acme/app", T + 2 * H, "action.queue.leave", {
      merged: false,
      dequeue_code: "DROPPED_BY_BISECTION_ELIMINATION",
    }),
    row("acme/app", T + 2 * H, "action.queue.leave", { merged: false, dequeue_code: "PR_MANUALLY_DEQUEUED" }),
    // CI: 20, 30, 30, 40, 50 minutes concluded; one aborted after 5 minutes.
    ...[20, 30, 30, 40, 50].map((m) => row("acme/app", T + 3 * H, "action.queue.checks_end", check(0, m))),
    row("acme/app", T + 3 * H, "action.queue.checks_end", check(0, 5, true)),
    // Outside the window, and another repository.
    row("acme/app", T + 11 * H, "action.queue.enter", {}),
    row("acme/other", T + H, "action.queue.enter", {}),
  ];
  await ch.insert({ table: "events", format: "JSONEachRow", values: rows });
});
afterAll(async () => {
  await ch?.close();
});

describe("the observed traffic of a repository", () => {
  it("counts the window's arrivals, merges and culprits, and the median duration of concluded checks", async () => {
    const s = await readTrafficSample(ch, "acme/app", new Date(T), new Date(T + 10 * H));
    expect(s).toEqual({ arrivals: 40, merged: 36, failed: 2, concludedChecks: 5, medianCiSeconds: 1800, hours: 10 });
    expect(observedTraffic(s)).toEqual({ arrivalsPerHour: 4, ciSeconds: 1800, failureRate: 2 / 38 });
  });

  it("says a window with too little traffic tells nothing, so the static defaults stay", async () => {
    const s = await readTrafficSample(ch, "acme/other", new Date(T), new Date(T + 10 * H));
    expect(s.arrivals).toBe(1);
    expect(s.medianCiSeconds).toBeNull();
    expect(observedTraffic(s)).toBeNull();
  });
});
