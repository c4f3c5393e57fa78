/**
 * What every scenario ends with (docs/github.md "Landing a batch"): each green pull request landed
 * exactly once (one `action.queue.merged` and one PR_MERGED leave, its change added by one commit
 * of main, and GitHub shows it merged or the queue closed it with a comment naming the commit),
 * the culprit sent back with the code of a failed batch, no pull request dequeued by a transient
 * refusal, main's tree the union of the green changes, no write refused by the double's rules and
 * no request outside GitHub's OpenAPI description.
 */
import { expect } from "vitest";
import { eventually } from "../../../support/eventually.js";
import { restCall } from "../../../support/rest-client.js";
import { settingsOf } from "../support/double-rules.js";
import type { GithubWorld } from "../support/github-world.js";

/** The codes a culprit found by a failed batch leaves with (docs/domain.md §3.5). */
const CULPRIT_CODES = ["CHECKS_FAILED", "DROPPED_BY_BISECTION_ELIMINATION"];

/** Waits for the queue to settle, then asserts the outcome above; returns the leaves. */
export async function expectLandedOnce(world: GithubWorld, timeoutMs?: number): Promise<Map<number, string[]>> {
  const leaves = await world.settled(timeoutMs);
  const green = world.pulls.filter((n) => n !== world.culprit);
  const output = world.server.output().slice(-3000);
  for (const n of green) expect([n, leaves.get(n)], output).toEqual([n, ["PR_MERGED"]]);
  const culprit = leaves.get(world.culprit)!;
  expect(culprit.length).toBe(1);
  expect(CULPRIT_CODES).toContain(culprit[0]);
  expect(world.repo.pull(world.culprit)!.state).toBe("open");

  const query = "per_page=100&received_from=2000-01-01T00:00:00Z&event_type=action.queue.merged";
  const merged = (await restCall(world.server, "GET", `/v1/repos/${world.repo.fullName}/logs?${query}`)).json.events;
  expect(
    merged.map((e: { pull_request: string }) => Number(e.pull_request)).sort((a: number, b: number) => a - b),
  ).toEqual(green);

  const files = (await world.git("ls-tree", "-r", "--name-only", "main")).split("\n");
  expect(files.filter((f) => f.startsWith("changes/")).sort()).toEqual(green.map((n) => `changes/${n}.txt`).sort());
  expect(files).not.toContain("BROKEN");
  for (const n of green) {
    const adds = await world.git("log", "main", "--format=%H", "--diff-filter=A", "--", `changes/${n}.txt`);
    expect([n, adds.split("\n").filter(Boolean).length]).toEqual([n, 1]);
    const pull = world.repo.pull(n)!;
    expect([n, pull.state]).toEqual([n, "closed"]);
    if (pull.mergedAt === null) {
      const note = world.repo.comments.find((c) => c.number === n && /Merged by the merge queue/.test(c.body));
      expect(note, `#${n} closed without the queue's note`).toBeDefined();
    }
  }
  expect(settingsOf(world.repo).refusals).toEqual([]);
  expect(world.double.problems).toEqual([]);
  return leaves;
}

/**
 * Pull requests of a scenario's kill case: enough for two batches of three around the culprit
 * (the fourth), so that a batch lands, one is sent back and the rest is checked again.
 */
export const KILL_PULLS = 6;

/** The reconciliation interval of the scenarios with lost webhooks (RECONCILE_INTERVAL_SECONDS), seconds. */
const RECONCILE_SECONDS = 5;
/** One first delivery attempt in ten lost at random (drawn from `seed`), with reconciliation every 5 s. */
export const lossy = (seed: number) => ({ drop: { rate: 0.1, seed }, reconcileIntervalSeconds: RECONCILE_SECONDS });
/** The time within which a lost event is recovered, ms: one interval plus a pass's time (docs/github.md "Reconciliation"). */
export const RECOVERY_MS = 2 * RECONCILE_SECONDS * 1000;
/**
 * The same after a restart, ms: the new process's first pass redelivers, one after another, every
 * delivery the dead one missed (a dozen or more), so that pass is longer; two intervals more.
 */
export const RECOVERY_AFTER_RESTART_MS = 4 * RECONCILE_SECONDS * 1000;

/**
 * Webhook deliveries were lost (the world's `drop`), and each lost event reached the server within
 * `withinMs` of its loss (docs/github.md "Reconciliation": one interval plus the pass's own time):
 * the server's redelivery sent it again and the server took it ("OK"). A pass may have recovered
 * its effect earlier from what GitHub shows; the event's arrival bounds when its effect came.
 * After a restart ({@link GithubWorld.restartAfterKill} without an operator's redelivery), the
 * deliveries the dead server did not answer count as lost too, and a loss before the restart is
 * timed from the restart (the new process's first pass looks back an hour).
 * Waits for the losses after the queue settled to be recovered too. @returns the events lost
 */
export async function expectLostEventsRecovered(world: GithubWorld, withinMs: number): Promise<string[]> {
  const deliveries = world.double.webhooks.deliveries;
  const lost = deliveries.filter((d) => !d.redelivery && (d.dropped || d.status !== "OK"));
  expect(lost.filter((d) => d.dropped).length, "no delivery was dropped").toBeGreaterThan(0);
  const taken = (guid: string) => deliveries.find((d) => d.guid === guid && d.status === "OK");
  await eventually(async () => {
    for (const d of lost) expect([d.event, d.action, taken(d.guid)?.status]).toEqual([d.event, d.action, "OK"]);
  }, 3 * withinMs);
  const restart = world.restartedAt?.getTime() ?? 0;
  const late = lost.flatMap((d) => {
    const after = taken(d.guid)!.deliveredAt.getTime() - Math.max(d.deliveredAt.getTime(), restart);
    return after <= withinMs ? [] : [`${d.event}.${d.action} taken ${after} ms after its loss`];
  });
  expect(late).toEqual([]);
  return lost.map((d) => `${d.event}.${d.action}`);
}
