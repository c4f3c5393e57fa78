/**
 * The embedded PostgreSQL, supervised (docs/reliability.md "Database outages"): when its postmaster
 * exits without being asked to (killed, crashed), it is started again on the same data directory
 * and port, so the pool's connection string stays valid and the pool reconnects by itself; until
 * then requests answer 503 `unavailable`. A start that fails (the old server's backends still hold
 * its shared memory for a moment after a SIGKILL, or the port is briefly taken) is retried with
 * backoff, 250 ms doubling to 5 s, for as long as the process runs. Each death and each restart
 * is logged; failed tries at 1, 2, 4, 8, ... .
 */
import { setTimeout as sleep } from "node:timers/promises";
import { FailureStreak } from "../outage/index.js";
import { startEmbeddedPostgres, type EmbeddedServer } from "./embedded-postgres.js";

/** Longest wait between two tries to start the postmaster again, ms. */
export const RESTART_MAX_DELAY_MS = 5000;

/** Where the supervisor reports: deaths and failed restarts (warn), restarts (info). */
export interface SupervisorLog {
  warn(fields: object, message: string): void;
  info(fields: object, message: string): void;
}

/** A supervised embedded server: its connection string (stable across restarts) and how to stop it for good. */
export interface SupervisedPostgres {
  url: string;
  /** The postmaster's current process id (changes with each restart). */
  pid(): number;
  /** Stops supervising and stops the server (waits for a restart in progress first). */
  stop(): Promise<void>;
}

/**
 * Starts the embedded cluster under `dir` (startEmbeddedPostgres) and restarts it whenever its
 * postmaster exits unasked.
 * @param onLog receives the server's log lines
 * @throws Error when the first start fails (nothing is left running)
 */
export async function superviseEmbeddedPostgres(
  dir: string,
  log: SupervisorLog,
  onLog?: (line: string) => void,
): Promise<SupervisedPostgres> {
  let current: EmbeddedServer = await startEmbeddedPostgres(dir, onLog);
  let stopping = false;
  let restarting: Promise<void> | undefined;

  async function restart(port: number): Promise<void> {
    const streak = new FailureStreak();
    while (!stopping) {
      try {
        const next = await startEmbeddedPostgres(dir, onLog, { port });
        if (stopping) return void (await next.stop());
        current = next;
        watch(next);
        log.info({ pid: next.pid, port, failedTries: streak.succeed() }, "the embedded PostgreSQL was restarted");
        return;
      } catch (e) {
        const { count, log: worthLogging } = streak.fail();
        if (worthLogging) log.warn({ err: e, tries: count, port }, "the embedded PostgreSQL did not start; retrying");
        await sleep(Math.min(RESTART_MAX_DELAY_MS, 250 * 2 ** Math.min(count - 1, 10)));
      }
    }
  }

  function watch(server: EmbeddedServer): void {
    void server.exited.then(({ code, signal }) => {
      if (stopping || server !== current) return;
      const fields = { pid: server.pid, code, signal, port: server.port, dataDir: dir };
      log.warn(fields, "the embedded PostgreSQL's postmaster exited; restarting it");
      restarting = restart(server.port).finally(() => (restarting = undefined));
    });
  }

  watch(current);
  return {
    url: current.url,
    pid: () => current.pid,
    async stop() {
      stopping = true;
      await restarting;
      await current.stop();
    },
  };
}
