/**
 * `kill -9` at random instants (docs/reliability.md "Crashes: every effect exactly once"): a queue
 * of 12 pull requests, the server killed 5 times and started again on the same data directory and
 * database each time. Each kill lands at an instant drawn from a seeded PRNG (so a failure replays
 * alike) within 0-1.5 s after the queue's next move in git (a draft built, a base merged), so every
 * kill interrupts work in progress rather than an idle start. Every pull request merges exactly once, and the activity log neither lost nor doubled an
 * event: one enter, one merged and one leave per pull request, and every checks_start has exactly
 * one checks_end.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { countPer, expectMergedExactlyOnce, faultWorld, type FaultWorld } from "./support/fault-world.js";

/** mulberry32: a small, well-known 32-bit PRNG; numbers in [0, 1). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = 7;
const KILLS = 5;
let world: FaultWorld;
const instants: number[] = [];

beforeAll(async () => {
  const random = prng(SEED);
  world = await faultWorld(12);
  for (let k = 0; k < KILLS; k++) {
    const ms = Math.round(random() * 1500);
    const refs = world.git("for-each-ref", "--format=%(objectname) %(refname)");
    const moved = await eventually(async () => expect(world.git("for-each-ref", "--format=%(objectname) %(refname)")).not.toBe(refs), 30_000, 50).then(() => true, () => false);
    if (!moved) break; // nothing left to do: the queue is done
    instants.push(ms);
    await new Promise((r) => setTimeout(r, ms));
    await world.kill();
    await world.restart();
  }
}, 300_000);

afterAll(async () => world?.cleanup());

describe(`a queue of 12 pull requests, the server killed ${KILLS} times at seeded random instants`, () => {
  it("merges every pull request exactly once", async () => {
    expect(instants, "each kill interrupted work in progress").toHaveLength(KILLS);
    await expectMergedExactlyOnce(world, 180_000);
  });

  it("logs one enter, one merged and one leave per pull request, and one checks_end per checks_start", async () => {
    const once = Object.fromEntries(world.pulls.map((n) => [n, 1]));
    for (const type of ["action.queue.enter", "action.queue.merged", "action.queue.leave"]) {
      const list = await world.events(type);
      expect(countPer(world.pulls, list.map((e) => e.pull_request)), `${type} (kills at ${instants.join(", ")} ms)`).toEqual(once);
    }
    expect((await world.events("action.queue.leave")).every((e) => e.metadata.merged === true)).toBe(true);
    const key = (e: any) => `${e.pull_request}/${e.metadata.speculative_check_pull_request?.number}`;
    const starts = (await world.events("action.queue.checks_start")).map(key).sort();
    const ends = (await world.events("action.queue.checks_end")).map(key).sort();
    expect(starts.length).toBeGreaterThanOrEqual(world.pulls.length);
    expect(ends).toEqual(starts);
  });
});
