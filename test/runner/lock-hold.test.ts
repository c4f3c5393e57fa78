/**
 * The queue runner with a backlog (docs/merge-queue.md "Runner", item 6): a sweep lets go of the
 * repository's lock between holds, so an API request waiting for it is applied and answered
 * before the backlog is worked off; stop() ends after the round being applied instead of draining
 * the backlog (a shutdown drained 73 s of it, then used the closed pool).
 */
import { afterEach, describe, expect, it } from "vitest";
import { addToInbox } from "../../services/store/index.js";
import { eventually } from "../support/eventually.js";
import { ADA, bareRunner, REPO, type BareRunner } from "./bare-runner.js";

/** Rounds take 50 inputs; a backlog of 1,000 inputs that change nothing is 20 rounds. */
const BACKLOG = 1000;
const ROUND = 50;
const backlog = () =>
  Array.from({ length: BACKLOG }, (_, i) => ({ kind: "engine", event: { type: "timer_fired", key: `nothing-${i}` } }));

let w: BareRunner | undefined;
afterEach(async () => {
  await w?.cleanup();
  w = undefined;
});

describe("the queue runner with a backlog", () => {
  it("applies an API request between two lock holds and answers before the backlog is worked off", async () => {
    w = await bareRunner({ lockHoldMs: 0 });
    await addToInbox(w.db.pool, REPO, backlog());
    w.runner.wake(REPO);
    await eventually(async () => expect(await w!.count("queue_inbox")).toBeLessThan(BACKLOG), 20_000, 5);
    // The pause endpoint's row first (docs/pause.md: the engine follows it), then the request.
    await w.db.pool.query(
      "INSERT INTO queue_pauses (repository, reason, paused_at, paused_by) VALUES ($1, 'steering during a backlog', now(), '{}')",
      [REPO],
    );
    await w.runner.request(REPO, {
      kind: "engine",
      event: { type: "pause", reason: "steering during a backlog", actor: ADA },
    });
    expect((await w.state())?.pause?.reason).toBe("steering during a backlog");
    expect(await w.count("queue_inbox")).toBeGreaterThan(0);
    // The sweep goes on and works the backlog off.
    await eventually(async () => expect(await w!.count("queue_inbox")).toBe(0), 30_000, 20);
  });

  it("stop() ends after the round being applied and leaves the rest in the inbox", async () => {
    let stopping: Promise<void> | undefined;
    w = await bareRunner();
    // stop() is called while the first round takes its inputs from the inbox.
    w.db.pool.on("acquire", (client: { query: (...args: unknown[]) => unknown; watched?: true }) => {
      if (client.watched) return;
      client.watched = true;
      const query = client.query.bind(client);
      client.query = (...args: unknown[]) => {
        if (typeof args[0] === "string" && args[0].includes("FROM queue_inbox") && args[0].includes("FOR UPDATE")) {
          stopping ??= w!.runner.stop();
        }
        return query(...args);
      };
    });
    await addToInbox(w.db.pool, REPO, backlog());
    w.runner.wake(REPO);
    await eventually(async () => expect(stopping).toBeDefined(), 20_000, 5);
    await stopping;
    expect(await w.count("queue_inbox")).toBe(BACKLOG - ROUND);
    // Nothing starts after stop(): a wake is a no-op.
    w.runner.wake(REPO);
    await new Promise((r) => setTimeout(r, 200));
    expect(await w.count("queue_inbox")).toBe(BACKLOG - ROUND);
    expect(w.lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});
