/**
 * Risk-aware batching on a live queue (docs/merge-queue.md "Risk-aware batching"): the runner
 * reads a pull request's own risk signals from its snapshot when it enters the queue, and with
 * the queue rule's `risk_aware_batching` a risky one ends its batch.
 */
import { afterEach, describe, expect, it } from "vitest";
import { riskSignalsOf } from "../../services/runner/risk-signals.js";
import { checkRun, pullRequest } from "../config/builders.js";
import { queueWorld, type QueueWorld } from "./queue-world.js";

describe("the risk signals the runner reads", () => {
  it("counts failed foreign checks and the diff's size, never Yardmaster's own check", () => {
    const pr = pullRequest({
      checks: [
        checkRun("lint", "failure"),
        checkRun("test", "success"),
        checkRun("Yardmaster", "failure", "yardmaster"),
      ],
      files: ["a.ts", "b.ts"],
      addedLines: 10,
      deletedLines: 5,
    });
    expect(riskSignalsOf(pr)).toEqual({ ownCiFailures: 1, flakyTestsTouched: 0, changedFiles: 2, changedLines: 15 });
  });
});

let world: QueueWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

const CONFIG = (riskAware: boolean) =>
  [
    "queue_rules:",
    "  - name: default",
    "    batch_size: 3",
    '    batch_max_wait_time: "5 s"',
    `    risk_aware_batching: ${riskAware}`,
    "merge_queue:",
    "  max_parallel_checks: 2",
    "",
  ].join("\n");

/** The members of each checked batch, in the order the batches started. */
async function batches(w: QueueWorld): Promise<number[][]> {
  const starts = (await w.loggedTypes()).filter((e) => e.type === "action.queue.checks_start");
  const byBatch = new Map<string, number[]>();
  for (const e of starts) {
    const id = String(e.metadata.batch_id);
    byBatch.set(id, [...(byBatch.get(id) ?? []), Number(e.pull_request)]);
  }
  return [...byBatch.values()].map((members) => members.sort((a, b) => a - b));
}

describe("risk-aware batching on the local forge", () => {
  for (const riskAware of [true, false]) {
    it(`${riskAware ? "ends the batch after" : "batches as usual"} a pull request of 60 files with risk_aware_batching: ${riskAware}`, async () => {
      world = await queueWorld(CONFIG(riskAware));
      const w = world;
      const big = Object.fromEntries(Array.from({ length: 60 }, (_, i) => [`big/${i}.txt`, `${i}\n`]));
      const first = await w.pull("first", { "first.txt": "1\n" });
      const risky = await w.pull("big", big);
      const last = await w.pull("last", { "last.txt": "3\n" });
      for (const n of [first, risky, last]) await w.comment(n, "@yardmaster queue");
      await w.until(async () => {
        for (const n of [first, risky, last]) expect((await w.forge.getPullRequest(w.repo, n)).state).toBe("merged");
      });
      expect(await batches(w)).toEqual(riskAware ? [[first, risky], [last]] : [[first, risky, last]]);
    });
  }
});
