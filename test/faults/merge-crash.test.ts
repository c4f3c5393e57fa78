/**
 * A server killed at an exact point of a batch merge and started again on the same data directory
 * and database merges every pull request exactly once (docs/reliability.md "Crashes: every effect
 * exactly once"). Each scenario arms one failpoint with `kill` through YARDMASTER_FAILPOINTS in
 * the first process; the restarted process has none.
 * - (a) after the local forge moved the base and before its transaction committed: the fault
 *   campaign's finding (the base moved, the pull requests still open; replayed, the batch was
 *   merged a second time on top of itself);
 * - (b) after the merge committed and before the runner recorded the result;
 * - (c) after the merge effect was recorded as started and before it was performed.
 */
import { afterEach, describe, expect, it } from "vitest";
import { expectMergedExactlyOnce, faultWorld, type FaultWorld } from "./support/fault-world.js";

let world: FaultWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

/** Queues 6 pull requests in a server armed with `failpoint=kill`, waits for the kill, starts again. */
async function crashAt(failpoint: string): Promise<FaultWorld> {
  world = await faultWorld(6, { YARDMASTER_FAILPOINTS: `${failpoint}=kill` });
  const output = await world.died();
  expect(output).toContain(`failpoint ${failpoint}: kill`);
  await world.restart();
  return world;
}

describe("a server killed during a batch merge, then started again", () => {
  it("(a) after the base moved, before the forge's transaction committed: each pull request merged once", async () => {
    const w = await crashAt("local-forge.merge.after-base-move");
    await expectMergedExactlyOnce(w);
  });

  it("(b) after the forge merged, before the runner recorded it: each pull request merged once", async () => {
    const w = await crashAt("runner.effect.merge_batch.after-perform");
    await expectMergedExactlyOnce(w);
  });

  it("(c) after the merge was marked started, before it was performed: each pull request merged once", async () => {
    const w = await crashAt("runner.effect.merge_batch.after-start");
    await expectMergedExactlyOnce(w);
  });
});
