/**
 * The queue runner end to end over the real local forge and its CI (issue: engine §3, forge "Done
 * when"): pull requests queued by comment are batched, checked on draft pull requests by the
 * local CI, bisected when one breaks the build, and merged; the base branch only receives trees
 * that passed; the log holds every check's start and end.
 */
import { afterEach, describe, expect, it } from "vitest";
import { queueWorld, REPO, type QueueWorld } from "./queue-world.js";
import { shiftedClock } from "./shifted-clock.js";

let world: QueueWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

const CONFIG = [
  "queue_rules:",
  "  - name: default",
  "    batch_size: 3",
  '    batch_max_wait_time: "5 s"',
  "merge_queue:",
  "  max_parallel_checks: 2",
  "",
].join("\n");

async function mergedSet(w: QueueWorld, numbers: number[]): Promise<Record<number, string>> {
  const out: Record<number, string> = {};
  for (const n of numbers) out[n] = (await w.forge.getPullRequest(REPO, n)).state;
  return out;
}

describe("the queue runner over the local forge", () => {
  it("merges three pull requests queued by comment, checked together by the local CI", async () => {
    world = await queueWorld(CONFIG);
    const w = world;
    const numbers = [
      await w.pull("one", { "one.txt": "1\n" }),
      await w.pull("two", { "two.txt": "2\n" }),
      await w.pull("three", { "three.txt": "3\n" }),
    ];
    for (const n of numbers) await w.comment(n, "@yardmaster queue");
    const states = await w.until(async () => {
      const s = await mergedSet(w, numbers);
      expect(Object.values(s)).toEqual(["merged", "merged", "merged"]);
      return s;
    });
    expect(states).toBeDefined();
    const main = await w.forge.readFile(REPO, "main", "three.txt");
    expect(main).toBe("3\n");
    expect(await w.forge.readFile(REPO, "main", "one.txt")).toBe("1\n");
    const logged = await w.loggedTypes();
    const starts = logged.filter((e) => e.type === "action.queue.checks_start");
    const ends = logged.filter((e) => e.type === "action.queue.checks_end");
    expect(starts.length).toBeGreaterThan(0);
    expect(ends.map((e) => e.metadata.batch_id).sort()).toEqual(starts.map((e) => e.metadata.batch_id).sort());
    expect(
      logged
        .filter((e) => e.type === "action.queue.merged")
        .map((e) => Number(e.pull_request))
        .sort(),
    ).toEqual(numbers.sort());
    expect(logged.filter((e) => e.type === "command.queue")).toHaveLength(3);
    const state = await w.state();
    expect(Object.keys(state!.pulls)).toEqual([]);
  });

  it("finds the pull request that breaks the build, dequeues it with CHECKS_FAILED and merges the others", async () => {
    // Required checks in the merge conditions only, so the broken pull request enters the queue.
    world = await queueWorld(
      CONFIG.replace("    batch_size: 3\n", "    batch_size: 3\n    branch_protection_injection_mode: merge\n"),
    );
    const w = world;
    const good1 = await w.pull("good1", { "a.txt": "a\n" });
    const bad = await w.pull("bad", { BROKEN: "x\n" });
    const good2 = await w.pull("good2", { "b.txt": "b\n" });
    for (const n of [good1, bad, good2]) await w.comment(n, "@yardmaster queue");
    await w.until(async () => {
      const s = await mergedSet(w, [good1, good2]);
      expect(Object.values(s)).toEqual(["merged", "merged"]);
    });
    expect(await w.forge.readFile(REPO, "main", "BROKEN")).toBeNull();
    const logged = await w.loggedTypes();
    const leave = logged.find((e) => e.type === "action.queue.leave" && Number(e.pull_request) === bad);
    expect(leave?.metadata).toMatchObject({ dequeue_code: "CHECKS_FAILED", merged: false });
    // Why it left: the merge conditions (the branch's required checks) as last evaluated on its check.
    expect(leave?.metadata.conditions_evaluation).toMatchObject({ match: false });
    expect(JSON.stringify(leave?.metadata.conditions_evaluation)).toMatch(/"attribute_name":"check-success"/);
    expect((await w.forge.getPullRequest(REPO, bad)).state).toBe("open");
    expect(logged.some((e) => e.type === "action.queue.batch_bisection_start")).toBe(true);
    const end = logged.find((e) => e.type === "action.queue.batch_bisection_end");
    expect(end?.metadata).toMatchObject({ culprit_found: true, culprit_pr_numbers: [bad] });
  });
});

describe("the queue runner's durability and exclusion", () => {
  it("never merges twice when two runners process the same repository", async () => {
    world = await queueWorld(CONFIG.replace("batch_size: 3", "batch_size: 1"));
    const w = world;
    const second = w.anotherRunner();
    const numbers = [
      await w.pull("p1", { "p1.txt": "1\n" }),
      await w.pull("p2", { "p2.txt": "2\n" }),
      await w.pull("p3", { "p3.txt": "3\n" }),
    ];
    for (const n of numbers) await w.comment(n, "@yardmaster queue");
    await w.until(async () => {
      await second.drain();
      expect(Object.values(await mergedSet(w, numbers))).toEqual(["merged", "merged", "merged"]);
    });
    const logged = await w.loggedTypes();
    const merged = logged
      .filter((e) => e.type === "action.queue.merged")
      .map((e) => Number(e.pull_request))
      .sort();
    expect(merged).toEqual([...numbers].sort());
    // One merge effect per batch: every merge_completed result was applied once, no merge failed.
    expect(logged.filter((e) => e.type === "action.queue.leave").map((e) => e.metadata.dequeue_code)).toEqual([
      "PR_MERGED",
      "PR_MERGED",
      "PR_MERGED",
    ]);
    expect(await w.db.pool.query("SELECT count(*)::int AS n FROM queue_effects").then((r) => r.rows[0].n)).toBe(0);
  });

  it("loses no timer across a restart: a batch waiting for more pull requests starts after the wait", async () => {
    // An hour's wait on the runners' clock, which the test moves past it after the restart.
    const clock = shiftedClock();
    world = await queueWorld(
      CONFIG.replace('batch_max_wait_time: "5 s"', 'batch_max_wait_time: "1 h"'),
      {},
      { now: clock.now },
    );
    const w = world;
    const n = await w.pull("alone", { "alone.txt": "alone\n" });
    await w.comment(n, "@yardmaster queue");
    // Wait until it is queued (the batch-wait timer is then a row), then restart the runner.
    await w.until(async () => expect((await w.state())?.pulls[String(n)]).toBeDefined());
    const timers = await w.db.pool.query("SELECT key, due_at FROM queue_timers");
    const wait = timers.rows.find((r) => r.key === "batch-wait/main/__default__");
    expect(wait).toBeDefined();
    await w.restartRunner();
    // Before the wait ends the batch is not formed: no check, the pull request still waiting.
    await w.until(async () => true);
    expect((await w.state())?.trains.flatMap((t) => t.batches)).toEqual([]);
    clock.advanceTo(new Date(wait.due_at).getTime());
    await w.until(async () => expect((await w.forge.getPullRequest(REPO, n)).state).toBe("merged"));
  });
});
