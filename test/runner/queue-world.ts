/**
 * A whole merge queue for the runner's tests, all real: PostgreSQL, the local forge over real git
 * with its CI worker running real processes, the queue runner, the outbox. Named builders: a
 * repository with a CI check and a configuration, pull requests that add files.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import type pg from "pg";
import { createLocalForge, type LocalForge } from "../../services/forge/local/index.js";
import { repositoryPath, type FileChange } from "../../services/forge/local/git/index.js";
import type { ForgeEvent } from "../../services/forge/types.js";
import { createQueueRunner, type QueueRunner } from "../../services/runner/index.js";
import { loadQueueState } from "../../services/store/index.js";
import type { EngineState } from "../../services/engine/index.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { eventually } from "../support/eventually.js";
import { testLogger } from "../support/logger.js";
import { createSourceRepo } from "../forge/local/forge-fixture.js";

export const REPO = "acme/widgets";

const execFileAsync = promisify(execFile);

/** A CI file with one check "test" that fails when the commit holds a file named BROKEN. */
export const CI_FILE = 'checks:\n  - name: test\n    run: "test ! -e BROKEN"\n    timeout: "1 min"\n';

/** Pull request options of {@link RepoHandle.pull}: defaults "Add <name>", "ada", main, "". */
export interface PullOptions {
  body?: string;
  base?: string;
  title?: string;
  author?: string;
}

/** A repository of the local forge made from a source repository of the test. */
export interface RepoHandle {
  repo: string;
  /** Opens a pull request adding `files` on a branch from main's root (into `base`, default main). @returns its number */
  pull(name: string, files: Record<string, FileChange>, options?: PullOptions): Promise<number>;
  /** Creates `branch` at main's first commit, pushed by "ada". */
  branch(branch: string): Promise<void>;
  /** Pushes a commit adding `files` on top of the forge's `branch`, as `pusher`. @returns the new tip */
  commitOnTop(branch: string, files: Record<string, FileChange>, pusher: string): Promise<string>;
  /** The tree SHA of a commit of the forge's repository. */
  treeOf(sha: string): Promise<string>;
}

export interface QueueWorld extends RepoHandle {
  db: TestDatabase;
  forge: LocalForge;
  runner: QueueRunner;
  /** Forge events seen, in order. */
  events: ForgeEvent[];
  /** Adds repository `repo` (owner/name) whose main holds `files` only (no CI file unless given). */
  repository(repo: string, files: Record<string, FileChange>): Promise<RepoHandle>;
  /** Comments as "ada". */
  comment(number: number, body: string): Promise<void>;
  /** Processes queue and CI until `done` holds (polling; real processes run in the background). */
  until<T>(done: () => Promise<T>, timeoutMs?: number): Promise<T>;
  /** Processes queue and CI until `probe` returns a value (null, undefined and false: not yet). */
  untilSome<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs?: number): Promise<T>;
  state(): Promise<EngineState | null>;
  /** A second runner on the same database and forge (another process in production), started. */
  anotherRunner(): QueueRunner;
  /** Stops the first runner and routes forge events to a new one (a restart). */
  restartRunner(): Promise<QueueRunner>;
  /** Log events written to the outbox, in id order. */
  loggedTypes(): Promise<{ type: string; pull_request: string | null; metadata: any }[]>;
  cleanup(): Promise<void>;
}

/** Options of {@link queueWorld}. */
export interface QueueWorldOptions {
  /**
   * The runners' clock (milliseconds since the epoch, UTC; default `Date.now`): what the engine
   * takes as now, and when durable timers fall due. A test moves it ahead to let a timer fire
   * without waiting for it; the forge and its CI keep the real clock.
   */
  now?: () => number;
}

/** Builds a world whose acme/widgets main holds the CI file, `config` as .yardmaster.yml and `files`. */
export async function queueWorld(
  config: string,
  files: Record<string, FileChange> = {},
  options: QueueWorldOptions = {},
): Promise<QueueWorld> {
  const db = await freshDatabase();
  db.pool.on("error", () => {});
  const dir = await mkdtemp(join(tmpdir(), "ym-runner-"));
  const { logger } = testLogger();
  const events: ForgeEvent[] = [];
  let runner: QueueRunner | undefined;
  const runners: QueueRunner[] = [];
  const forge: LocalForge = createLocalForge({
    db: db.pool,
    dataDir: join(dir, "data"),
    logger,
    sink: (e) => {
      events.push(e);
      return runner?.submit(e);
    },
    ci: { runner: { tempRoot: dir, killGraceMs: 500 }, slots: 4 },
  });
  const newRunner = () => {
    const r = createQueueRunner({
      db: db.pool,
      forge,
      logger,
      eventsWritten: () => {},
      intervalMs: 100,
      now: options.now,
    });
    runners.push(r);
    r.start();
    return r;
  };
  runner = newRunner();
  const repository = async (repo: string, files: Record<string, FileChange>): Promise<RepoHandle> => {
    const src = await createSourceRepo(dir, files);
    await forge.addRepository({ repo, fromPath: src.path, defaultBranch: null, atRef: null });
    const forgePath = repositoryPath(join(dir, "data"), repo);
    const push = (sourceRef: string, branch: string, pusher: string) =>
      forge.pushBranch({ repo, fromPath: src.path, sourceRef, branch, force: false, pusher });
    return {
      repo,
      async pull(name, changes, options = {}) {
        const sha = await src.commit(name, src.root, changes, `Add ${name}`);
        await push(sha, name, options.author ?? "ada");
        return forge.openPullRequest(repo, {
          head: name,
          base: options.base ?? "main",
          title: options.title ?? `Add ${name}`,
          body: options.body ?? "",
          author: options.author ?? "ada",
          draft: false,
        });
      },
      async branch(branch) {
        await push(src.root, branch, "ada");
      },
      async commitOnTop(branch, changes, pusher) {
        const tip = await forge.getBranchSha(repo, branch);
        await execFileAsync("git", [
          "--git-dir",
          src.path,
          "fetch",
          "--quiet",
          forgePath,
          `+refs/heads/${branch}:refs/heads/copy-${tip}`,
        ]);
        const sha = await src.commit(`copy-${tip}`, tip, changes, `Edit ${branch}`);
        await push(sha, branch, pusher);
        return sha;
      },
      async treeOf(sha) {
        return (await execFileAsync("git", ["--git-dir", forgePath, "rev-parse", `${sha}^{tree}`])).stdout.trim();
      },
    };
  };
  const until = <T>(done: () => Promise<T>, timeoutMs = 150_000): Promise<T> =>
    eventually(
      async () => {
        await runner!.drain();
        return done();
      },
      timeoutMs,
      100,
    );
  const main = await repository(REPO, { ".yardmaster/ci.yml": CI_FILE, ".yardmaster.yml": config, ...files });
  return {
    db,
    forge,
    runner,
    events,
    ...main,
    repository,
    async comment(number, body) {
      await forge.commentAs(REPO, number, body, "ada");
    },
    until,
    untilSome: (probe, timeoutMs) =>
      until(async () => {
        const v = await probe();
        if (v === null || v === undefined || v === false) throw new Error("not yet");
        return v;
      }, timeoutMs),
    state: () => loadQueueState<EngineState>(db.pool, REPO),
    anotherRunner: newRunner,
    async restartRunner() {
      await runner!.stop();
      runner = newRunner();
      return runner;
    },
    async loggedTypes() {
      const res = await (db.pool as pg.Pool).query(
        "SELECT type, pull_request::text, metadata FROM event_outbox ORDER BY id",
      );
      return res.rows.map((r) => ({ type: r.type, pull_request: r.pull_request, metadata: JSON.parse(r.metadata) }));
    },
    async cleanup() {
      for (const r of runners) await r.stop();
      await forge.close();
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
