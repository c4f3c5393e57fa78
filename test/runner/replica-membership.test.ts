/**
 * The queue runner's replicas on one real PostgreSQL (docs/deployment.md "Several replicas";
 * services/runner/replicas/): replicas that join split the repositories between them by rendezvous
 * hashing and hand work to each other; one that leaves, ends (its sessions gone) or stalls (its
 * heartbeat stale while its sessions, and its advisory locks, linger) is expired, and a stalled
 * one's sessions are ended so that its locks are released. The processes themselves, killed and
 * restarted, are test/e2e/replicas-*.test.ts.
 */
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { ownerOf, ReplicaMembership } from "../../services/runner/index.js";
import {
  guardConnectionErrors,
  replicaApplicationName,
  startChangeFeed,
  tryLockRepositorySession,
  type ChangeFeed,
} from "../../services/store/index.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { eventually } from "../support/eventually.js";
import { testLogger } from "../support/logger.js";

/** A short lease (heartbeats every 100 ms), so that expiry is seen within a second. */
const LEASE_MS = 600;
const REPOSITORIES = Array.from({ length: 200 }, (_, i) => `acme/repo-${i}`);

let db: TestDatabase;
let feed: ChangeFeed;
const pools: pg.Pool[] = [];
const members: ReplicaMembership[] = [];
const clients: pg.Client[] = [];

beforeAll(async () => {
  db = await freshDatabase();
  feed = await startChangeFeed(db.url);
});
afterEach(async () => {
  for (const m of members.splice(0)) await m.stop();
  for (const c of clients.splice(0)) await c.end().catch(() => {});
  for (const p of pools.splice(0)) await p.end().catch(() => {});
  await db.pool.query("DELETE FROM runner_replicas");
});
afterAll(async () => {
  await feed.close();
  await db.drop();
});

/** A pool whose sessions carry `name` as their application_name (as openDatabase names a replica's). */
function namedPool(applicationName: string | undefined, max = 2): pg.Pool {
  const pool = new pg.Pool({ connectionString: db.url, max, application_name: applicationName });
  guardConnectionErrors(pool, () => {});
  pools.push(pool);
  return pool;
}

/** A replica with pools of its own, not started. */
function replica(id: string, opts: { named?: boolean } = {}): { m: ReplicaMembership; heartbeats: pg.Pool } {
  const name = opts.named === false ? undefined : replicaApplicationName(id);
  const heartbeats = namedPool(name, 1);
  const m = new ReplicaMembership({
    replica: { id, name: `replica-${id}` },
    heartbeats,
    db: namedPool(name),
    feed,
    leaseMs: LEASE_MS,
    log: testLogger().logger,
  });
  return { m, heartbeats };
}

async function joined(id: string): Promise<ReplicaMembership> {
  const { m } = replica(id);
  await m.start();
  members.push(m);
  return m;
}

/** A session named after the replica `id` holding the advisory lock of `repository`, as a worker of it would. */
async function lockHolder(id: string, repository: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: db.url, application_name: replicaApplicationName(id) });
  c.on("error", () => {});
  await c.connect();
  clients.push(c);
  expect(await tryLockRepositorySession(c, repository)).toBe(true);
  return c;
}

async function canLock(repository: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: db.url });
  await c.connect();
  try {
    return await tryLockRepositorySession(c, repository);
  } finally {
    await c.end();
  }
}

describe("replicas of the queue runner", () => {
  it("split the repositories by rendezvous hashing: each works its share, none twice, none left out", async () => {
    const a = await joined("aaaa");
    const b = await joined("bbbb");
    await eventually(async () => expect([a.replicas().length, b.replicas().length]).toEqual([2, 2]), 10_000, 50);
    const ofA = REPOSITORIES.filter((r) => a.owns(r));
    const ofB = REPOSITORIES.filter((r) => b.owns(r));
    expect(ofA.length + ofB.length).toBe(REPOSITORIES.length);
    expect(ofA.filter((r) => b.owns(r))).toEqual([]);
    expect(ofA).toEqual(REPOSITORIES.filter((r) => ownerOf(r, ["aaaa", "bbbb"]) === "aaaa"));
    // A fair split: with 200 repositories, each replica's share is far from 0 and from all.
    expect(Math.min(ofA.length, ofB.length)).toBeGreaterThan(60);
  });

  it("hands a repository's work to the replica that works it", async () => {
    const a = await joined("aaaa");
    const b = await joined("bbbb");
    await eventually(async () => expect([a.replicas().length, b.replicas().length]).toEqual([2, 2]), 10_000, 50);
    const handed: (string | null)[] = [];
    a.onWork((r) => handed.push(r));
    const ofA = REPOSITORIES.find((r) => a.owns(r))!;
    const ofB = REPOSITORIES.find((r) => b.owns(r))!;
    b.handOver(ofA);
    b.handOver(ofB);
    await eventually(async () => expect(handed).toContain(ofA), 10_000, 50);
    expect(handed).not.toContain(ofB);
  });

  it("moves a leaving replica's repositories at once, and only those", async () => {
    const a = await joined("aaaa");
    const b = await joined("bbbb");
    const c = await joined("cccc");
    await eventually(async () => expect([a, b, c].map((m) => m.replicas().length)).toEqual([3, 3, 3]), 10_000, 50);
    const ofA = REPOSITORIES.filter((r) => a.owns(r));
    const ofC = REPOSITORIES.filter((r) => c.owns(r));
    members.splice(members.indexOf(c), 1);
    await c.stop();
    const left = ["replica-aaaa", "replica-bbbb"];
    await eventually(async () => expect([a.replicas(), b.replicas()]).toEqual([left, left]), 10_000, 20);
    // A's own repositories stay A's; C's go to A or B.
    expect(ofA.every((r) => a.owns(r))).toBe(true);
    expect(ofC.every((r) => a.owns(r) !== b.owns(r))).toBe(true);
  });

  it("expires a replica whose process ended (no session left) within about one heartbeat", async () => {
    const a = await joined("aaaa");
    const { m: gone, heartbeats } = replica("dddd");
    await gone.start();
    await eventually(async () => expect(a.replicas()).toHaveLength(2), 10_000, 50);
    // The process "dies": its connections close (as the kernel closes a killed process's sockets),
    // and it never leaves. Its row is gone once a heartbeat of A sees no session named after it.
    await heartbeats.end();
    await eventually(async () => expect(a.replicas()).toEqual(["replica-aaaa"]), 10_000, 20);
    const rows = await db.pool.query("SELECT id FROM runner_replicas ORDER BY id");
    expect(rows.rows.map((r) => r.id)).toEqual(["aaaa"]);
    await gone.stop();
  });

  it("ends the sessions of a replica whose heartbeat stopped, releasing the locks they hold", async () => {
    const a = await joined("aaaa");
    await eventually(async () => expect(a.replicas()).toHaveLength(1), 10_000, 50);
    // A stalled replica: its row's heartbeat is old, but its session (holding a repository's lock) lives.
    await db.pool.query("INSERT INTO runner_replicas (id, name, heartbeat_at) VALUES ('eeee', 'stalled', now())");
    const holder = await lockHolder("eeee", "acme/held");
    const lost = new Promise<Error>((resolve) => holder.once("error", resolve));
    await db.pool.query("UPDATE runner_replicas SET heartbeat_at = now() - interval '1 hour' WHERE id = 'eeee'");
    expect(await canLock("acme/held")).toBe(false);
    await eventually(async () => expect(await canLock("acme/held")).toBe(true), 10_000, 50);
    expect((await lost).message).toMatch(/terminat/i);
    expect(a.replicas()).toEqual(["replica-aaaa"]);
  });

  it("does not expire anyone by lease before its own heartbeats ran a lease without a gap", async () => {
    await db.pool.query(
      "INSERT INTO runner_replicas (id, name, heartbeat_at) VALUES ('ffff', 'stale', now() - interval '1 hour')",
    );
    await lockHolder("ffff", "acme/kept");
    const a = await joined("aaaa");
    // Right after joining, A has not seen a lease of its own heartbeats: the stale row (whose
    // session lives) stays, and so does its lock.
    expect((await db.pool.query("SELECT id FROM runner_replicas WHERE id = 'ffff'")).rowCount).toBe(1);
    expect(await canLock("acme/kept")).toBe(false);
    await eventually(async () => expect(await canLock("acme/kept")).toBe(true), 10_000, 50);
    expect(a.replicas()).toEqual(["replica-aaaa"]);
  });

  it("refuses to start when the sessions do not carry the replica's name (application_name set in DATABASE_URL)", async () => {
    const { m } = replica("gggg", { named: false });
    await expect(m.start()).rejects.toThrow(/remove application_name from DATABASE_URL/);
  });
});
