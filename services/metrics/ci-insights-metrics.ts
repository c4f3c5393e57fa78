/**
 * CI Insights' metrics (docs/observability.md "CI Insights"): test case executions stored, by
 * outcome (`yardmaster_test_runs_total`), and quarantined tests by source, read from PostgreSQL at
 * each scrape (`yardmaster_quarantined_tests`; -1 when it does not answer).
 */
import { Counter, Gauge, type Registry } from "prom-client";

/** What CI Insights reports to the registry. */
export interface CiInsightsMetrics {
  /** Counts stored test case executions by outcome (passed, failed, skipped, error). */
  testRunsStored(outcomes: Record<string, number>): void;
  /** Reads the quarantined tests per source at each scrape. */
  watchQuarantines(read: () => Promise<{ source: string; count: number }[]>): void;
}

/** Registers the two metrics in `registry`. */
export function ciInsightsMetrics(registry: Registry): CiInsightsMetrics {
  const runs = new Counter({
    name: "yardmaster_test_runs_total",
    help: "Test case executions stored by CI Insights, by outcome.",
    labelNames: ["outcome"],
    registers: [registry],
  });
  for (const outcome of ["passed", "failed", "skipped", "error"]) runs.inc({ outcome }, 0);
  let read: (() => Promise<{ source: string; count: number }[]>) | null = null;
  new Gauge({
    name: "yardmaster_quarantined_tests",
    help: "Tests quarantined, by source (manual or auto); -1 when PostgreSQL did not answer.",
    labelNames: ["source"],
    registers: [registry],
    async collect() {
      if (read === null) return;
      const counts = await read().catch(() => null);
      for (const source of ["manual", "auto"])
        this.set({ source }, counts === null ? -1 : (counts.find((c) => c.source === source)?.count ?? 0));
    },
  });
  return {
    testRunsStored(outcomes) {
      for (const [outcome, n] of Object.entries(outcomes)) if (n > 0) runs.inc({ outcome }, n);
    },
    watchQuarantines(r) {
      read = r;
    },
  };
}
