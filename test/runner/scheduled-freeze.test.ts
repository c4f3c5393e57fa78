/**
 * Scheduled freezes end to end over the real local forge, CI, runner and PostgreSQL
 * (docs/scheduled-freeze.md; docs/domain.md §3.7): the queue keeps checking but does not merge
 * what an active freeze matches (`frozen`); a pull request the freeze excludes merges meanwhile,
 * the frozen batch giving way to it (SCHEDULED_FREEZE_STATUS_CHANGED); deleting the freeze merges
 * what it held, and the leave counts the wait; a freeze that begins later starts holding at its
 * start and lets go at its end on its own. Freezes are changed through the QueueService
 * operations, wired to the runner as the server wires them.
 */
import { createContextValues, type HandlerContext } from "@connectrpc/connect";
import { fromJson } from "@bufbuild/protobuf";
import { timestampFromDate, ValueSchema } from "@bufbuild/protobuf/wkt";
import { afterEach, describe, expect, it } from "vitest";
import { statusView, type EngineState } from "../../services/engine/index.js";
import { principalKey } from "../../services/auth/index.js";
import { freezeChangedInputs } from "../../services/main/queue-wiring.js";
import { freezeHandlers } from "../../services/queue/freeze-handlers.js";
import { queueWorld, REPO, type QueueWorld } from "./queue-world.js";
import { shiftedClock, type ShiftedClock } from "./shifted-clock.js";

const CONFIG = [
  "queue_rules:",
  "  - name: default",
  "    merge_conditions:",
  "      - check-success=test",
  "",
  "merge_queue:",
  "  max_parallel_checks: 2",
  "",
].join("\n");

let world: QueueWorld | undefined;
afterEach(async () => {
  await world?.cleanup();
  world = undefined;
});

function ctx(): HandlerContext {
  const values = createContextValues();
  values.set(principalKey, { kind: "admin", actor: { type: "user", id: 1, name: "ada" } } as never);
  return { values } as HandlerContext;
}

/** The freeze operations over the world's database, telling its runner as queue-wiring.ts does. */
function freezes(w: QueueWorld, clock: ShiftedClock) {
  return freezeHandlers({
    db: w.db.pool,
    eventsWritten: () => {},
    now: clock.now,
    freezeChanged: (client, repository, f) => freezeChangedInputs(client, repository, f, clock.now()),
    freezeCommitted: (repository) => w.runner.wake(repository),
  });
}

const repo = { owner: "acme", repository: "widgets" };
const ts = (ms: number) => timestampFromDate(new Date(ms));
const statusCodes = async (w: QueueWorld, now: number) =>
  statusView((await w.state()) as EngineState, "main", now).batches.map((b) => b.status.code);
const leaveOf = async (w: QueueWorld, n: number) =>
  (await w.loggedTypes()).find((e) => e.type === "action.queue.leave" && Number(e.pull_request) === n);

describe("a scheduled freeze", () => {
  it("holds a batch whose checks passed (frozen) until it is deleted; the leave counts the wait", async () => {
    const clock = shiftedClock();
    world = await queueWorld(CONFIG, {}, { now: clock.now });
    const w = world;
    const ops = freezes(w, clock);
    const made = await ops.createScheduledFreeze(
      {
        ...repo,
        reason: "release",
        start: ts(clock.now() - 60_000),
        timezone: "",
        matchingConditions: [],
        excludeConditions: [],
      },
      ctx(),
    );
    const n = await w.pull("feature", { "feature.txt": "feature\n" });
    await w.comment(n, "@yardmaster queue");
    await w.until(async () => expect(await statusCodes(w, clock.now())).toEqual(["frozen"]));
    // Still frozen after everything settled: checked, not merged.
    await w.until(async () => true);
    expect((await w.forge.getPullRequest(REPO, n)).state).toBe("open");
    const heldAt = clock.now();
    clock.advanceTo(heldAt + 120_000);
    await ops.deleteScheduledFreeze({ ...repo, id: made.id, reason: "released" }, ctx());
    const leave = await w.until(async () => {
      const found = await leaveOf(w, n);
      expect(found?.metadata.dequeue_code).toBe("PR_MERGED");
      return found!;
    });
    expect(leave.metadata.seconds_waiting_for_freeze).toBeGreaterThanOrEqual(120);
    expect(leave.metadata.seconds_waiting_for_schedule).toBe(0);
    expect(await w.forge.readFile(REPO, "main", "feature.txt")).toBe("feature\n");
    expect((await w.loggedTypes()).filter((e) => e.type.startsWith("scheduled_freeze.")).map((e) => e.type)).toEqual([
      "scheduled_freeze.create",
      "scheduled_freeze.delete",
    ]);
  });

  it("lets through what it excludes: the frozen batch gives way, the hotfix merges, the frozen one merges once the freeze is gone", async () => {
    const clock = shiftedClock();
    world = await queueWorld(CONFIG, {}, { now: clock.now });
    const w = world;
    const ops = freezes(w, clock);
    const made = await ops.createScheduledFreeze(
      {
        ...repo,
        reason: "release",
        start: ts(clock.now() - 60_000),
        timezone: "",
        matchingConditions: [],
        excludeConditions: [],
      },
      ctx(),
    );
    await ops.updateScheduledFreeze(
      { ...repo, id: made.id, removeEnd: false, excludeConditions: { items: [fromJson(ValueSchema, "label=hotfix")] } },
      ctx(),
    );
    const frozen = await w.pull("feature", { "feature.txt": "feature\n" });
    await w.comment(frozen, "@yardmaster queue");
    await w.until(async () => expect(await statusCodes(w, clock.now())).toEqual(["frozen"]));
    const hotfix = await w.pull("hotfix", { "hotfix.txt": "fix\n" });
    await w.forge.label(REPO, hotfix, ["hotfix"], []);
    await w.comment(hotfix, "@yardmaster queue");
    await w.until(async () => expect((await leaveOf(w, hotfix))?.metadata.dequeue_code).toBe("PR_MERGED"));
    expect((await w.forge.getPullRequest(REPO, frozen)).state).toBe("open");
    const gaveWay = (await w.loggedTypes()).filter(
      (e) => e.type === "action.queue.checks_end" && Number(e.pull_request) === frozen && e.metadata.aborted,
    );
    expect(gaveWay.map((e) => e.metadata.abort_code)).toContain("SCHEDULED_FREEZE_STATUS_CHANGED");
    const waiting = ((await w.state()) as EngineState).pulls[String(frozen)];
    expect(waiting?.scheduleYieldBy).toBe("freeze");
    await ops.deleteScheduledFreeze({ ...repo, id: made.id, reason: "" }, ctx());
    await w.until(async () => expect((await leaveOf(w, frozen))?.metadata.dequeue_code).toBe("PR_MERGED"));
    expect(await w.forge.readFile(REPO, "main", "hotfix.txt")).toBe("fix\n");
    expect(await w.forge.readFile(REPO, "main", "feature.txt")).toBe("feature\n");
  });

  it("lets a frozen pull request through once it gains the label the freeze excludes", async () => {
    const clock = shiftedClock();
    world = await queueWorld(CONFIG, {}, { now: clock.now });
    const w = world;
    const ops = freezes(w, clock);
    await ops.createScheduledFreeze(
      {
        ...repo,
        reason: "release",
        start: ts(clock.now() - 60_000),
        timezone: "",
        matchingConditions: [],
        excludeConditions: [fromJson(ValueSchema, "label=hotfix")],
      },
      ctx(),
    );
    const n = await w.pull("feature", { "feature.txt": "feature\n" });
    await w.comment(n, "@yardmaster queue");
    await w.until(async () => expect(await statusCodes(w, clock.now())).toEqual(["frozen"]));
    await w.forge.label(REPO, n, ["hotfix"], []);
    await w.until(async () => expect((await leaveOf(w, n))?.metadata.dequeue_code).toBe("PR_MERGED"));
    expect((await ops.listScheduledFreezes(repo)).scheduledFreezes.map((f) => f.active)).toEqual([true]);
  });

  it("that begins later holds from its start (a durable timer) and lets go at its end on its own", async () => {
    const clock = shiftedClock();
    world = await queueWorld(CONFIG, {}, { now: clock.now });
    const w = world;
    const ops = freezes(w, clock);
    const start = Math.ceil((clock.now() + 3_600_000) / 1000) * 1000;
    const end = start + 3_600_000;
    const made = await ops.createScheduledFreeze(
      {
        ...repo,
        reason: "tonight",
        start: ts(start),
        end: ts(end),
        timezone: "Europe/Paris",
        matchingConditions: [],
        excludeConditions: [],
      },
      ctx(),
    );
    const timers = await w.db.pool.query("SELECT key, due_at FROM queue_timers");
    expect(timers.rows.map((r) => [r.key, new Date(r.due_at).getTime()])).toEqual([[`freeze-start/${made.id}`, start]]);
    const before = await w.pull("before", { "before.txt": "before\n" });
    await w.comment(before, "@yardmaster queue");
    await w.until(async () => expect((await leaveOf(w, before))?.metadata.dequeue_code).toBe("PR_MERGED"));
    clock.advanceTo(start);
    await w.until(async () =>
      expect(
        (await w.db.pool.query("SELECT count(*)::int AS n FROM queue_timers WHERE key LIKE 'freeze-start/%'")).rows[0]
          .n,
      ).toBe(0),
    );
    const during = await w.pull("during", { "during.txt": "during\n" });
    await w.comment(during, "@yardmaster queue");
    const held = await w.until(async () => {
      const check = ((await w.state()) as EngineState).trains[0]?.batches[0]?.check;
      expect(check?.scheduleHeldBy).toBe("freeze");
      return check!;
    });
    expect(held.scheduleHeldUntil).toBe(end);
    clock.advanceTo(end);
    await w.until(async () => expect((await leaveOf(w, during))?.metadata.dequeue_code).toBe("PR_MERGED"));
  });
});
