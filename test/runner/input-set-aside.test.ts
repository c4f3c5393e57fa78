/**
 * An inbox input the queue runner cannot apply (here a comment event without a body, which no
 * forge sends) used to fail every round of its repository, so nothing behind it was ever applied.
 * The runner now sets such an input aside after repeated failed rounds blamed on it over some time
 * (5 and 10 min by default), keeps it with its error in queue_inbox_set_aside, and applies the
 * inputs behind it
 * (docs/merge-queue.md "Runner", "An input that cannot be applied"). An API request is applied in
 * a round of its own meanwhile, so steering the queue works while the input waits.
 */
import { afterEach, describe, expect, it } from "vitest";
import { addToInbox } from "../../services/store/index.js";
import { eventually } from "../support/eventually.js";
import { ADA, bareRunner, REPO, type BareRunner } from "./bare-runner.js";
import { shiftedClock } from "./shifted-clock.js";

let w: BareRunner | undefined;
afterEach(async () => {
  await w?.cleanup();
  w = undefined;
});

/** Set aside after 5 failures, the first at least 300 ms before (10 min in production). */
const SET_ASIDE_AFTER = { failures: 5, ms: 300 };

async function world(): Promise<BareRunner> {
  w = await bareRunner({ setAsideAfter: SET_ASIDE_AFTER });
  return w;
}

/** A comment event as no forge sends it: no body. Applying it throws a TypeError, every time. */
const broken = {
  kind: "forge",
  event: {
    kind: "comment_created",
    repo: REPO,
    number: 1,
    commentId: 7,
    body: null,
    author: { login: "ada", id: 1, type: "User", avatarUrl: null },
    url: null,
  },
};

describe("an inbox input the queue runner cannot apply", () => {
  it("is set aside with its error after repeated failures, and the inputs behind it are applied", async () => {
    const w = await world();
    await addToInbox(w.db.pool, REPO, [broken]);
    await w.pause("behind the broken input");
    w.runner.start();

    await eventually(async () => expect((await w.state())?.pause?.reason).toBe("behind the broken input"), 20_000, 50);
    expect(await w.count("queue_inbox")).toBe(0);
    const aside = await w.db.pool.query(
      "SELECT input, failures, last_error FROM queue_inbox_set_aside WHERE repository = $1",
      [REPO],
    );
    expect(aside.rows).toHaveLength(1);
    expect(aside.rows[0].input).toEqual(broken);
    expect(aside.rows[0].failures).toBeGreaterThanOrEqual(SET_ASIDE_AFTER.failures);
    expect(aside.rows[0].last_error).toMatch(/split|null/);
    const errors = w.lines.filter((l) => l.level >= 50 && /set aside/.test(l.msg));
    expect(errors).toHaveLength(1);
  });

  it("is not set aside before the time since its first failure has passed, however often it failed", async () => {
    // The runner's clock is the test's: time passes only when the test moves it.
    const clock = shiftedClock();
    w = await bareRunner({ setAsideAfter: { failures: 2, ms: 60_000 }, now: clock.now });
    await addToInbox(w.db.pool, REPO, [broken]);
    w.runner.start();
    await eventually(
      async () =>
        expect(w!.lines.filter((l) => /processing (failed|still fails)/.test(l.msg)).length).toBeGreaterThanOrEqual(3),
      20_000,
      50,
    );
    expect(await w.count("queue_inbox")).toBe(1);
    expect(await w.count("queue_inbox_set_aside")).toBe(0);
    // A minute later by the runner's clock, the next failure sets it aside.
    clock.advanceTo(clock.now() + 60_000);
    await eventually(async () => expect(await w!.count("queue_inbox_set_aside")).toBe(1), 20_000, 50);
    expect(await w.count("queue_inbox")).toBe(0);
  });

  it("does not hold up an API request while it waits to be set aside", async () => {
    const w = await world();
    await addToInbox(w.db.pool, REPO, [broken]);
    // Not started: no sweep has counted a failure yet. The request is applied on its own (the
    // endpoint's queue_pauses row is written first, as PUT /queue/pause would).
    await w.db.pool.query(
      "INSERT INTO queue_pauses (repository, reason, paused_at, paused_by) VALUES ($1, 'steered by the API', now(), '{}')",
      [REPO],
    );
    await w.runner.request(REPO, {
      kind: "engine",
      event: { type: "pause", reason: "steered by the API", actor: ADA },
    });
    expect((await w.state())?.pause?.reason).toBe("steered by the API");
    expect(await w.count("queue_inbox")).toBe(1);
    expect(await w.count("queue_inbox_set_aside")).toBe(0);
  });

  it("is put back by moving its row to the inbox, and applied once it can be", async () => {
    const w = await world();
    await addToInbox(w.db.pool, REPO, [broken]);
    w.runner.start();
    await eventually(async () => expect(await w.count("queue_inbox_set_aside")).toBe(1), 20_000, 50);
    // docs/merge-queue.md: an operator mends the input and moves it back.
    await w.db.pool.query(
      `WITH back AS (DELETE FROM queue_inbox_set_aside WHERE repository = $1 RETURNING repository, input)
       INSERT INTO queue_inbox (repository, input) SELECT repository, jsonb_set(input, '{event,body}', '"no command here"') FROM back`,
      [REPO],
    );
    w.runner.wake(REPO);
    await eventually(async () => expect(await w.count("queue_inbox")).toBe(0), 20_000, 50);
    expect(await w.count("queue_inbox_set_aside")).toBe(0);
  });
});
