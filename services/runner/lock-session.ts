/**
 * A repository's session-level advisory lock, held on one pooled connection for the length of a
 * processing (docs/merge-queue.md "Runner", items 2 and 9). The lock belongs to the PostgreSQL
 * session: when the connection dies (a database restart, `pg_terminate_backend`, a network cut)
 * the lock is released with it and another runner process may take it at once. So the session
 * is fenced: before each round and each forge effect the runner calls {@link assertHeld}, which
 * proves with a round trip that this connection is alive and still holds the lock, and throws
 * {@link LockLostError} otherwise; the runner then stops working the repository (no forge call)
 * and tries again later on a new connection, where it must take the lock again.
 *
 * The connection's `error` event (node-postgres emits it on a checked-out client whose connection
 * ends between queries) is listened to for as long as the session holds the client: it marks the
 * session lost instead of ending the process. A lost session's client is destroyed on release,
 * not returned to the pool.
 */
import type pg from "pg";
import {
  holdsRepositorySessionLock,
  lockRepositorySession,
  tryLockRepositorySession,
  unlockRepositorySession,
  type Pool,
} from "../store/index.js";

/** This process no longer holds a repository's lock: its session died or let go of it. */
export class LockLostError extends Error {
  override readonly name = "LockLostError";
  constructor(
    readonly repository: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    const consequence = "its work stops until the lock is taken again";
    super(`the lock of ${repository} is no longer held by this runner (${reason}): ${consequence}`, options);
  }
}

/** A held repository lock (see the file header). */
export class RepositoryLockSession {
  private lost: Error | null = null;
  private readonly onError = (e: Error) => {
    this.lost ??= e;
  };

  private constructor(
    readonly client: pg.PoolClient,
    readonly repository: string,
  ) {
    client.on("error", this.onError);
  }

  /**
   * Takes a connection and the repository's lock on it: `try` gives up (null) when another session
   * holds it, `wait` waits for it.
   * @throws the database's error when no connection can be made or the lock query fails (the
   *   connection is given back)
   */
  static async open(pool: Pool, repository: string, mode: "wait"): Promise<RepositoryLockSession>;
  static async open(pool: Pool, repository: string, mode: "try"): Promise<RepositoryLockSession | null>;
  static async open(pool: Pool, repository: string, mode: "try" | "wait"): Promise<RepositoryLockSession | null> {
    const session = new RepositoryLockSession(await pool.connect(), repository);
    try {
      if (mode === "wait") await lockRepositorySession(session.client, repository);
      else if (!(await tryLockRepositorySession(session.client, repository))) {
        session.giveBack();
        return null;
      }
      return session;
    } catch (e) {
      session.lost ??= e as Error;
      session.giveBack();
      throw e;
    }
  }

  /**
   * Proves that the connection is alive and holds the lock now.
   * @throws LockLostError when the connection died (its error is the cause) or the lock is not held
   */
  async assertHeld(): Promise<void> {
    if (this.lost) {
      throw new LockLostError(this.repository, `its connection was lost: ${this.lost.message}`, { cause: this.lost });
    }
    let held: boolean;
    try {
      held = await holdsRepositorySessionLock(this.client, this.repository);
    } catch (e) {
      this.lost ??= e as Error;
      throw new LockLostError(this.repository, `its connection failed: ${(e as Error).message}`, { cause: e });
    }
    if (!held) throw new LockLostError(this.repository, "the session does not hold it");
  }

  /** Lets go of the lock (when the connection still lives) and gives the connection back; never throws. */
  async release(): Promise<void> {
    if (!this.lost) {
      try {
        await unlockRepositorySession(this.client, this.repository);
      } catch (e) {
        this.lost = e as Error;
      }
    }
    this.giveBack();
  }

  /** Returns the client to the pool, or destroys it when its connection was lost. */
  private giveBack(): void {
    this.client.removeListener("error", this.onError);
    this.client.release(this.lost ?? undefined);
  }
}
