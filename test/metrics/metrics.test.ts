/**
 * The metrics registry (services/metrics): figures move the named series, label values stay
 * bounded (docs/observability.md "Label cardinality"), and a failing outbox read does not fail the
 * scrape.
 */
import { describe, expect, it } from "vitest";
import {
  createMetrics,
  MAX_BRANCH_SERIES,
  MAX_REPOSITORY_SERIES,
  OTHER_BRANCH,
  type QueueFigures,
} from "../../services/metrics/index.js";
import { parsePrometheusText, sampleSum } from "../support/prometheus-text.js";

const figures = (branch: string, extra: Partial<QueueFigures> = {}): QueueFigures => ({
  repository: "acme/widgets",
  branches: [{ branch, waiting: 2, checking: 1 }],
  ciRunsStarted: [],
  merges: [],
  dequeues: [],
  queueTimes: [],
  bisections: [],
  ...extra,
});

describe("createMetrics", () => {
  it("folds branches beyond the series bound into __other__", async () => {
    const metrics = createMetrics();
    for (let i = 0; i <= MAX_BRANCH_SERIES; i++)
      metrics.observeRound(figures(`b${i}`, { merges: [{ branch: `b${i}` }] }));
    const samples = parsePrometheusText((await metrics.scrape()).text);
    const merges = samples.filter((s) => s.name === "yardmaster_queue_merges_total");
    expect(merges).toHaveLength(MAX_BRANCH_SERIES + 1);
    expect(sampleSum(samples, "yardmaster_queue_merges_total", { branch: OTHER_BRANCH })).toBe(1);
    // A pair seen before keeps its own series.
    metrics.observeRound(figures("b0", { merges: [{ branch: "b0" }] }));
    const again = parsePrometheusText((await metrics.scrape()).text);
    expect(sampleSum(again, "yardmaster_queue_merges_total", { branch: "b0" })).toBe(2);
  });

  it("shows the repositories a replica works as they are at each scrape, at most 1,000 named", async () => {
    let repositories = Array.from(
      { length: MAX_REPOSITORY_SERIES + 5 },
      (_, i) => `acme/r${String(i).padStart(4, "0")}`,
    );
    const metrics = createMetrics(undefined, () => ({ replica: "host-a:12", replicas: 2, repositories }));
    const first = parsePrometheusText((await metrics.scrape()).text);
    expect(sampleSum(first, "yardmaster_runner_replicas", { replica: "host-a:12" })).toBe(2);
    expect(sampleSum(first, "yardmaster_runner_repositories_worked", { replica: "host-a:12" })).toBe(1005);
    const named = first.filter((s) => s.name === "yardmaster_runner_repository_worked");
    expect(named).toHaveLength(MAX_REPOSITORY_SERIES);
    expect(named[0].labels).toEqual({ replica: "host-a:12", repository: "acme/r0000" });
    // A repository that moved to another replica leaves this one's series at the next scrape.
    repositories = ["acme/r0001"];
    const next = parsePrometheusText((await metrics.scrape()).text);
    expect(
      next.filter((s) => s.name === "yardmaster_runner_repository_worked").map((s) => s.labels.repository),
    ).toEqual(["acme/r0001"]);
    expect(sampleSum(next, "yardmaster_runner_repositories_worked")).toBe(1);
  });

  it("has no replica gauges where the queue does not run", async () => {
    const samples = parsePrometheusText((await createMetrics().scrape()).text);
    expect(samples.filter((s) => s.name.startsWith("yardmaster_runner_"))).toEqual([]);
  });

  it("scrapes with the outbox unreadable, its gauges at -1", async () => {
    const metrics = createMetrics(async () => {
      throw new Error("connection refused");
    });
    const samples = parsePrometheusText((await metrics.scrape()).text);
    expect(sampleSum(samples, "yardmaster_outbox_events")).toBe(-1);
    expect(sampleSum(samples, "yardmaster_outbox_oldest_event_age_seconds")).toBe(-1);
  });
});
