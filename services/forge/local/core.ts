/**
 * What every part of the local forge shares: its dependencies with defaults filled, the bot user,
 * web addresses, and opening a repository row as a git repository. docs/local-forge.md.
 */
import type { Logger } from "pino";
import type pg from "pg";
import { ForgeError, type ForgeEventSink, type RepoName } from "../types.js";
import { localForgeStore as store, siblingPool } from "../../store/index.js";
import type { BareRepo } from "./git/index.js";
import { LocalEventOutbox } from "./event-outbox.js";

/** Login of Yardmaster itself on the local forge (a Bot, as a GitHub App's user is). */
export const DEFAULT_BOT_LOGIN = "yardmaster[bot]";

/** Default login of a person acting through the CLI without `--author`. */
export const DEFAULT_USER_LOGIN = "local-user";

/** The `app` of check runs written by the local CI runner. */
export const LOCAL_CI_APP = "local-ci";

/** The `app` of Yardmaster's own check runs (ignored by conditions; services/forge/types.ts CheckRun). */
export const OWN_CHECK_APP = "yardmaster";

/** The shared state of one local forge. */
export interface ForgeCore {
  db: pg.Pool;
  /** Absolute data directory; repositories live in `<dataDir>/repos`. */
  dataDir: string;
  logger: Logger;
  /** The clock (UTC). */
  now: () => Date;
  botLogin: string;
  /** Prefix of web addresses (the local forge has no web pages: they identify, they do not open). */
  webBaseUrl: string;
  /** The durable events: stored in a write's transaction, delivered after its commit (event-outbox.ts). */
  events: LocalEventOutbox;
  /**
   * A pool of its own for the ref journal (ref-journal.ts): a write holding a connection of `db`
   * journals on this one, so writes never wait for each other's connections.
   */
  journalDb: pg.Pool;
  /** Settles once the start-up recovery ran (writes wait for it); set by createLocalForge. */
  ready: Promise<void>;
}

/** Builds the core. */
export function createCore(input: {
  db: pg.Pool;
  dataDir: string;
  logger: Logger;
  /** null: events wait until a sink is attached (`events.attach`). */
  sink: ForgeEventSink | null;
  now?: () => Date;
  botLogin?: string;
  webBaseUrl?: string;
}): ForgeCore {
  const { logger } = input;
  // An idle journal connection ended by the server (a restart, a dropped database) is replaced on next use.
  const journalDb = siblingPool(input.db, 2, (e) => logger.debug({ err: e }, "idle ref journal connection closed"));
  return {
    db: input.db,
    dataDir: input.dataDir,
    logger,
    now: input.now ?? (() => new Date()),
    botLogin: input.botLogin ?? DEFAULT_BOT_LOGIN,
    webBaseUrl: input.webBaseUrl ?? "local-forge://",
    events: new LocalEventOutbox(input.db, logger, input.sink),
    journalDb,
    ready: Promise.resolve(),
  };
}

/** The bare repository of a repository row. */
export function gitOf(row: store.LocalRepositoryRow): BareRepo {
  return { gitDir: row.path, name: row.fullName };
}

/** Web address of a pull request (or of one of its comments). */
export function pullUrl(core: ForgeCore, repo: RepoName, number: number, commentId?: number): string {
  const base = core.webBaseUrl.endsWith("/") ? core.webBaseUrl : `${core.webBaseUrl}/`;
  return `${base}${repo}/pull/${number}${commentId === undefined ? "" : `#issuecomment-${commentId}`}`;
}

/**
 * The address of a check run's log (`<web base>owner/name/check-runs/<id>`): the page a local CI
 * check run links to, which the dashboard opens at `/repos/owner/name/check-runs/<id>`
 * (ForgeService.GetCheckRunLog; docs/local-forge.md "Check runs").
 */
export function checkRunUrl(core: ForgeCore, repo: RepoName, id: number): string {
  const base = core.webBaseUrl.endsWith("/") ? core.webBaseUrl : `${core.webBaseUrl}/`;
  return `${base}${repo}/check-runs/${id}`;
}

/**
 * The repository row of `repo`, read without locking.
 * @throws ForgeError not_found when the local forge has no such repository
 */
export async function readRepository(core: ForgeCore, repo: RepoName): Promise<store.LocalRepositoryRow> {
  const row = await asForgeError(`reading repository ${repo}`, () => store.findLocalRepository(core.db, repo));
  if (row === null) throw new ForgeError("not_found", `repository ${repo} does not exist`);
  return row;
}

/**
 * The pull request row `number` of a repository.
 * @throws ForgeError not_found when there is no such pull request
 */
export async function readPull(
  q: store.Queryable,
  repo: store.LocalRepositoryRow,
  number: number,
): Promise<store.PullRequestRow> {
  const row = await asForgeError(`reading pull request #${number}`, () => store.findPullRequest(q, repo.id, number));
  if (row === null) throw new ForgeError("not_found", `pull request #${number} does not exist in ${repo.fullName}`);
  return row;
}

/** Runs `fn`; a failure that is not a ForgeError (the database) becomes ForgeError transient. */
export async function asForgeError<T>(what: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ForgeError) throw error;
    throw new ForgeError("transient", `${what} failed: ${(error as Error).message}`, undefined, { cause: error });
  }
}
