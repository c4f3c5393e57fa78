/**
 * Lock fencing (docs/merge-queue.md "Runner", item 9): a repository's advisory lock belongs to the
 * PostgreSQL session that took it. Here the session's backend is ended with pg_terminate_backend
 * right after the runner committed one forge effect's result, and another session takes the
 * lock at once (as a second runner process would). The runner must notice before its next forge
 * call: no effect is performed while another session holds the lock, the dead connection's
 * `error` event ends nothing, and the remaining effect is performed exactly once after the lock
 * is taken again on a new connection.
 */
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import {
  addEffects,
  holdsRepositorySessionLock,
  lockRepositorySession,
  tryLockRepositorySession,
  unlockRepositorySession,
  withTransaction,
} from "../../services/store/index.js";
import { RepositoryLockSession, LockLostError } from "../../services/runner/lock-session.js";
import { eventually } from "../support/eventually.js";
import { bareRunner, REPO, type BareRunner } from "./bare-runner.js";

let w: BareRunner | undefined;
const clients: pg.Client[] = [];
afterEach(async () => {
  await w?.cleanup();
  w = undefined;
  for (const c of clients.splice(0)) await c.end().catch(() => {});
});

/** The PostgreSQL backend process of a client's connection. */
const backendPid = (client: pg.ClientBase) => (client as unknown as { processID: number }).processID;

async function connect(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  c.on("error", () => {});
  await c.connect();
  clients.push(c);
  return c;
}

describe("a runner whose lock session was terminated", () => {
  it("performs no forge effect while another session holds the lock, and the rest once it holds it again", async () => {
    w = await bareRunner();
    const db = w.db;
    const admin = await connect(db.url);
    const other = await connect(db.url);
    const commented: string[] = [];
    let otherHolds = false;
    let terminated = false;
    // The forge records comments, noting whether another session held the lock at that moment.
    const forge = w.forge as unknown as { comment: (repo: string, n: number, body: string) => Promise<void> };
    // (Each comment ends with its idempotency marker, docs/reliability.md; compared without it.)
    forge.comment = async (_repo, _n, marked) => {
      const body = marked.replace(/\n*<!-- yardmaster:effect \S+ -->$/, "");
      commented.push(otherHolds ? `${body} (lock held elsewhere)` : body);
    };
    // The runner's lock session is the client that takes the repository's lock; after the commit
    // that records the first effect's result, its backend is terminated and the other session
    // takes the lock before the runner goes on.
    let session: pg.PoolClient | undefined;
    db.pool.on("acquire", (client: pg.PoolClient & { fenced?: true }) => {
      if (client.fenced) return;
      client.fenced = true;
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
        const text = typeof args[0] === "string" ? args[0] : "";
        if (text.includes("pg_try_advisory_lock")) session = client;
        const result = query(...args);
        if (terminated || client !== session || text !== "COMMIT" || commented.length !== 1) return result;
        terminated = true;
        return (result as Promise<unknown>).then(async (r) => {
          await admin.query("SELECT pg_terminate_backend($1::int, 5000)", [backendPid(client)]);
          await lockRepositorySession(other, REPO);
          otherHolds = true;
          return r;
        });
      };
    });
    const effects = ["first", "second"].map((body) => ({ kind: "comment", number: 1, body }));
    await withTransaction(db.pool, (c) => addEffects(c, REPO, effects));
    w.runner.start();
    w.runner.wake(REPO);
    await eventually(async () => expect(otherHolds).toBe(true), 20_000, 10);
    // The sweep keeps trying (every 20 ms here) while the other session holds the lock.
    await new Promise((r) => setTimeout(r, 1000));
    expect(commented).toEqual(["first"]);
    await other.query("SELECT pg_advisory_unlock_all()");
    otherHolds = false;
    await eventually(async () => expect(commented).toEqual(["first", "second"]), 20_000, 20);
    await eventually(async () => expect(await w!.count("queue_effects")).toBe(0), 20_000, 20);
    const failed = w.lines.filter((l) => l.msg === "processing failed; the inputs stay in the inbox");
    const lost = failed.filter((l) => JSON.stringify(l.err).includes("no longer held"));
    expect(lost.length).toBeGreaterThan(0);
  });
});

describe("RepositoryLockSession", () => {
  it("proves it holds the lock, and throws LockLostError once its connection was terminated or it let go", async () => {
    w = await bareRunner();
    const admin = await connect(w.db.url);
    const session = (await RepositoryLockSession.open(w.db.pool, REPO, "try"))!;
    await session.assertHeld();
    expect(await RepositoryLockSession.open(w.db.pool, REPO, "try")).toBeNull();
    await admin.query("SELECT pg_terminate_backend($1::int, 5000)", [backendPid(session.client)]);
    await expect(session.assertHeld()).rejects.toBeInstanceOf(LockLostError);
    await session.release();
    // Another connection takes the lock again; one that lets go of it is no longer fenced in.
    const again = (await RepositoryLockSession.open(w.db.pool, REPO, "try"))!;
    await again.assertHeld();
    await again.client.query("SELECT pg_advisory_unlock_all()");
    expect(await holdsRepositorySessionLock(again.client, REPO)).toBe(false);
    await expect(again.assertHeld()).rejects.toThrow(/does not hold it/);
    await again.release();
  });

  it("finds its lock in pg_locks whatever the sign of the 64-bit key", async () => {
    w = await bareRunner();
    const client = await connect(w.db.url);
    const names = Array.from({ length: 12 }, (_, i) => `acme/repo-${i}`);
    const sql = "SELECT hashtextextended(n, 7261)::text AS key FROM unnest($1::text[]) AS n";
    const keys = await client.query<{ key: string }>(sql, [names]);
    expect(new Set(keys.rows.map((r) => r.key.startsWith("-")))).toEqual(new Set([true, false]));
    for (const name of names) {
      expect(await tryLockRepositorySession(client, name)).toBe(true);
      expect(await holdsRepositorySessionLock(client, name)).toBe(true);
      await unlockRepositorySession(client, name);
      expect(await holdsRepositorySessionLock(client, name)).toBe(false);
    }
  });
});
