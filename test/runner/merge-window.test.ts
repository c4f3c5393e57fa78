/**
 * A merge window in the merge conditions, end to end over the real local forge, CI and runner
 * (docs/merge-queue.md rule 5): the check passes while the window is closed, the batch waits for
 * it (`waiting_schedule`, a durable timer at the opening), and merges when it opens; the leave
 * event counts the wait.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { EngineState } from "../../services/engine/index.js";
import { queueWorld, REPO, type QueueWorld } from "./queue-world.js";
import { shiftedClock } from "./shifted-clock.js";

let world: QueueWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

describe("a merge window in the merge conditions", () => {
  it("holds a passed batch until the window opens, then merges it", async () => {
    // The window opens an hour from now on the runner's clock, which the test moves ahead once
    // the passed check is held: however slow the machine, the check passes before the opening.
    const clock = shiftedClock();
    const opens = Math.ceil((clock.now() + 3_600_000) / 1000) * 1000;
    world = await queueWorld(
      [
        "queue_rules:",
        "  - name: default",
        "    merge_conditions:",
        "      - check-success=test",
        `      - current-datetime>=${new Date(opens).toISOString().replace(".000Z", "Z")}`,
        "",
      ].join("\n"),
      {},
      { now: clock.now },
    );
    const w = world;
    const n = await w.pull("feature", { "feature.txt": "feature\n" });
    await w.comment(n, "@yardmaster queue");
    const held = await w.until(async () => {
      const check = ((await w.state()) as EngineState).trains[0]?.batches[0]?.check;
      expect(check?.scheduleHeldUntil).toBe(opens);
      return check!;
    });
    const timers = await w.db.pool.query("SELECT key, due_at FROM queue_timers");
    expect(timers.rows.map((r) => [r.key, new Date(r.due_at).getTime()])).toContainEqual([
      `schedule/${held.id}`,
      opens,
    ]);
    // Held, not merged, while the window stays closed.
    await w.until(async () => true);
    expect((await w.forge.getPullRequest(REPO, n)).state).toBe("open");
    expect((await w.loggedTypes()).some((e) => e.type === "action.queue.leave")).toBe(false);
    const heldAt = clock.now();
    clock.advanceTo(opens);
    const leave = await w.until(async () => {
      const found = (await w.loggedTypes()).find(
        (e) => e.type === "action.queue.leave" && Number(e.pull_request) === n,
      );
      expect(found?.metadata.dequeue_code).toBe("PR_MERGED");
      return found!;
    });
    // The leave counts the wait for the window: from the check's end to the opening, at least the
    // time between the test seeing the batch held and the opening.
    expect(leave.metadata.seconds_waiting_for_schedule).toBeGreaterThanOrEqual(Math.floor((opens - heldAt) / 1000));
    expect(await w.forge.readFile(REPO, "main", "feature.txt")).toBe("feature\n");
  });
});
