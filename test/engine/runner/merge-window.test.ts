/**
 * A merge window in the merge conditions, end to end over the real local forge, CI and runner
 * (docs/merge-queue.md rule 5): the check passes while the window is closed, the batch waits for
 * it (`waiting_schedule`, a durable timer at the opening), and merges when it opens; the leave
 * event counts the wait.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { EngineState } from "../../../services/engine/index.js";
import { queueWorld, REPO, type QueueWorld } from "./queue-world.js";

let world: QueueWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

describe("a merge window in the merge conditions", () => {
  it("holds a passed batch until the window opens, then merges it", async () => {
    // The window opens 45 s from now, time for the CI to pass first even on a loaded machine (a
    // `current-datetime` bound: second precision, unlike `schedule`).
    const opens = Math.ceil((Date.now() + 45_000) / 1000) * 1000;
    world = await queueWorld([
      "queue_rules:", "  - name: default", "    merge_conditions:", "      - check-success=test",
      `      - current-datetime>=${new Date(opens).toISOString().replace(".000Z", "Z")}`, "",
    ].join("\n"));
    const w = world;
    const n = await w.pull("feature", { "feature.txt": "feature\n" });
    await w.comment(n, "@yardmaster queue");
    const held = await w.until(async () => {
      const check = ((await w.state()) as EngineState).trains[0]?.cars[0]?.check;
      expect(check?.scheduleHeldUntil).toBe(opens);
      return check!;
    }, 45_000);
    const timers = await w.db.pool.query("SELECT key, due_at FROM queue_timers");
    expect(timers.rows.map((r) => [r.key, new Date(r.due_at).getTime()])).toContainEqual([`schedule/${held.id}`, opens]);
    expect((await w.forge.getPullRequest(REPO, n)).state).toBe("open");
    const leave = await w.until(async () => {
      const found = (await w.loggedTypes()).find((e) => e.type === "action.queue.leave" && Number(e.pull_request) === n);
      expect(found?.metadata.dequeue_code).toBe("PR_MERGED");
      return found!;
    }, 90_000);
    expect(Date.now()).toBeGreaterThanOrEqual(opens);
    expect(leave.metadata.seconds_waiting_for_schedule).toBeGreaterThan(0);
    expect(await w.forge.readFile(REPO, "main", "feature.txt")).toBe("feature\n");
  }, 150_000);
});
