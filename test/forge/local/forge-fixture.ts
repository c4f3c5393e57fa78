/**
 * Named builders for the local forge's tests: a fresh PostgreSQL database, a data directory, a
 * source git repository to import and push from (written with the git layer, fixed dates), an
 * event recorder as the sink, and a counting clock. Everything is real: git, PostgreSQL, the CI
 * runner's processes.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createLocalForge, type LocalForge, type LocalForgeDeps } from "../../../services/forge/local/index.js";
import {
  commitFiles,
  createRepository,
  setBranch,
  type BareRepo,
  type FileChange,
} from "../../../services/forge/local/git/index.js";
import type { ForgeEvent } from "../../../services/forge/types.js";
import { freshDatabase, type TestDatabase } from "../../support/database.js";
import { testLogger } from "../../support/logger.js";

/** Minute `n` after 2024-03-01T00:00:00Z. */
export function minute(n: number): Date {
  return new Date(Date.UTC(2024, 2, 1, 0, n));
}

/**
 * A clock that moves one minute per reading, from minute `start` (default 0) after
 * 2024-03-01T00:00Z; `skip(ms)` shifts it (a later process).
 */
export function countingClock(start = 0): { now: () => Date; ticks: () => number; skip: (ms: number) => void } {
  let n = start;
  let offset = 0;
  return { now: () => new Date(minute(n++).getTime() + offset), ticks: () => n, skip: (ms) => void (offset += ms) };
}

/** Records events; `take()` returns those since the last take. */
export function eventRecorder() {
  const all: ForgeEvent[] = [];
  let mark = 0;
  const waiters: { test: (e: ForgeEvent) => boolean; resolve: (e: ForgeEvent) => void }[] = [];
  return {
    all,
    sink: (event: ForgeEvent) => {
      all.push(event);
      for (const w of [...waiters]) {
        if (w.test(event)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(event);
        }
      }
    },
    take(): ForgeEvent[] {
      const taken = all.slice(mark);
      mark = all.length;
      return taken;
    },
    /** Resolves with the `count`-th event (from now on, default the first) that passes `test`. */
    next(test: (e: ForgeEvent) => boolean, count = 1): Promise<ForgeEvent> {
      let seen = 0;
      return new Promise((resolve) => waiters.push({ test: (e) => test(e) && ++seen === count, resolve }));
    },
  };
}

/** A source repository to import from and push from: a bare repository grown with the git layer. */
export interface SourceRepo {
  repo: BareRepo;
  path: string;
  /** Writes a commit on `parent` (null: a root commit) and points `branch` at it. @returns its SHA */
  commit(branch: string, parent: string | null, changes: Record<string, FileChange>, message?: string): Promise<string>;
}

let sourceClock = 0;

/** Creates a source repository whose `main` holds `files`. */
export async function createSourceRepo(
  dir: string,
  files: Record<string, FileChange>,
): Promise<SourceRepo & { root: string }> {
  const path = join(dir, `source-${Math.random().toString(36).slice(2)}.git`);
  const repo = await createRepository({ gitDir: path, name: "source", defaultBranch: "main" });
  const commit = async (
    branch: string,
    parent: string | null,
    changes: Record<string, FileChange>,
    message = "change",
  ) => {
    const sha = await commitFiles(repo, {
      parent,
      changes,
      message,
      date: minute(1000 + sourceClock++),
      author: { name: "Ada", email: "ada@example.com" },
    });
    await setBranch(repo, branch, sha);
    return sha;
  };
  const root = await commit("main", null, files, "initial");
  return { repo, path, commit, root };
}

/** One test's world: database, data directory, forge, recorder, clock. */
export interface ForgeWorld {
  db: TestDatabase;
  dir: string;
  forge: LocalForge;
  events: ReturnType<typeof eventRecorder>;
  clock: ReturnType<typeof countingClock>;
  warnings: string[];
  /** Another forge on the same database and data directory (a second process, a restart). */
  another(deps?: Partial<LocalForgeDeps>): LocalForge;
  /** Closes the forges and the database's pool, keeping the database and the directory. */
  close(): Promise<void>;
  /** Closes, then drops the database and removes the directory. */
  cleanup(): Promise<void>;
}

/** Where a world starts from, instead of a fresh database and directory (world-snapshot.ts). */
export interface WorldStart {
  db: TestDatabase;
  dir: string;
  /** The clock's first minute. */
  clockAt: number;
}

/** Builds a world; `deps` overrides the forge's dependencies (CI settings...). */
export async function createWorld(deps: Partial<LocalForgeDeps> = {}, start?: WorldStart): Promise<ForgeWorld> {
  const db = start?.db ?? (await freshDatabase());
  // pg-pool resolves end() before its clients have closed; the database's forced drop then ends
  // them with an error the pool re-emits. Nothing else reaches this listener: query errors reject.
  db.pool.on("error", () => {});
  const dir = start?.dir ?? (await mkdtemp(join(tmpdir(), "yardmaster-forge-test-")));
  const events = eventRecorder();
  const clock = countingClock(start?.clockAt);
  const { logger, warnings } = testLogger();
  const base: LocalForgeDeps = {
    db: db.pool,
    dataDir: join(dir, "data"),
    logger,
    sink: events.sink,
    now: clock.now,
    ...deps,
    // The clock moves a minute per reading: leases last a day so none runs out by itself.
    ci: { runner: { tempRoot: dir, killGraceMs: 500 }, start: false, leaseMs: 86_400_000, ...deps.ci },
  };
  const forges: LocalForge[] = [];
  const make = (extra: Partial<LocalForgeDeps> = {}) => {
    const forge = createLocalForge({ ...base, ...extra, ci: { ...base.ci, ...extra.ci } });
    forges.push(forge);
    return forge;
  };
  const forge = make();
  const close = async () => {
    for (const f of forges.splice(0)) await f.close();
    if (!db.pool.ended) await db.pool.end();
  };
  return {
    db,
    dir,
    forge,
    events,
    clock,
    warnings,
    another: make,
    close,
    async cleanup() {
      await close();
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** The repository name every forge test uses. */
export const REPO = "acme/widgets";

/** acme/widgets imported from a source repository, with helpers that push and open as people do. */
export interface Widgets {
  src: SourceRepo & { root: string };
  /** The forge's own bare repository of acme/widgets. */
  git: BareRepo;
  /** Commits on `parent` in the source, on `branch`, and pushes it to the forge. @returns the SHA */
  push(
    branch: string,
    parent: string,
    changes: Record<string, FileChange>,
    message?: string,
    options?: { force?: boolean; pusher?: string },
  ): Promise<string>;
  /** Opens a pull request from `head` into main as `author` (default "ada"). @returns its number */
  open(head: string, options?: { title?: string; author?: string; draft?: boolean; base?: string }): Promise<number>;
}

/** Imports acme/widgets whose main holds `files`. */
export async function widgets(world: ForgeWorld, files: Record<string, FileChange>): Promise<Widgets> {
  const src = await createSourceRepo(world.dir, files);
  await world.forge.addRepository({ repo: REPO, fromPath: src.path, defaultBranch: null, atRef: null });
  return bindWidgets(world, src);
}

/** The helpers of {@link widgets} for acme/widgets already imported into `world` from `src`. */
export function bindWidgets(world: ForgeWorld, src: SourceRepo & { root: string }): Widgets {
  return {
    src,
    git: { gitDir: join(world.dir, "data", "repos", "acme", "widgets.git"), name: REPO },
    async push(branch, parent, changes, message = `change ${branch}`, options = {}) {
      const sha = await src.commit(branch, parent, changes, message);
      await world.forge.pushBranch({
        repo: REPO,
        fromPath: src.path,
        sourceRef: sha,
        branch,
        force: options.force ?? false,
        pusher: options.pusher ?? "ada",
      });
      return sha;
    },
    open: (head, options = {}) =>
      world.forge.openPullRequest(REPO, {
        head,
        base: options.base ?? "main",
        title: options.title ?? `Work on ${head}`,
        body: "",
        author: options.author ?? "ada",
        draft: options.draft ?? false,
      }),
  };
}
