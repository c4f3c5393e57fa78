/** The queue's outcomes at info level (docs/observability.md "Logs"): one line each, from a round's log events. */
import { describe, expect, it } from "vitest";
import type { LogEffect } from "../../services/engine/index.js";
import { outcomeLines } from "../../services/runner/round-log.js";

const log = (type: string, pullRequest: number, metadata: Record<string, unknown>): LogEffect => ({
  kind: "log",
  type,
  pullRequest,
  baseRef: "main",
  trigger: "merge queue internal",
  metadata,
});

describe("outcome lines", () => {
  it("say a merge, a dequeue with its code, and a failed batch once for its members", () => {
    const failed = {
      batch_id: "b1",
      batch_name: "Batch 2",
      pull_request_numbers: [3, 4],
      speculative_check_pull_request: { checks_conclusion: "failure" },
      unsuccessful_checks: [{ name: "test" }],
    };
    const lines = outcomeLines("acme/w", [
      log("action.queue.merged", 1, { merge_commit_sha: "abc", queue_name: "default" }),
      log("action.queue.leave", 1, { merged: true }),
      log("action.queue.leave", 2, { merged: false, dequeue_code: "CHECKS_FAILED", reason: "checks failed" }),
      log("action.queue.checks_end", 3, failed),
      log("action.queue.checks_end", 4, failed),
      log("action.queue.checks_end", 5, {
        batch_id: "b2",
        speculative_check_pull_request: { checks_conclusion: "success" },
      }),
      log("action.queue.checks_end", 6, {
        batch_id: "b3",
        aborted: true,
        speculative_check_pull_request: { checks_conclusion: "cancelled" },
      }),
      log("action.queue.enter", 7, {}),
    ]);
    expect(lines).toEqual([
      {
        msg: "pull request merged",
        fields: { repository: "acme/w", branch: "main", pull_request: 1, merge_commit_sha: "abc", queue: "default" },
      },
      {
        msg: "pull request dequeued",
        fields: {
          repository: "acme/w",
          branch: "main",
          pull_request: 2,
          code: "CHECKS_FAILED",
          reason: "checks failed",
        },
      },
      {
        msg: "batch failed its checks",
        fields: {
          repository: "acme/w",
          branch: "main",
          batch: "Batch 2",
          pull_requests: [3, 4],
          conclusion: "failure",
          failing_checks: ["test"],
        },
      },
    ]);
  });
});
