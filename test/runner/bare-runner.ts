/**
 * A queue runner on a real PostgreSQL and a local forge holding one repository (acme/widgets, no
 * configuration file, no CI), with its log lines captured: for tests of the runner's own
 * behaviour (inputs, locks, stopping) rather than of the queue.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pino from "pino";
import { createQueueRunner, type QueueRunner, type RunnerDeps } from "../../services/runner/index.js";
import { createLocalForge, type LocalForge } from "../../services/forge/local/index.js";
import { pauseEvent } from "../../services/queue/pause-events.js";
import { addToInbox, loadQueueState, setPause } from "../../services/store/index.js";
import type { EngineState } from "../../services/engine/index.js";
import { freshDatabase, type TestDatabase } from "../support/database.js";
import { createSourceRepo } from "../forge/local/forge-fixture.js";

export const REPO = "acme/widgets";
/** The actor of the pauses and unpauses the tests make. */
export const ADA = { type: "user" as const, id: 1, name: "ada" };

/** A logged line (pino JSON): level 40 warn, 50 error. */
export interface LogLine {
  level: number;
  msg: string;
  [key: string]: unknown;
}

export interface BareRunner {
  db: TestDatabase;
  forge: LocalForge;
  runner: QueueRunner;
  lines: LogLine[];
  /** Rows of `table` (queue_inbox, queue_inbox_set_aside, ...) for the repository. */
  count(table: string): Promise<number>;
  state(): Promise<EngineState | null>;
  /**
   * PUT /queue/pause as the endpoint does it: the queue_pauses row, its log event and the engine's
   * input in one transaction, then a wake.
   */
  pause(reason: string): Promise<void>;
  cleanup(): Promise<void>;
}

/**
 * Builds the runner, not started; `options` override its deps (fast backoff by default: 20 ms to
 * 100 ms). Call `cleanup` after the test.
 */
export async function bareRunner(
  options: Partial<Omit<RunnerDeps, "db" | "forge" | "logger">> = {},
): Promise<BareRunner> {
  const db = await freshDatabase();
  const dir = await mkdtemp(join(tmpdir(), "ym-runner-"));
  const lines: LogLine[] = [];
  const logger = pino({ level: "warn" }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  let runner: QueueRunner | undefined;
  const forge = createLocalForge({
    db: db.pool,
    dataDir: join(dir, "data"),
    logger,
    sink: (e) => runner?.submit(e),
    ci: { runner: { tempRoot: dir, killGraceMs: 500 }, slots: 1 },
  });
  const src = await createSourceRepo(dir, { "README.md": "widgets\n" });
  await forge.addRepository({ repo: REPO, fromPath: src.path, defaultBranch: null, atRef: null });
  runner = createQueueRunner({
    db: db.pool,
    forge,
    logger,
    eventsWritten: () => {},
    intervalMs: 20,
    failureBackoffMs: { first: 20, max: 100 },
    ...options,
  });
  const r = runner;
  return {
    db,
    forge,
    runner: r,
    lines,
    count: async (table) =>
      (await db.pool.query(`SELECT count(*)::int AS n FROM ${table} WHERE repository = $1`, [REPO])).rows[0]
        .n as number,
    state: () => loadQueueState<EngineState>(db.pool as never, REPO),
    pause: async (reason) => {
      await setPause(
        db.pool,
        { repository: REPO, reason, pausedBy: ADA },
        (kind) => pauseEvent(REPO, kind, reason, ADA),
        (client) => addToInbox(client, REPO, [{ kind: "engine", event: { type: "pause", reason, actor: ADA } }]),
      );
      r.wake(REPO);
    },
    cleanup: async () => {
      await r.stop();
      await forge.close();
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
