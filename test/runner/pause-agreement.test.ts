/**
 * The engine's pause agrees with the pause endpoints' (docs/pause.md "The engine's pause"): when
 * they differ with no pause input waiting (here staged by editing queue_pauses behind the runner's
 * back: a lost unpause was seen once under stress and never explained), the sweep applies the API's
 * pause to the engine and warns, instead of leaving the queue paused while the API says it is not.
 */
import { afterEach, describe, expect, it } from "vitest";
import { unpauseEvent } from "../../services/queue/pause-events.js";
import { addToInbox, deletePause, pauseWithPendingInput } from "../../services/store/index.js";
import { eventually } from "../support/eventually.js";
import { ADA, bareRunner, REPO, type BareRunner } from "./bare-runner.js";

let w: BareRunner | undefined;
afterEach(async () => {
  await w?.cleanup();
  w = undefined;
});

/** DELETE /queue/pause as the endpoint does it. */
async function unpause(b: BareRunner) {
  await deletePause(
    b.db.pool,
    REPO,
    () => unpauseEvent(REPO, ADA),
    (client) => addToInbox(client, REPO, [{ kind: "engine", event: { type: "unpause", actor: ADA } }]),
  );
  b.runner.wake(REPO);
}

const corrections = (b: BareRunner) => b.lines.filter((l) => /pause differed/.test(l.msg));

describe("the engine's pause and the API's", () => {
  it("agree through pause and unpause, with no correction", async () => {
    w = await bareRunner();
    w.runner.start();
    await w.pause("release freeze");
    await eventually(async () => expect((await w!.state())?.pause?.reason).toBe("release freeze"), 20_000, 20);
    await unpause(w);
    await eventually(async () => expect((await w!.state())?.pause).toBeNull(), 20_000, 20);
    await new Promise((r) => setTimeout(r, 200));
    expect(corrections(w)).toEqual([]);
  });

  it("apply a pause and its unpause in their order across a power of ten of inbox ids, with no correction", async () => {
    w = await bareRunner();
    // The pause gets inbox id 9999, the unpause 10000: the inbox was read in text order ("10000"
    // first), which left the engine paused (the lost unpause of stop 18's stress run).
    await w.db.pool.query("SELECT setval('queue_inbox_id_seq', 9998)");
    await w.pause("release freeze");
    await unpause(w);
    w.runner.start();
    await eventually(async () => expect(await w!.count("queue_inbox")).toBe(0), 20_000, 20);
    expect((await w.state())?.pause).toBeNull();
    expect(corrections(w)).toEqual([]);
  });

  it("an engine left paused after the API's pause is gone is unpaused by the sweep", async () => {
    w = await bareRunner();
    w.runner.start();
    await w.pause("release freeze");
    await eventually(async () => expect((await w!.state())?.pause?.reason).toBe("release freeze"), 20_000, 20);
    // The unpause's input lost: the row is gone, no input waits.
    await w.db.pool.query("DELETE FROM queue_pauses WHERE repository = $1", [REPO]);
    await eventually(async () => expect((await w!.state())?.pause).toBeNull(), 20_000, 20);
    expect(corrections(w).map((l) => l.correction)).toEqual(["unpause"]);
  });

  it("an engine not paused while the API's pause stands is paused with the API's reason", async () => {
    w = await bareRunner();
    await w.db.pool.query(
      "INSERT INTO queue_pauses (repository, reason, paused_at, paused_by) VALUES ($1, 'incident 42', now(), $2)",
      [REPO, JSON.stringify(ADA)],
    );
    w.runner.start();
    await eventually(async () => expect((await w!.state())?.pause?.reason).toBe("incident 42"), 20_000, 20);
    expect(corrections(w).map((l) => l.correction)).toEqual(["pause"]);
  });

  it("waits while a pause input is still in the inbox: the input, not the row, tells the order", async () => {
    w = await bareRunner();
    const client = await w.db.pool.connect();
    try {
      await w.pause("release freeze");
      const waiting = await pauseWithPendingInput(client, REPO, []);
      expect(waiting).toMatchObject({ pause: { reason: "release freeze" }, pending: true });
      const ids = (await client.query("SELECT id::text FROM queue_inbox WHERE repository = $1", [REPO])).rows.map(
        (r) => r.id as string,
      );
      expect(await pauseWithPendingInput(client, REPO, ids)).toMatchObject({ pending: false });
    } finally {
      client.release();
    }
  });
});
