/**
 * `kill -9` at random instants (docs/reliability.md "Crashes: every effect exactly once"): a queue
 * of 20 pull requests, the server killed 5 times and started again on the same data directory and
 * database each time. Each kill lands at an instant drawn from a seeded PRNG (so a failure replays
 * alike) within 0-1.5 s after the queue's next move in git (a draft built, a base merged), so every
 * kill interrupts work in progress rather than an idle start. Every pull request merges exactly
 * once, and the activity log neither lost nor doubled an event: one enter, one merged and one
 * leave per pull request, and every checks_start has exactly one checks_end.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../bench/log/percentiles.js";
import { eventually } from "../support/eventually.js";
import { countPer, expectMergedExactlyOnce, faultWorld, type FaultWorld } from "./support/fault-world.js";

const SEED = 7;
const KILLS = 5;
let world: FaultWorld;
const instants: number[] = [];

beforeAll(async () => {
  const random = seededRandom(SEED);
  // Checks of two seconds and seven batches: the queue still has work in progress at every kill.
  world = await faultWorld(20, {}, "sleep 2");
  for (let k = 0; k < KILLS; k++) {
    const ms = Math.round(random() * 1500);
    const refs = () => world.git("for-each-ref", "--format=%(objectname) %(refname)");
    const before = refs();
    const moved = await eventually(async () => expect(refs()).not.toBe(before), 30_000, 50).then(
      () => true,
      () => false,
    );
    if (!moved) break; // nothing left to do: the queue is done
    instants.push(ms);
    await new Promise((r) => setTimeout(r, ms));
    await world.kill();
    await world.restart();
  }
}, 300_000);

afterAll(async () => world?.cleanup());

describe(`a queue of 20 pull requests, the server killed ${KILLS} times at seeded random instants`, () => {
  it("merges every pull request exactly once", async () => {
    expect(instants, "each kill interrupted work in progress").toHaveLength(KILLS);
    await expectMergedExactlyOnce(world, 180_000);
  });

  it("logs one enter, one merged and one leave per pull request, and one checks_end per checks_start", async () => {
    const once = Object.fromEntries(world.pulls.map((n) => [n, 1]));
    for (const type of ["action.queue.enter", "action.queue.merged", "action.queue.leave"]) {
      const list = await world.events(type);
      const per = countPer(
        world.pulls,
        list.map((e) => e.pull_request),
      );
      expect(per, `${type} (kills at ${instants.join(", ")} ms)`).toEqual(once);
    }
    expect((await world.events("action.queue.leave")).every((e) => e.metadata.merged === true)).toBe(true);
    const key = (e: any) => `${e.pull_request}/${e.metadata.speculative_check_pull_request?.number}`;
    const starts = (await world.events("action.queue.checks_start")).map(key).sort();
    const ends = (await world.events("action.queue.checks_end")).map(key).sort();
    expect(starts.length).toBeGreaterThanOrEqual(world.pulls.length);
    expect(ends).toEqual(starts);
  });
});
