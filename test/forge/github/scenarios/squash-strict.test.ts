/**
 * A squash-only repository whose main requires a pull request, the "test" check and branches up to
 * date before merging, with Actions CI on `pull_request` (scenarios/repositories.ts), and no
 * bypass for the App: a batch lands through its own draft pull request, whose head is the tested
 * commit, squashed (docs/github.md "Landing a batch"); a batch checked on top of another is checked
 * again on the new tip (GitHub refuses a head behind its base); the same with the server killed
 * after the batch's pull request merged and before its pull requests were closed.
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
import { SQUASH_STRICT } from "./repositories.js";

let world: GithubWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

/** Every commit on main since the start is a squash commit (one parent) of a batch's pull request. */
async function expectSquashesOnly(w: GithubWorld): Promise<void> {
  const parents = (await w.git("log", "--format=%P", "main")).split("\n").slice(0, -1);
  expect(parents.every((p) => p.split(" ").length === 1)).toBe(true);
  const subjects = (await w.git("log", "--format=%s", "main")).split("\n").slice(0, -1);
  for (const s of subjects) expect(s).toMatch(/^(Merge queue: #.*\(#\d+\)|Change \d+ \(#\d+\))$/);
}

describe("squash only, strict required checks, a required pull request, Actions on pull_request", () => {
  it("lands each batch as one squash of its pull request; the culprit is sent back; lost webhooks are recovered", {
    timeout: 600_000,
  }, async () => {
    world = await githubWorld(SQUASH_STRICT, lossy(7));
    await expectLandedOnce(world);
    await expectSquashesOnly(world);
    await expectLostEventsRecovered(world, RECOVERY_MS);
  });

  it("the same on 6 pull requests, webhooks lost, the server killed (kill -9) after the batch's pull request merged", {
    timeout: 600_000,
  }, async () => {
    world = await githubWorld(SQUASH_STRICT, {
      killAt: "github.land-through-pull.after-merge",
      pulls: KILL_PULLS,
      ...lossy(23),
    });
    const killed = await world.restartAfterKill({ redeliver: false });
    expect(killed).toContain("failpoint github.land-through-pull.after-merge: kill");
    await expectLandedOnce(world);
    await expectSquashesOnly(world);
    await expectLostEventsRecovered(world, RECOVERY_AFTER_RESTART_MS);
  });
});
