/**
 * A main that requires a linear history and the "test" check, with `merge_method: fast-forward`
 * (scenarios/repositories.ts): each batch's check branch replays its pull requests' commits (no
 * merge commit), CI runs on it (a `push` workflow; the pull request workflow skips drafts), and the
 * base is moved to that tested commit (docs/github.md "Landing a batch"); the same with the server
 * killed after the base moved and before the runner recorded it.
 */
import { afterEach, describe, expect, it } from "vitest";
import { githubWorld, type GithubWorld } from "../support/github-world.js";
import {
  expectLandedOnce,
  expectLostEventsRecovered,
  KILL_PULLS,
  lossy,
  RECOVERY_AFTER_RESTART_MS,
  RECOVERY_MS,
} from "./outcome.js";
import { LINEAR_FAST_FORWARD } from "./repositories.js";

let world: GithubWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

/** main is linear, and every commit on it was tested: its tip of each landing is a commit CI passed. */
async function expectLinearTested(w: GithubWorld): Promise<void> {
  const parents = (await w.git("log", "--format=%P", "main")).split("\n").slice(0, -1);
  expect(parents.every((p) => p.split(" ").length === 1)).toBe(true);
  const passed = new Set(w.actions.runs.filter((r) => r.conclusion === "success").map((r) => r.sha));
  expect(passed.has(await w.git("rev-parse", "main"))).toBe(true);
  // The queue's temporary branches ran nothing: their commits carry [skip ci].
  const skipped = w.actions.runs.filter((r) => r.conclusion === "skipped");
  expect(skipped.length).toBeGreaterThan(0);
}

describe("linear history with fast-forward", () => {
  it("moves main to each tested commit; the culprit is sent back; lost webhooks are recovered", {
    timeout: 600_000,
  }, async () => {
    world = await githubWorld(LINEAR_FAST_FORWARD, lossy(13));
    await expectLandedOnce(world);
    await expectLinearTested(world);
    await expectLostEventsRecovered(world, RECOVERY_MS);
  });

  it("the same on 6 pull requests, webhooks lost, the server killed (kill -9) after main moved, before the move was recorded", {
    timeout: 600_000,
  }, async () => {
    world = await githubWorld(LINEAR_FAST_FORWARD, {
      killAt: "runner.effect.merge_batch.after-perform",
      pulls: KILL_PULLS,
      ...lossy(17),
    });
    const killed = await world.restartAfterKill({ redeliver: false });
    expect(killed).toContain("failpoint runner.effect.merge_batch.after-perform: kill");
    await expectLandedOnce(world);
    await expectLinearTested(world);
    await expectLostEventsRecovered(world, RECOVERY_AFTER_RESTART_MS);
  });
});
