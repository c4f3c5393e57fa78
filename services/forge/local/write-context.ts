/**
 * One write of the local forge to one repository: a PostgreSQL transaction holding the
 * repository's row lock (so writes to a repository are serial), the git changes made inside it,
 * and the events they cause. Events are delivered only after the commit; when the transaction
 * fails after git moved a ref, the recorded undo steps put the refs back (compare-and-swap), so
 * the rows and git agree. docs/local-forge.md "Writes and events".
 */
import type pg from "pg";
import { ForgeError, type ForgeEvent, type RepoName } from "../types.js";
import { localForgeStore as store, withTransaction } from "../../store/index.js";
import type { BareRepo } from "./git/index.js";
import { asForgeError, gitOf, type ForgeCore } from "./core.js";

/** What a write sees. */
export interface WriteContext {
  core: ForgeCore;
  client: pg.PoolClient;
  repo: store.LocalRepositoryRow;
  git: BareRepo;
  /** The time of this write (one reading of the clock). */
  now: Date;
  /** Queues an event, delivered after the commit in the order queued. */
  emit(event: ForgeEvent): void;
  /** Registers a step that reverts a git change if the transaction does not commit (run last-in first-out). */
  undo(step: () => Promise<void>): void;
  /** Registers a step to run after the commit and the delivery of the events (waking the CI worker, cancelling running jobs). */
  afterCommit(step: () => void): void;
  /** The user row of `login`, created on first use (`kind` only matters then). */
  user(login: string, kind?: "User" | "Bot"): Promise<store.LocalUserRow>;
  /** The bot's user row. */
  bot(): Promise<store.LocalUserRow>;
}

/** Options of {@link inRepository}. */
export interface WriteOptions {
  /** Take the repository's row lock (default true). Check run writes do without it. */
  lock?: boolean;
  /** Names the operation in errors from the database. */
  what: string;
}

/**
 * Runs `fn` in a transaction on repository `repo`.
 * @returns what `fn` returned, after the commit and the delivery of its events
 * @throws ForgeError not_found when the repository does not exist; whatever `fn` throws
 *   (ForgeError); ForgeError transient when the database fails
 */
export async function inRepository<T>(core: ForgeCore, repo: RepoName, options: WriteOptions, fn: (ctx: WriteContext) => Promise<T>): Promise<T> {
  const events: ForgeEvent[] = [];
  const undos: (() => Promise<void>)[] = [];
  const after: (() => void)[] = [];
  let result: T;
  try {
    result = await asForgeError(options.what, () =>
      withTransaction(core.db, async (client) => {
        const row = options.lock === false ? await store.findLocalRepository(client, repo) : await store.lockLocalRepository(client, repo);
        if (row === null) throw new ForgeError("not_found", `repository ${repo} does not exist`);
        const now = core.now();
        const users = new Map<string, store.LocalUserRow>();
        const user = async (login: string, kind: "User" | "Bot" = "User") => {
          const key = login.toLowerCase();
          const known = users.get(key) ?? (await store.ensureLocalUser(client, { login, kind, now }));
          users.set(key, known);
          return known;
        };
        const ctx: WriteContext = {
          core,
          client,
          repo: row,
          git: gitOf(row),
          now,
          emit: (event) => void events.push(event),
          undo: (step) => void undos.push(step),
          afterCommit: (step) => void after.push(step),
          user,
          bot: () => user(core.botLogin, "Bot"),
        };
        return fn(ctx);
      }),
    );
  } catch (error) {
    for (const step of undos.reverse()) {
      await step().catch((e) => core.logger.error({ err: e, repository: repo }, "could not revert a git change after a failed write"));
    }
    throw error;
  }
  // The write's own events first, so a CI job woken below cannot report before them.
  await core.deliver(events);
  for (const step of after) {
    try {
      step();
    } catch (e) {
      core.logger.error({ err: e, repository: repo }, "a step after a committed write failed");
    }
  }
  return result;
}
