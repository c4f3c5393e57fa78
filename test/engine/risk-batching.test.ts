/**
 * Risk-aware batching (docs/merge-queue.md "Risk-aware batching"): with the queue rule's
 * `risk_aware_batching`, a pull request whose own signals say it is risky ends its batch (checked
 * alone when it comes first), in queue order; without the option, or without a signal, batches
 * form as usual.
 */
import { describe, expect, it } from "vitest";
import { riskReason } from "../../services/engine/index.js";
import { batchOf, configuration, pauseEvent, QueueHarness, queueRule, STORY, unpauseEvent } from "./fixtures.js";

const ownCiFailed = { ownCiFailures: 1, flakyTestsTouched: 0, changedFiles: 3, changedLines: 40 };
const quiet = { ownCiFailures: 0, flakyTestsTouched: 0, changedFiles: 3, changedLines: 40 };

/** Nine pull requests queued while paused (#1, #3 and #6 risky), then the queue unpaused: the batches formed. */
function batchesFormed(riskAware: boolean): string[] {
  const h = new QueueHarness(
    configuration({
      rules: [queueRule({ batch_size: batchOf(4), batch_max_wait_time: 600, risk_aware_batching: riskAware })],
      mergeQueue: { max_parallel_checks: 3 },
    }),
  );
  h.send(pauseEvent());
  for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 9]) h.queue(n, { risk: [1, 3, 6].includes(n) ? ownCiFailed : quiet });
  h.send(unpauseEvent());
  return h.lines(STORY).filter((l) => l.startsWith("create"));
}

describe("risk-aware batching", () => {
  it("ends a batch with a risky pull request, alone when it comes first, in queue order", () => {
    expect(batchesFormed(true)).toEqual([
      "create Batch 1 [1] ahead []",
      "create Batch 2 [2,3] ahead [1]",
      "create Batch 3 [4,5,6] ahead [1,2,3]",
    ]);
  });

  it("batches it with the others when the option is off", () => {
    expect(batchesFormed(false)).toEqual([
      "create Batch 1 [1,2,3,4] ahead []",
      "create Batch 2 [5,6,7,8] ahead [1,2,3,4]",
    ]);
  });

  it("starts a batch ended by a risky pull request without waiting for it to fill", () => {
    const h = new QueueHarness(
      configuration({
        rules: [queueRule({ batch_size: batchOf(3), batch_max_wait_time: 600, risk_aware_batching: true })],
        mergeQueue: { max_parallel_checks: 3 },
      }),
    );
    h.at(0).queue(1, { risk: quiet });
    expect(h.lines(STORY)).toEqual(["timer batch-wait at +10m"]);
    h.at(1).queue(2, { risk: { ...quiet, changedFiles: 80 } });
    expect(h.lines(STORY)).toEqual(["create Batch 1 [1,2] ahead []", "cancel timer batch-wait"]);
  });

  it("names the signal that makes a pull request risky, and none without signals", () => {
    expect(riskReason(ownCiFailed)).toBe("its own CI failed before it was queued");
    expect(riskReason({ ...quiet, flakyTestsTouched: 2 })).toBe("it touches a test known flaky");
    expect(riskReason({ ...quiet, changedFiles: 50 })).toBe("it changes 50 files");
    expect(riskReason({ ...quiet, changedLines: 2000 })).toBe("it changes 2000 lines");
    expect(riskReason({ ...quiet, changedFiles: 49, changedLines: 1999 })).toBeNull();
    expect(riskReason(null)).toBeNull();
  });
});
