/**
 * Merge commits, a ruleset requiring the "test" check and an approval with the App as a bypass
 * actor, and GitHub answering "Base branch was modified" to every third merge
 * (scenarios/repositories.ts): batches land one pull request at a time through GitHub's merge API,
 * the transient refusal is retried and ejects nobody (docs/github.md "Landing a batch"); the same
 * with the server killed between two merges of a batch.
 */
import { afterEach, describe, expect, it } from "vitest";
import { settingsOf } from "../support/double-rules.js";
import { githubWorld, type GithubWorld } from "../support/github-world.js";
import {
  expectLandedOnce,
  expectLostEventsRecovered,
  KILL_PULLS,
  lossy,
  RECOVERY_AFTER_RESTART_MS,
  RECOVERY_MS,
} from "./outcome.js";
import { MERGE_RULESETS } from "./repositories.js";

let world: GithubWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

function expectOwnMerges(w: GithubWorld): void {
  const green = w.pulls.filter((p) => p !== w.culprit);
  for (const n of green) expect([n, w.repo.pull(n)!.mergedAt !== null]).toEqual([n, true]);
  // Every third merge request was answered "Base branch was modified"; each was merged again (no leave
  // other than PR_MERGED, expectLandedOnce).
  expect(settingsOf(w.repo).baseModifiedAnswers).toBeGreaterThanOrEqual(Math.floor(green.length / 3));
}

describe("merge commits, rulesets with a bypass actor, a transient 405 on every third merge", () => {
  it("lands every green pull request once with its own merge commit; the culprit is sent back; lost webhooks are recovered", {
    timeout: 600_000,
  }, async () => {
    // The installation granted Actions: read only (the github_actions action's need): the queue works,
    // and the missing permission is named in the log and in /readyz.
    world = await githubWorld(MERGE_RULESETS, { grants: (g) => void (g.permissions.actions = "read"), ...lossy(11) });
    await expectLandedOnce(world);
    expectOwnMerges(world);
    await expectLostEventsRecovered(world, RECOVERY_MS);
    const ready = (await fetch(`${world.server.url}/readyz`).then((r) => r.json())) as {
      github: { lacking: unknown[] };
    };
    expect(ready.github.lacking).toEqual([
      {
        account: "acme",
        installation_id: world.repo.installationId,
        missing_permissions: ["actions: write"],
        missing_events: [],
      },
    ]);
    expect(world.server.output()).toContain("lacks the permission actions: write (granted: read)");
  });

  it("the same on 6 pull requests, webhooks lost, the server killed (kill -9) between two merges of a batch", {
    timeout: 600_000,
  }, async () => {
    world = await githubWorld(MERGE_RULESETS, {
      killAt: "github.merge-batch.between-pulls",
      pulls: KILL_PULLS,
      ...lossy(19),
    });
    const killed = await world.restartAfterKill({ redeliver: false });
    expect(killed).toContain("failpoint github.merge-batch.between-pulls: kill");
    await expectLandedOnce(world);
    expectOwnMerges(world);
    await expectLostEventsRecovered(world, RECOVERY_AFTER_RESTART_MS);
  });
});
