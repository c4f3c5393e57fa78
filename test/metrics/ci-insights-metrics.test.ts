/**
 * CI Insights' series in the metrics registry (docs/observability.md "CI Insights"): every
 * outcome of `yardmaster_test_runs_total` is exported from the start and counts what is stored;
 * `yardmaster_quarantined_tests{source}` is read at each scrape, 0 for a source with none, and -1
 * while PostgreSQL does not answer, without failing the scrape.
 */
import { describe, expect, it } from "vitest";
import { createMetrics } from "../../services/metrics/index.js";
import { parsePrometheusText, sampleSum } from "../support/prometheus-text.js";

const scrape = async (metrics: ReturnType<typeof createMetrics>) => parsePrometheusText((await metrics.scrape()).text);

describe("CI Insights metrics", () => {
  it("exports every outcome at 0 and counts stored runs by outcome", async () => {
    const metrics = createMetrics();
    const before = await scrape(metrics);
    for (const outcome of ["passed", "failed", "skipped", "error"]) {
      expect(before.some((s) => s.name === "yardmaster_test_runs_total" && s.labels.outcome === outcome)).toBe(true);
      expect(sampleSum(before, "yardmaster_test_runs_total", { outcome })).toBe(0);
    }
    metrics.ciInsights.testRunsStored({ passed: 3, failed: 1, skipped: 0 });
    metrics.ciInsights.testRunsStored({ passed: 2, error: 1 });
    const after = await scrape(metrics);
    expect(sampleSum(after, "yardmaster_test_runs_total", { outcome: "passed" })).toBe(5);
    expect(sampleSum(after, "yardmaster_test_runs_total", { outcome: "failed" })).toBe(1);
    expect(sampleSum(after, "yardmaster_test_runs_total", { outcome: "skipped" })).toBe(0);
    expect(sampleSum(after, "yardmaster_test_runs_total", { outcome: "error" })).toBe(1);
  });

  it("reads quarantined tests by source at each scrape, -1 when the read fails", async () => {
    const metrics = createMetrics();
    let answer: () => Promise<{ source: string; count: number }[]> = async () => [{ source: "auto", count: 4 }];
    metrics.ciInsights.watchQuarantines(() => answer());
    const first = await scrape(metrics);
    expect(sampleSum(first, "yardmaster_quarantined_tests", { source: "auto" })).toBe(4);
    expect(sampleSum(first, "yardmaster_quarantined_tests", { source: "manual" })).toBe(0);
    answer = async () => {
      throw new Error("connection refused");
    };
    const down = await scrape(metrics);
    expect(sampleSum(down, "yardmaster_quarantined_tests", { source: "auto" })).toBe(-1);
    expect(sampleSum(down, "yardmaster_quarantined_tests", { source: "manual" })).toBe(-1);
    answer = async () => [{ source: "manual", count: 2 }];
    const back = await scrape(metrics);
    expect(sampleSum(back, "yardmaster_quarantined_tests", { source: "auto" })).toBe(0);
    expect(sampleSum(back, "yardmaster_quarantined_tests", { source: "manual" })).toBe(2);
  });
});
