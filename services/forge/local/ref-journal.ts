/**
 * Atomic ref moves of the local forge (docs/local-forge.md "Writes and events"): git refs are not
 * in PostgreSQL, so a write that moves a ref and records what follows in a transaction could
 * crash in between. Every ref change of a write is therefore journalled first: a row (repository,
 * ref, old SHA, new SHA, write id) committed on a connection of its own, then the compare-and-swap
 * in git; the write deletes its rows in its own transaction. So:
 * - committed: the rows are gone, the refs and the rows agree;
 * - failed before COMMIT: the refs are moved back now ({@link WriteJournal.revert}), with the
 *   row lock still held, and the rows deleted;
 * - COMMIT without an answer: the rows tell ({@link WriteJournal.outcome}); locking them waits for
 *   the transaction if it is still alive;
 * - crashed: the rows are found at the next start ({@link recoverRefJournal}) and their refs moved
 *   back.
 * A ref found at neither its old nor its new SHA was moved by something else since: it is left
 * alone and logged as an error.
 */
import type pg from "pg";
import type { Logger } from "pino";
import pRetry from "p-retry";
import { FAILPOINT_NAMES, failpoint } from "../../failpoints/index.js";
import { localForgeStore as store, withTransaction } from "../../store/index.js";
import { compareAndSwapRef, readRef, type BareRepo, type RefMoveObserver } from "./git/index.js";

/** One journalled ref change. */
interface Move {
  id: number;
  ref: string;
  oldSha: string | null;
  newSha: string | null;
}

/** What undoing one move found. */
export type UndoResult = "reverted" | "untouched" | "diverged";

/**
 * Moves `ref` back from `newSha` to `oldSha` by compare-and-swap; a ref already at `oldSha` is
 * untouched, a ref at neither is diverged (left as it is).
 */
export async function undoMove(
  git: BareRepo,
  move: { ref: string; oldSha: string | null; newSha: string | null },
): Promise<UndoResult> {
  const actual = await readRef(git, move.ref);
  if (actual === move.oldSha) return "untouched";
  if (actual !== move.newSha) return "diverged";
  await compareAndSwapRef(git, move.ref, move.newSha, move.oldSha);
  return "reverted";
}

/** The ref journal of one write. `journalDb` is a pool of its own (the write holds a connection of the main one). */
export class WriteJournal {
  private readonly moves: Move[] = [];

  constructor(
    private readonly journalDb: pg.Pool,
    private readonly logger: Logger,
    /** The repository as git sees it, without the observer (undo moves are not journalled). */
    private readonly git: BareRepo,
    private readonly repositoryId: number,
    private readonly writeId: string,
  ) {}

  /** The observer to put on the write's BareRepo. */
  readonly observer: RefMoveObserver = {
    before: async (ref, oldSha, newSha) => {
      const intent = { repositoryId: this.repositoryId, ref, oldSha, newSha, writeId: this.writeId };
      const id = await store.insertRefIntent(this.journalDb, intent);
      this.moves.push({ id, ref, oldSha, newSha });
    },
    after: async () => {
      await failpoint(FAILPOINT_NAMES.localRefMoved);
    },
  };

  /** Whether the write journalled any ref change. */
  get moved(): boolean {
    return this.moves.length > 0;
  }

  /** Deletes the write's rows in its own transaction (just before COMMIT). */
  async settle(client: pg.ClientBase): Promise<void> {
    await store.deleteRefIntents(
      client,
      this.moves.map((m) => m.id),
    );
  }

  /**
   * The write did not commit: moves its refs back, newest first, and deletes its rows. A failure
   * to delete the rows is logged: the next start finds the refs at their old SHAs and only deletes them.
   */
  async revert(): Promise<void> {
    const done: number[] = [];
    for (const move of [...this.moves].reverse()) {
      try {
        report(this.logger, this.git.name, move, await undoMove(this.git, move), this.writeId);
        done.push(move.id);
      } catch (e) {
        this.logger.error(
          { err: e, repository: this.git.name, ref: move.ref },
          "could not move a ref back after a write that did not commit; the next start tries again",
        );
      }
    }
    await store
      .deleteRefIntents(this.journalDb, done)
      .catch((e) => this.logger.warn({ err: e, repository: this.git.name }, "could not delete ref journal rows"));
    this.moves.length = 0;
  }

  /**
   * The outcome of a COMMIT that got no answer, from the write's journal rows: gone = committed,
   * still there = not committed. Locking them waits for the transaction if it is still alive
   * (its DELETE holds them), so a COMMIT still on its way is not mistaken for a failure.
   * "unknown" when the write moved no ref or the database cannot be asked (then the rows stay for
   * the next start).
   */
  async outcome(): Promise<"committed" | "rolled_back" | "unknown"> {
    if (!this.moved) return "unknown";
    const ids = this.moves.map((m) => m.id);
    try {
      // A lock timeout (55P03) means the transaction is still alive after 30 s: asking again will not tell.
      const left = await pRetry(() => store.countRefIntentsAfterLock(this.journalDb, ids, 30_000), {
        retries: 4,
        minTimeout: 250,
        maxTimeout: 2000,
        shouldRetry: ({ error }) => (error as { code?: string }).code !== "55P03",
      });
      if (left === 0) return "committed";
      if (left === ids.length) return "rolled_back";
      this.logger.error(
        { repository: this.git.name, writeId: this.writeId, left, of: ids.length },
        "part of a write's ref journal is left: its outcome is unknown",
      );
      return "unknown";
    } catch (e) {
      this.logger.error(
        { err: e, repository: this.git.name, writeId: this.writeId },
        "the outcome of a COMMIT cannot be learned; the next start reconciles its refs",
      );
      return "unknown";
    }
  }
}

function report(logger: Logger, repository: string, move: Omit<Move, "id">, result: UndoResult, writeId: string): void {
  if (result === "diverged") {
    logger.error(
      { repository, ref: move.ref, oldSha: move.oldSha, newSha: move.newSha, writeId },
      "a ref of a write that did not commit is at neither its old nor its new SHA: something else moved it; " +
        "it is left as it is",
    );
  } else if (result === "reverted") {
    const moved = { repository, ref: move.ref, from: move.newSha, to: move.oldSha, writeId };
    logger.warn(moved, "moved a ref back: its write did not commit");
  }
}

/**
 * Start-up recovery: every journal row still present belongs to a write that did not commit
 * (a live write holds its repository's row lock, which this takes first, and deletes its rows
 * before it lets go). Each ref is moved back (newest first) and the row deleted.
 * @returns how many refs were moved back, found untouched, and found diverged
 * @throws the database's error (the forge must not serve before this ran)
 */
export async function recoverRefJournal(db: pg.Pool, logger: Logger): Promise<Record<UndoResult, number>> {
  const counts: Record<UndoResult, number> = { reverted: 0, untouched: 0, diverged: 0 };
  for (const fullName of await store.repositoriesWithRefIntents(db)) {
    await withTransaction(db, async (client) => {
      const repo = await store.lockLocalRepository(client, fullName);
      const done: number[] = [];
      for (const row of repo === null ? [] : await store.lockRefIntents(client, repo.id)) {
        try {
          const result = await undoMove({ gitDir: row.path, name: row.fullName }, row);
          report(logger, row.fullName, row, result, row.writeId);
          counts[result]++;
          done.push(row.id);
        } catch (e) {
          logger.error(
            { err: e, repository: row.fullName, ref: row.ref, writeId: row.writeId },
            "could not move a ref back at start-up; its journal row is kept",
          );
        }
      }
      await store.deleteRefIntents(client, done);
    });
  }
  return counts;
}
