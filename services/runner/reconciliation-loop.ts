/**
 * When reconciliation runs (docs/github.md "Reconciliation"): a pass every `intervalMs`, in one
 * process at a time. The process holding the reconciliation's session-level advisory lock (the
 * lock key of the name {@link LEADER_LOCK}, which no repository can have) on a connection of its
 * own passes; the others try to take it before each of their passes. A leader that dies (or loses
 * its connection) frees the lock, and another process takes over at its next try, so every
 * repository is reconciled about once per interval however many processes run. Before each pass
 * the leader runs the platform's own recovery (GitHub: failed webhook deliveries redelivered,
 * forge/github/redelivery.ts).
 */
import type { Logger } from "pino";
import type pg from "pg";
import { tryLockRepositorySession, unlockRepositorySession, type Pool } from "../store/index.js";
import type { Reconciler } from "./reconciliation.js";

/** The name whose repository lock key is the reconciliation's (`:` is in no repository name). */
export const LEADER_LOCK = ":reconciliation";

export class ReconciliationLoop {
  private leader: pg.PoolClient | null = null;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = true;

  constructor(
    private readonly reconciler: Reconciler,
    private readonly db: Pool,
    private readonly log: Logger,
    private readonly intervalMs: number,
    /** Run before each pass (GitHub: failed deliveries redelivered). */
    private readonly redeliver?: () => Promise<unknown>,
  ) {}

  /** Starts the passes, the first one interval from now (no-op when started). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.schedule();
  }

  /** Stops the passes; resolves after the pass under way, with the lock released. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
    const leader = this.leader;
    this.leader = null;
    if (leader) {
      await unlockRepositorySession(leader, LEADER_LOCK).catch(() => {});
      leader.release();
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.tick().finally(() => this.schedule());
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Whether this process leads now (taking the lock when free). */
  private async lead(): Promise<boolean> {
    if (this.leader) return true;
    const client = await this.db.connect();
    let ok = false;
    try {
      ok = await tryLockRepositorySession(client, LEADER_LOCK);
    } finally {
      if (!ok) client.release();
    }
    if (!ok) return false;
    // A broken connection has lost the lock with it: lead again only after taking it anew.
    client.on("error", () => {
      if (this.leader !== client) return;
      this.leader = null;
      client.release(true);
    });
    this.leader = client;
    return true;
  }

  private async tick(): Promise<void> {
    try {
      if (!(await this.lead())) return;
      if (this.redeliver)
        await this.redeliver().catch((e) =>
          this.log.warn({ err: (e as Error).message }, "redelivery of failed webhook deliveries failed"),
        );
      const report = await this.reconciler.pass();
      const found = Object.values(report.inputs).reduce((n, list) => n + list.length, 0);
      if (found > 0 || report.skipped > 0)
        this.log.info({ ...report, inputs: found }, "reconciliation pass found changes no webhook reported");
    } catch (e) {
      this.log.warn({ err: (e as Error).message }, "reconciliation pass failed; the next one retries");
    }
  }
}
