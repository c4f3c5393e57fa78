/**
 * One write of the local forge to one repository: a PostgreSQL transaction holding the
 * repository's row lock (so writes to a repository are serial), the git changes made inside it,
 * and the events they cause. Every ref change is journalled before git makes it and the journal
 * rows are deleted in the write's transaction (ref-journal.ts); the events are stored in it
 * (event-outbox.ts) and delivered after the commit. A write that fails before COMMIT moves its
 * refs back while it still holds the lock; a COMMIT without an answer is decided by the journal.
 * docs/local-forge.md "Writes and events".
 */
import { randomUUID } from "node:crypto";
import type pg from "pg";
import { FAILPOINT_NAMES, failpoint } from "../../failpoints/index.js";
import { ForgeError, type ForgeEvent, type RepoName } from "../types.js";
import { localForgeStore as store } from "../../store/index.js";
import type { BareRepo } from "./git/index.js";
import { asForgeError, gitOf, type ForgeCore } from "./core.js";
import type { StoredEvent } from "./event-outbox.js";
import { WriteJournal } from "./ref-journal.js";

/** What a write sees. */
export interface WriteContext {
  core: ForgeCore;
  client: pg.PoolClient;
  repo: store.LocalRepositoryRow;
  /** The repository; every ref change through it is journalled (and undone if the write does not commit). */
  git: BareRepo;
  /** The time of this write (one reading of the clock). */
  now: Date;
  /** Queues an event, stored with the write and delivered after the commit in the order queued. */
  emit(event: ForgeEvent): void;
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
 * Runs `fn` in a transaction on repository `repo`, after the forge's start-up recovery.
 * @returns what `fn` returned, after the commit and the delivery of its events
 * @throws ForgeError not_found when the repository does not exist; whatever `fn` throws
 *   (ForgeError); ForgeError transient when the database fails, also for a COMMIT whose outcome
 *   is not known (its refs are reconciled at the next start)
 */
export async function inRepository<T>(
  core: ForgeCore,
  repo: RepoName,
  options: WriteOptions,
  fn: (ctx: WriteContext) => Promise<T>,
): Promise<T> {
  await core.ready;
  const events: ForgeEvent[] = [];
  const after: (() => void)[] = [];
  const { result, stored } = await asForgeError(options.what, async () => {
    const client = await core.db.connect();
    let broken = false;
    // A connection that drops between statements surfaces as an 'error' event of the client,
    // which must not go unheard (it would end the process); the next statement then fails.
    const dropped = (e: Error) => {
      broken = true;
      core.logger.warn({ err: e, repository: repo }, "the connection of a local forge write dropped");
    };
    client.on("error", dropped);
    try {
      return await transaction(core, client, repo, options, events, after, fn, () => (broken = true));
    } finally {
      client.off("error", dropped);
      client.release(broken);
    }
  });
  // The write's own events first, so a CI job woken below cannot report before them.
  await core.events.deliver(stored);
  for (const step of after) {
    try {
      step();
    } catch (e) {
      core.logger.error({ err: e, repository: repo }, "a step after a committed write failed");
    }
  }
  return result;
}

async function transaction<T>(
  core: ForgeCore,
  client: pg.PoolClient,
  repo: RepoName,
  options: WriteOptions,
  events: ForgeEvent[],
  after: (() => void)[],
  fn: (ctx: WriteContext) => Promise<T>,
  markBroken: () => void,
): Promise<{ result: T; stored: StoredEvent[] }> {
  await client.query("BEGIN");
  let journal: WriteJournal | null = null;
  let result: T;
  let stored: StoredEvent[];
  try {
    const row =
      options.lock === false
        ? await store.findLocalRepository(client, repo)
        : await store.lockLocalRepository(client, repo);
    if (row === null) throw new ForgeError("not_found", `repository ${repo} does not exist`);
    journal = new WriteJournal(core.journalDb, core.logger, gitOf(row), row.id, randomUUID());
    result = await fn(context(core, client, row, journal, events, after));
    stored = await core.events.store(client, events);
    await journal.settle(client);
    await failpoint(FAILPOINT_NAMES.localBeforeCommit);
  } catch (error) {
    // Still holding the row lock: no other write sees the refs before they are back.
    await journal?.revert();
    await client.query("ROLLBACK").catch(() => markBroken());
    throw error;
  }
  try {
    await client.query("COMMIT");
    await failpoint(FAILPOINT_NAMES.localCommitted);
  } catch (error) {
    markBroken();
    const outcome = await journal.outcome();
    core.logger.error({ err: error, repository: repo, outcome }, "COMMIT of a local forge write got no answer");
    if (outcome === "rolled_back") await journal.revert();
    if (outcome !== "committed") {
      const what =
        outcome === "rolled_back"
          ? "did not commit"
          : "may not have committed (its refs are reconciled at the next start)";
      const message = `${options.what}: the write ${what}: ${(error as Error).message}`;
      throw new ForgeError("transient", message, undefined, { cause: error });
    }
  }
  return { result, stored };
}

function context(
  core: ForgeCore,
  client: pg.PoolClient,
  row: store.LocalRepositoryRow,
  journal: WriteJournal,
  events: ForgeEvent[],
  after: (() => void)[],
): WriteContext {
  const now = core.now();
  const users = new Map<string, store.LocalUserRow>();
  const user = async (login: string, kind: "User" | "Bot" = "User") => {
    const key = login.toLowerCase();
    const known = users.get(key) ?? (await store.ensureLocalUser(client, { login, kind, now }));
    users.set(key, known);
    return known;
  };
  return {
    core,
    client,
    repo: row,
    git: { ...gitOf(row), refMoves: journal.observer },
    now,
    emit: (event) => void events.push(event),
    afterCommit: (step) => void after.push(step),
    user,
    bot: () => user(core.botLogin, "Bot"),
  };
}
