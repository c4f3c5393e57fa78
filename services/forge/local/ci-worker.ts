/**
 * The local CI worker (docs/local-forge.md "CI jobs"): claims durable CI jobs from PostgreSQL
 * (`FOR UPDATE SKIP LOCKED`, with a lease renewed while the job runs), runs the commit's checks
 * with the CI runner (ci/run-checks.ts, shared CI slots), and writes each check run: pending with
 * its start time when it gets a slot, its final state when it ends. Every write emits
 * `checks_changed`. A cancelled (superseded) job is stopped; a job whose worker died is claimed
 * again once its lease ran out; a worker that stops cleanly puts its jobs back in the queue.
 * A write that fails because PostgreSQL does not answer (a restart) is retried with backoff for
 * up to the lease (outage/retry-unavailable.ts), so a check that ends during an outage is
 * recorded when the database returns instead of waiting for the lease to run out.
 */
import { randomUUID } from "node:crypto";
import { localForgeStore as store, withTransaction } from "../../store/index.js";
import { retryWhileUnavailable } from "../../outage/index.js";
import { type CiSlots, runCommitChecks, type CheckResult, type CiRunnerDeps } from "./ci/index.js";
import type { LocalCiInsights, LocalCiJob } from "./ci-insights-hooks.js";
import { LOCAL_CI_APP, type ForgeCore } from "./core.js";
import type { CiSignals } from "./ci-requests.js";

/** Settings of the worker. Durations in milliseconds. */
export interface CiWorkerOptions {
  /** CI slots shared by every check of this process; also the number of jobs run at once. */
  slots: CiSlots;
  /** Runner settings (work tree root, kill grace, default timeout, output limit, environment). */
  runner?: Omit<CiRunnerDeps, "slots" | "now">;
  /** How long a claim holds without renewal (default 60 000). */
  leaseMs?: number;
  /** How often a running job's lease is renewed, and its cancellation noticed (default 15 000). */
  heartbeatMs?: number;
  /** How often the queue is polled for jobs queued by other processes or left by dead workers (default 5 000). */
  pollMs?: number;
  /** Claims of one job before it is given up as an error (default 3). */
  maxAttempts?: number;
  /** This worker's identity in leases (default a random UUID). */
  workerId?: string;
  /** CI Insights: test reports and retry rules (absent: reports are not read, nothing is retried). */
  insights?: LocalCiInsights;
}

type StopReason = "cancelled" | "lost" | "shutdown";

interface RunningJob {
  controller: AbortController;
  reason: StopReason | null;
}

/** The worker; it implements the signals writes use to wake and stop it. */
export class CiWorker implements CiSignals {
  readonly id: string;
  private readonly running = new Map<number, RunningJob>();
  private readonly finished = new Map<number, Promise<void>>();
  private chain: Promise<void> = Promise.resolve();
  private poller: NodeJS.Timeout | null = null;
  private stopping = false;

  constructor(
    private readonly core: ForgeCore,
    private readonly options: CiWorkerOptions,
  ) {
    this.id = options.workerId ?? randomUUID();
  }

  /** Starts polling (and claims what is queued now). */
  start(): void {
    if (this.poller !== null || this.stopping) return;
    this.poller = setInterval(() => this.kick(), this.options.pollMs ?? 5_000);
    this.poller.unref();
    this.kick();
  }

  /** Claims queued jobs soon (called after a write queued one). */
  kick(): void {
    if (this.poller === null || this.stopping) return;
    void this.pump();
  }

  /** Stops the jobs among `jobIds` that run here (their rows were already cancelled). */
  cancelled(jobIds: readonly number[]): void {
    for (const id of jobIds) this.abort(id, "cancelled");
  }

  /**
   * Runs jobs until none is queued or running here (for tests and tools; a started worker keeps
   * polling afterwards).
   */
  async drain(): Promise<void> {
    for (;;) {
      await this.pump();
      if (this.finished.size === 0) return;
      await Promise.race(this.finished.values());
    }
  }

  /**
   * Stops cleanly: claims nothing more, ends the running checks, and puts their jobs back in the
   * queue (their check runs stay pending), so the next start runs them again.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    if (this.poller !== null) clearInterval(this.poller);
    this.poller = null;
    await this.chain;
    for (const id of this.running.keys()) this.abort(id, "shutdown");
    await Promise.all(this.finished.values());
  }

  private abort(id: number, reason: StopReason): void {
    const job = this.running.get(id);
    if (job === undefined || job.reason !== null) return;
    job.reason = reason;
    job.controller.abort(new Error(`CI job ${id} ${reason}`));
  }

  private pump(): Promise<void> {
    this.chain = this.chain
      .then(() => this.claimWhileFree())
      .catch((e) => this.core.logger.error({ err: e }, "claiming CI jobs failed"));
    return this.chain;
  }

  private async claimWhileFree(): Promise<void> {
    while (!this.stopping && this.running.size < this.options.slots.capacity) {
      const now = this.core.now();
      const job = await store.claimCiJob(this.core.db, { owner: this.id, now, leaseUntil: this.leaseFrom(now) });
      if (job === null) return;
      const entry: RunningJob = { controller: new AbortController(), reason: null };
      this.running.set(job.id, entry);
      const done = this.runJob(job, entry)
        .catch((e) => this.core.logger.error({ err: e, job: job.id }, "CI job failed"))
        .finally(() => {
          this.running.delete(job.id);
          this.finished.delete(job.id);
          if (!this.stopping) void this.pump();
        });
      this.finished.set(job.id, done);
    }
  }

  private leaseFrom(now: Date): Date {
    return new Date(now.getTime() + (this.options.leaseMs ?? 60_000));
  }

  private async runJob(job: store.CiJobRow, entry: RunningJob): Promise<void> {
    const log = this.core.logger.child({ job: job.id, repository: job.repository, sha: job.sha });
    const existing = await this.retrying(() => store.checkRunsOfCiJob(this.core.db, job.id));
    const runs = new Map(existing.map((r) => [r.name, r.id]));
    const maxAttempts = this.options.maxAttempts ?? 3;
    if (job.attempts > maxAttempts) {
      log.warn({ attempts: job.attempts }, "CI job given up: its worker stopped while running it too many times");
      for (const name of runs.keys()) {
        await this.write(job, runs, name, {
          state: "error",
          description: `the CI runner stopped ${maxAttempts} times while running this check`,
          completedAt: this.core.now(),
        });
      }
      await this.finish(job);
      return;
    }
    const heartbeat = setInterval(() => {
      store.renewCiJobLease(this.core.db, job.id, this.id, this.leaseFrom(this.core.now())).then(
        (mine) => void (mine || this.abort(job.id, "lost")),
        (e) => log.warn({ err: e }, "renewing a CI lease failed"),
      );
    }, this.options.heartbeatMs ?? 15_000);
    heartbeat.unref();
    const silent = () => entry.reason === "lost" || entry.reason === "shutdown";
    const insights = this.options.insights;
    const ciJob: LocalCiJob = {
      repository: job.repository,
      sha: job.sha,
      branch: job.branch,
      jobId: job.id,
      attempt: job.attempts,
    };
    try {
      await runCommitChecks(
        { ...this.options.runner, slots: this.options.slots, now: this.core.now },
        {
          repo: { gitDir: job.path, name: job.repository },
          sha: job.sha,
          signal: entry.controller.signal,
          onStarted: async ({ name, startedAt }) => {
            if (!silent()) await this.write(job, runs, name, { state: "pending", description: "running", startedAt });
          },
          onCompleted: async (result) => {
            if (!silent()) await this.write(job, runs, result.name, finalChange(result));
          },
          reports: insights ? (r) => insights.reports(ciJob, r) : undefined,
          retry: insights ? (r) => (silent() ? Promise.resolve(null) : insights.retry(ciJob, r)) : undefined,
        },
      );
    } finally {
      clearInterval(heartbeat);
    }
    if (entry.reason === "shutdown") await this.retrying(() => store.releaseCiJob(this.core.db, job.id, this.id));
    else if (entry.reason === null) await this.finish(job);
  }

  /** Marks the job done (retried while PostgreSQL does not answer). */
  private finish(job: store.CiJobRow): Promise<unknown> {
    return this.retrying(() => store.finishCiJob(this.core.db, job.id, this.id, this.core.now()));
  }

  /** Runs a write, retried while PostgreSQL does not answer, for up to the lease (see the file header). */
  private retrying<T>(fn: (attempt: number) => Promise<T>): Promise<T> {
    return retryWhileUnavailable(fn, {
      maxRetryTimeMs: this.options.leaseMs ?? 60_000,
      onRetry: (err, attempt) => {
        if (attempt === 1) this.core.logger.warn({ err }, "a CI write failed: the database does not answer; retrying");
      },
    });
  }

  /**
   * Writes one check run of the job (an unfinished one only: a cancellation wins) and, in the same
   * transaction, its `checks_changed` event, delivered after the commit. A retry (the database did
   * not answer) first reads the job's runs again, since the failed try may have committed before
   * its answer was lost.
   */
  private async write(
    job: store.CiJobRow,
    runs: Map<string, number>,
    name: string,
    change: Omit<store.CheckRunChange, "now">,
  ): Promise<void> {
    await this.core.ready;
    const now = this.core.now();
    const stored = await this.retrying(async (attempt) => {
      if (attempt > 1) for (const r of await store.checkRunsOfCiJob(this.core.db, job.id)) runs.set(r.name, r.id);
      const id = runs.get(name);
      return withTransaction(this.core.db, async (client) => {
        let written: store.CheckRunRow | null;
        if (id === undefined) {
          written = await store.insertCheckRun(client, {
            repositoryId: job.repositoryId,
            sha: job.sha,
            name,
            state: change.state,
            description: change.description ?? "",
            detailsUrl: null,
            app: LOCAL_CI_APP,
            output: change.output ?? "",
            ciJobId: job.id,
            startedAt: change.startedAt ?? null,
            completedAt: change.completedAt ?? null,
            now,
          });
        } else {
          written = await store.updateCheckRun(client, id, { ...change, now }, true);
        }
        if (written === null) return null;
        const event = { kind: "checks_changed", repo: job.repository, sha: job.sha } as const;
        return { written, events: await this.core.events.store(client, [event]) };
      });
    });
    if (stored === null) return;
    runs.set(name, stored.written.id);
    await this.core.events.deliver(stored.events);
  }
}

/** The final check run fields of a result: state, a one-line description, the output. */
export function finalChange(result: CheckResult): Omit<store.CheckRunChange, "now"> {
  const seconds =
    result.startedAt === null ? null : Math.round((result.completedAt.getTime() - result.startedAt.getTime()) / 1000);
  const took = seconds === null ? "" : ` after ${seconds} s`;
  const description =
    result.state === "success"
      ? `passed${took}`
      : result.state === "failure"
        ? result.exitCode === null
          ? `failed${took}`
          : `failed with exit code ${result.exitCode}${took}`
        : result.state === "timed_out"
          ? `timed out${took}`
          : result.state === "cancelled"
            ? "cancelled"
            : "could not run";
  return {
    state: result.state,
    description,
    output: result.output,
    startedAt: result.startedAt,
    completedAt: result.completedAt,
  };
}
