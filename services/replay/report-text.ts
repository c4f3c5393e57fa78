/**
 * The replay report as text for a person (docs/replay.md "The report"): one fact per line,
 * numbers first, and the verdict on the tree last.
 */
import type { ReplayReport } from "./report.js";

const seconds = (s: number) => (s < 120 ? `${s.toFixed(1)} s` : `${(s / 60).toFixed(1)} min`);
const list = (ns: number[]) => (ns.length === 0 ? "none" : ns.map((n) => `#${n}`).join(", "));

/** The report's lines (no trailing newline). */
export function formatReport(r: ReplayReport): string {
  const lines = [
    `Replay of ${r.changes} changes into ${r.repository} (${r.mode === "merges" ? "merge commits: pull request heads" : "linear history: one pull request per commit"}), ${seconds(r.wallSeconds)} at speed ${r.speed.toFixed(r.speed < 10 ? 2 : 0)}x`,
    `pull requests: ${r.pullRequests}, merged ${r.merged.length + r.mergedWithLater.length}${
      r.mergedWithLater.length > 0 ? ` (${r.mergedWithLater.length} with a later pull request)` : ""
    }, dequeued ${r.dequeued.length}, not queued ${r.notQueued.length}`,
  ];
  for (const m of r.mergedWithLater)
    lines.push(
      `  merged with a later pull request: #${m.number} (pull ${m.order}): a later head holding its commit merged first (PR_MANUALLY_MERGED)`,
    );
  for (const d of r.dequeued)
    lines.push(`  dequeued #${d.number} (pull ${d.order}): ${d.code}${d.reason ? ` — ${d.reason}` : ""}`);
  for (const n of r.notQueued)
    lines.push(`  not queued ${n.number === null ? "" : `#${n.number} `}(pull ${n.order}): ${n.reason}`);
  if (r.broken.length > 0) lines.push(`broken on purpose (--break): pull ${r.broken.join(", ")}`);
  if (r.outsideChanges.pushed + r.outsideChanges.refused.length > 0) {
    lines.push(
      `outside changes pushed to the base: ${r.outsideChanges.pushed}, refused ${r.outsideChanges.refused.length}`,
    );
    for (const reason of r.outsideChanges.refused) lines.push(`  refused: ${reason}`);
  }
  lines.push(
    `CI runs: ${r.ciRuns} speculative checks started, ${r.ciRunsCompleted} ran to a result, ${r.ciRuns - r.ciRunsCompleted} stopped first (a reset); ${r.ciRunsPerMerge === null ? "no merge" : `${r.ciRunsPerMerge.toFixed(2)} started per merged pull request`}`,
    `time in queue of merged pull requests: ${r.timeInQueue === null ? "none merged" : `mean ${seconds(r.timeInQueue.meanSeconds)}, p95 ${seconds(r.timeInQueue.p95Seconds)}`}`,
    `batches checked: ${r.batches}, bisections: ${r.bisections} (sub-batches checked: ${r.subBatches})`,
    `activity log: ${
      Object.entries(r.log.listed)
        .map(([t, n]) => `${t.replace("action.queue.", "")} ${n}`)
        .join(", ") || "no events"
    }; /logs/aggregate ${r.log.consistent ? "agrees" : `DISAGREES (${JSON.stringify(r.log.aggregated)})`}`,
    ...flakyLines(r),
    `merged pull requests: ${list(r.merged)}`,
    r.tree.equal
      ? `final tree of the base equals the original history's tree at B (${r.tree.actual})`
      : `final tree of the base ${r.tree.actual} differs from the original history's tree at B ${r.tree.expected}${r.broken.length > 0 ? " (expected: pull requests were broken on purpose)" : ""}`,
  );
  return lines.join("\n");
}

/** The flaky tests' lines (none without `--flaky`). */
function flakyLines(r: ReplayReport): string[] {
  const f = r.flaky;
  if (f === null) return [];
  const names = (ns: string[]) => (ns.length === 0 ? "none" : ns.join(", "));
  const ignored = f.ignoredFailures.flatMap((i) => i.tests);
  return [
    `flaky tests (--flaky ${f.rate}): known flaky ${names(f.known)}; quarantined ${names(f.quarantined)}`,
    `  retries (known flaky tests): ${f.retries}; ignored failures (quarantined tests): ${f.ignoredFailures.length} checks passed${ignored.length > 0 ? ` (${[...new Set(ignored)].join(", ")})` : ""}`,
    `  good pull requests sent back: ${f.goodSentBack.length === 0 ? "none" : list(f.goodSentBack)}`,
  ];
}
