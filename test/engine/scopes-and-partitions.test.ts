/**
 * Scenario tests of queue modes with scopes (docs/domain.md §1.6, §3.3) and partitions (§1.5).
 */
import { describe, expect, it } from "vitest";
import { statusView } from "../../services/engine/index.js";
import { configuration, QueueHarness, sha, STORY } from "./fixtures.js";

describe("scopes and modes", () => {
  it("parallel mode checks disjoint scopes side by side, and they merge independently", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 3, mode: "parallel" } }));
    h.queue(1, { scopes: ["api"] });
    h.queue(2, { scopes: ["web"] });
    h.queue(3, { scopes: ["api"] });
    expect(h.picture()).toEqual([
      "train main/__default__ base 074a83b",
      "  Batch 1 [1] draft creating",
      "  Batch 2 [2] draft creating",
      "  Batch 3 [3] draft creating on Batch 1",
    ]);
    for (const name of ["Batch 1", "Batch 2", "Batch 3"]) h.created(name);
    h.ci("Batch 2", true);
    expect(h.lines(STORY)).toEqual(["log action.queue.checks_end #2 Batch 2 success", "merge Batch 2 [2] merge exact"]);
    const status = statusView(h.state, "main", h.now);
    expect(status.mode).toBe("parallel");
    expect(
      Object.fromEntries(Object.entries(status.scopeQueues).map(([k, ids]) => [k, ids.map((id) => h.nameOf(id))])),
    ).toEqual({ __default__: [], api: ["Batch 1", "Batch 3"], web: ["Batch 2"] });
  });

  it("isolated mode checks every batch on the base alone", () => {
    const h = new QueueHarness(configuration({ mergeQueue: { max_parallel_checks: 3, mode: "isolated" } }));
    h.queue(1, { scopes: ["api"] });
    h.queue(2, { scopes: ["api"] });
    expect(h.picture()).toEqual([
      "train main/__default__ base 074a83b",
      "  Batch 1 [1] draft creating",
      "  Batch 2 [2] draft creating",
    ]);
  });

  it("scope capacities cap the batches checked at once in a scope, without holding other scopes", () => {
    const h = new QueueHarness(
      configuration({ mergeQueue: { max_parallel_checks: 3, mode: "parallel" }, capacities: { api: 1 } }),
    );
    h.queue(1, { scopes: ["api"] });
    h.queue(2, { scopes: ["api"] });
    h.queue(3, { scopes: ["web"] });
    expect(h.picture()).toEqual([
      "train main/__default__ base 074a83b",
      "  Batch 1 [1] draft creating",
      "  Batch 2 [2] no check on Batch 1",
      "  Batch 3 [3] draft creating",
    ]);
  });
});

describe("partitions", () => {
  it("a pull request in two partitions merges once both partitions passed it", () => {
    const h = new QueueHarness(
      configuration({ mergeQueue: { max_parallel_checks: 2 }, partitions: ["backend", "frontend"] }),
    );
    h.queue(1, { partitions: ["backend", "frontend"] });
    h.queue(2, { partitions: ["frontend"] });
    expect(h.picture()).toEqual([
      "train main/backend base 074a83b",
      "  Batch 1 [1] draft creating",
      "train main/frontend base 074a83b",
      "  Batch 2 [1] draft creating",
      "  Batch 3 [2] draft creating on Batch 2",
    ]);
    for (const name of ["Batch 1", "Batch 2", "Batch 3"]) h.created(name);
    h.ci("Batch 1", true);
    expect(h.lines(STORY)).toEqual(["log action.queue.checks_end #1 Batch 1 success"]);
    h.ci("Batch 2", true);
    expect(h.lines(STORY)).toEqual(["log action.queue.checks_end #1 Batch 2 success", "merge Batch 1 [1] merge exact"]);
    h.merged("Batch 1");
    // #1 is in the base now: the frontend batch holding only it is closed, #2's batch goes on.
    expect(h.lines(STORY)).toEqual([
      "close #903",
      "log action.queue.merged #1",
      "cancel Batch 2 (merged in another partition)",
      "log action.queue.leave #1 PR_MERGED",
    ]);
    expect(h.picture()).toEqual([
      `train main/frontend base ${sha("merged-Batch 1").slice(0, 7)}`,
      "  Batch 3 [2] draft running",
    ]);
  });

  it("refuses a partition the configuration does not have, naming the field", () => {
    const h = new QueueHarness(configuration({ partitions: ["backend"] }));
    expect(() => h.queue(1, { partitions: ["mobile"] })).toThrow(
      'pull.partitions.0: unknown partition "mobile"; configured: backend',
    );
  });
});
