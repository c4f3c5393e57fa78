/**
 * The queue's outcomes at `info` level (docs/observability.md "Logs"): one line per pull request
 * merged, per pull request dequeued (with its code and reason) and per batch whose checks failed
 * (its pull requests and failing checks), read from the log events of a committed round, as the
 * metrics are (round-figures.ts). Everything else the runner does stays at `debug`.
 */
import { isFailureCheckState } from "../config/index.js";
import type { LogEffect } from "../engine/index.js";

/** A log line: its message and fields (pino's `logger.info(fields, msg)`). */
export interface OutcomeLine {
  msg: string;
  fields: Record<string, unknown>;
}

const names = (checks: unknown): string[] =>
  Array.isArray(checks) ? checks.map((c) => String((c as { name?: unknown })?.name ?? "")).filter((n) => n !== "") : [];

/** The outcome lines of a round's log events, in their order; one per failed batch. */
export function outcomeLines(repository: string, logs: readonly LogEffect[]): OutcomeLine[] {
  const lines: OutcomeLine[] = [];
  const failedBatches = new Set<string>();
  for (const log of logs) {
    const m = log.metadata;
    const where = { repository, branch: log.baseRef ?? undefined };
    if (log.type === "action.queue.merged")
      lines.push({
        msg: "pull request merged",
        fields: { ...where, pull_request: log.pullRequest, merge_commit_sha: m.merge_commit_sha, queue: m.queue_name },
      });
    else if (log.type === "action.queue.leave" && m.merged !== true)
      lines.push({
        msg: "pull request dequeued",
        fields: { ...where, pull_request: log.pullRequest, code: m.dequeue_code, reason: m.reason },
      });
    else if (log.type === "action.queue.checks_end" && m.aborted !== true) {
      const check = m.speculative_check_pull_request as { checks_conclusion?: unknown } | undefined;
      const conclusion = String(check?.checks_conclusion ?? "");
      const batch = String(m.batch_id ?? m.batch_name ?? "");
      if (!isFailureCheckState(conclusion) || failedBatches.has(batch)) continue;
      failedBatches.add(batch);
      lines.push({
        msg: "batch failed its checks",
        fields: {
          ...where,
          batch: m.batch_name,
          pull_requests: m.pull_request_numbers,
          conclusion,
          failing_checks: names(m.unsuccessful_checks),
        },
      });
    }
  }
  return lines;
}
