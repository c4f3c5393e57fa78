/**
 * CI Insights' work in worker threads (docs/ci-insights.md "Limits"): reading uploaded test
 * reports, inflating gzip upload bodies (both in the reports lane, lanes.ts), and matching a retry
 * rule's log pattern (the API lane).
 */
import type { InflateResult } from "./inflate-task.js";
import { laneOf, reportLane } from "./lanes.js";
import type { TestReportResult, TestReportTask } from "./test-report-task.js";

/** A buffer this code owns whole: a view of part of one (Node's pooled small buffers) is copied. */
function owned(b: Uint8Array): Uint8Array {
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? b : b.slice();
}

/**
 * Reads an uploaded test report in a worker thread (test-report-task.ts); `task.bytes` is
 * transferred to the thread (unusable here afterwards).
 * @throws WorkLimitError past the time or memory limit; PoolBusyError when other reports already wait
 */
export function readTestReportBounded(task: TestReportTask, caller = "reports"): Promise<TestReportResult> {
  const bytes = owned(task.bytes);
  const { pool, run } = reportLane(caller);
  return pool.run("testReport", { ...task, bytes }, { ...run, transfer: [bytes.buffer as ArrayBuffer] });
}

/**
 * Inflates a gzip body in a report worker thread (inflate-task.ts), stopping at `max` bytes; the
 * input moves to the thread and the output back.
 * @returns the bytes, or "too_large" past `max`, or the reason the data does not inflate
 * @throws WorkLimitError; PoolBusyError when other reports already wait
 */
export async function inflateBounded(
  bytes: Uint8Array,
  max: number,
  caller = "reports",
): Promise<Uint8Array | "too_large" | { invalid: string }> {
  const input = owned(bytes);
  const { pool, run } = reportLane(caller);
  const r = await pool.run<InflateResult>(
    "inflate",
    { bytes: input, max },
    { ...run, transfer: [input.buffer as ArrayBuffer] },
  );
  if (r instanceof Uint8Array) return r;
  return r.reason === "too_large" ? "too_large" : { invalid: r.message };
}

/**
 * Searches a retry rule's log pattern in a job's log in a worker thread (log-pattern-task.ts).
 * @returns the match (200 characters at most), or null
 * @throws WorkLimitError past the time limit (a pattern that backtracks); PoolBusyError
 */
export function matchLogPatternBounded(pattern: string, text: string): Promise<string | null> {
  const { pool, run } = laneOf({ lane: "api", caller: "retry-rules" });
  return pool.run("logPattern", { pattern, text }, run);
}
