/**
 * Replicas take over in seconds (docs/deployment.md "Several replicas"): `yardmaster serve`
 * processes on one PostgreSQL with the GitHub forge (the test double over HTTP, webhooks delivered
 * to whichever replica is in service). The repositories are spread across the replicas and
 * `/metrics` says which works which. A replica is stopped in the middle of a merge, holding the
 * repository's lock (a failpoint hangs its first merge after recording it started):
 * - `kill -9`: its sessions end with its process; another replica sees it gone at its next
 *   heartbeat and takes the repository over, replaying the merge after reading GitHub;
 * - `SIGSTOP` (frozen, its sessions and lock lingering): once its lease expired another replica
 *   ends its sessions, which releases the lock, and takes the repository over.
 * Every pull request is merged exactly once and no event is written twice. The takeover times are
 * printed; the assertions on them are loose (the machine is shared); `npm run bench:scale` measures
 * them against the 5 s target.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { eventually } from "../support/eventually.js";
import {
  doubledEvents,
  lockHolder,
  mergedEvents,
  mergeUnderWay,
  replicaIds,
  repositoryOf,
  sessionsOf,
} from "../support/replica-checks.js";
import { replicaWorld, type ReplicaWorld } from "../support/replica-world.js";

/** Hangs the replica's first merge for ten minutes, after it is recorded started, the lock held. */
const HANG_FIRST_MERGE = { YARDMASTER_FAILPOINTS: "runner.effect.merge_batch.after-start=1*sleep(600000)" };

let db: TestDatabase;
let w: ReplicaWorld;
beforeAll(async () => {
  db = await freshDatabase({ migrated: false });
  w = await replicaWorld(db.url);
});
afterAll(async () => {
  await w?.close();
  await db?.drop();
});

/** Waits until `replicas` (names) are the live set in the database and in each one's view; their ids by name. */
async function live(replicas: string[]): Promise<Map<string, string>> {
  return eventually(async () => {
    const ids = await replicaIds(db.pool);
    expect([...ids.keys()].sort()).toEqual([...replicas].sort());
    for (const name of replicas) expect(await w.replicas.get(name)!.sees()).toBe(replicas.length);
    return ids;
  }, 30_000);
}

/** Milliseconds from `since` until `condition` holds (polled every 20 ms). */
async function msUntil(
  since: number,
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 60_000,
): Promise<number> {
  await eventually(async () => expect(await condition()).toBe(true), timeoutMs, 20);
  return Date.now() - since;
}

describe("replicas on one PostgreSQL", () => {
  it("spread the repositories and take one over within seconds from a replica killed with kill -9", async () => {
    const k = await w.start("k", HANG_FIRST_MERGE);
    const s = await w.start("s");
    const ids = await live(["k", "s"]);
    const a = await w.repository(repositoryOf("k", ["k", "s"], ids, "acme/kill"), 2);
    const c = await w.repository(repositoryOf("s", ["k", "s"], ids, "acme/calm"), 2);
    for (const n of c.numbers) await w.queue(c.repo, n);
    for (const n of a.numbers) await w.queue(a.repo, n);

    // s merges its repository; k hangs in the merge of its first pull request, holding the lock.
    await eventually(async () => expect(c.numbers.map((n) => w.merges.get(`${c.repo.fullName}#${n}`))).toEqual([1, 1]));
    await eventually(async () => expect(await mergeUnderWay(db.pool, a.repo.fullName)).toBe(true));
    expect(await lockHolder(db.pool, a.repo.fullName)).toBe(ids.get("k"));
    expect(await k.worked()).toEqual([a.repo.fullName]);
    expect(await s.worked()).toEqual([c.repo.fullName]);
    expect(w.merges.get(`${a.repo.fullName}#${a.numbers[0]}`)).toBeUndefined();

    w.inService.delete("k");
    const killedAt = Date.now();
    k.child.kill("SIGKILL");
    const lockFree = await msUntil(killedAt, async () => (await lockHolder(db.pool, a.repo.fullName)) !== ids.get("k"));
    const merged = await msUntil(killedAt, () => w.merges.has(`${a.repo.fullName}#${a.numbers[0]}`));
    console.log(
      `kill -9 of the replica working ${a.repo.fullName}: its lock free after ${lockFree} ms, its merge done by another replica after ${merged} ms`,
    );
    expect(merged).toBeLessThan(30_000);

    await eventually(async () => expect(a.numbers.map((n) => w.merges.get(`${a.repo.fullName}#${n}`))).toEqual([1, 1]));
    expect(await s.worked()).toEqual([a.repo.fullName, c.repo.fullName].sort());
    expect((await replicaIds(db.pool)).has("k")).toBe(false);
  });

  it("takes a repository over from a frozen replica once its lease expired, ending its sessions", async () => {
    const k2 = await w.start("k2", HANG_FIRST_MERGE);
    const ids = await live(["s", "k2"]);
    const b = await w.repository(repositoryOf("k2", ["s", "k2"], ids, "acme/frozen"), 1);
    await w.queue(b.repo, b.numbers[0]);
    await eventually(async () => expect(await mergeUnderWay(db.pool, b.repo.fullName)).toBe(true));
    expect(await lockHolder(db.pool, b.repo.fullName)).toBe(ids.get("k2"));

    w.inService.delete("k2");
    const frozenAt = Date.now();
    k2.child.kill("SIGSTOP");
    const lockFree = await msUntil(
      frozenAt,
      async () => (await lockHolder(db.pool, b.repo.fullName)) !== ids.get("k2"),
    );
    const merged = await msUntil(frozenAt, () => w.merges.has(`${b.repo.fullName}#${b.numbers[0]}`));
    console.log(
      `SIGSTOP of the replica working ${b.repo.fullName} (lease 3 s): its lock free after ${lockFree} ms, its merge done by another replica after ${merged} ms`,
    );
    // Not before its lease ran out (3 s after its last heartbeat, which came at most 1 s before
    // the freeze): a replica that is only slow keeps its repositories.
    expect(lockFree).toBeGreaterThanOrEqual(1900);
    expect(merged).toBeLessThan(30_000);
    expect(await sessionsOf(db.pool, ids.get("k2")!)).toBe(0);
    k2.child.kill("SIGKILL");
  });

  afterAll(async () => {
    expect(w.problems).toEqual([]);
    expect(w.double.problems).toEqual([]);
    // Every pull request merged exactly once, in GitHub and in the activity log, no event twice.
    expect([...w.merges.values()].every((n) => n === 1)).toBe(true);
    await eventually(async () => expect(await mergedEvents(db.pool)).toEqual(w.merges), 30_000);
    expect(await doubledEvents(db.pool)).toEqual([]);
  });
});
