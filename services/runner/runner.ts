/**
 * The queue runner (issue: engine §3; docs/architecture.md "A forge event, end to end"): drives the
 * pure engine for every repository.
 *
 * Processing a repository holds its session-level advisory lock (one writer per repository across
 * any number of runner processes; fenced: proven held before each round and each forge effect,
 * lock-session.ts) and repeats two steps until nothing is left:
 * 1. one transaction: load the state, take the inbox (forge events, effect results, fired timers),
 *    translate each input into engine events (ingress.ts) and apply them, then persist the new
 *    state, the log events (the outbox), the timers and the forge effects to perform, and delete
 *    the inputs taken;
 * 2. perform the forge effects (effect-executor.ts) one by one; each result goes to the inbox in
 *    the transaction that deletes the effect.
 * A crash between the steps loses nothing: inputs and effects stay in their tables. A forge error
 * worth retrying postpones the input or effect with exponential backoff; other errors become
 * failure events. Timers are rows of `queue_timers`, claimed when due (SKIP LOCKED) and turned
 * into inbox rows. API calls (dequeue, enqueue, pause) go through {@link QueueRunner.request},
 * which applies under the same lock and reports the engine's refusal to the caller.
 */
import type { ForgeEvent } from "../forge/index.js";
import { addToInbox, addToInboxOnce } from "../store/index.js";
import { performEffects } from "./effects-round.js";
import type { EnqueueResult } from "./ingress.js";
import type { RunnerInput } from "./inputs.js";
import { RepositoryLockSession } from "./lock-session.js";
import { RepositoryProcessing } from "./processing.js";
import { ReconciliationLoop } from "./reconciliation-loop.js";
import { Reconciler, type ReconcileReport } from "./reconciliation.js";
import { applyRound } from "./round.js";
import { runnerContext, type RunnerDeps, type RunnerRequest } from "./runner-context.js";
import { RunnerScheduling } from "./scheduling.js";

export type { RunnerDeps, RunnerRequest } from "./runner-context.js";
export type { ReconcileReport } from "./reconciliation.js";

/**
 * The queue runner of the file header (docs/merge-queue.md "Runner"); `start` begins the sweep
 * every `intervalMs`, `stop` ends it and waits for the repositories being processed.
 */
export interface QueueRunner {
  /**
   * Records a forge event for its repository; processing follows shortly. With an idempotency
   * `key`, an event whose key was taken before is dropped (a redelivery; docs/reliability.md).
   */
  submit(event: ForgeEvent, key?: string): Promise<void>;
  /**
   * Applies a request now, under the repository's lock, and performs the resulting effects.
   * @throws EngineInputError (NotQueuedError for a pull request in no queue) when the engine refuses it
   */
  request(repository: string, request: RunnerRequest): Promise<EnqueueResult | void>;
  /** Processes a repository's inbox soon (after writing to it in another transaction). */
  wake(repository: string): void;
  /** Processes every repository with work until none is left (tests, shutdown). */
  drain(): Promise<void>;
  /**
   * One reconciliation pass now (reconciliation.ts): the inputs lost webhooks would have made,
   * put in the inbox. @throws the database's error
   */
  reconcile(): Promise<ReconcileReport>;
  /** Starts the sweep (timers, repositories with work) every `intervalMs`, and reconciliation every `reconcileIntervalMs`. */
  start(): void;
  /** Stops the sweep; resolves once the repositories being processed finished their current round. */
  stop(): Promise<void>;
  /** The repositories this process works (processed, and still its own among the replicas), sorted. */
  workedRepositories(): string[];
}

/** Builds a runner (not started). */
export function createQueueRunner(deps: RunnerDeps): QueueRunner {
  const base = runnerContext(deps);
  const reconciler = new Reconciler({
    db: base.db,
    forge: base.forge,
    log: base.log,
    now: base.now,
    intervalMs: deps.reconcileIntervalMs || 60_000,
    addInputs: async (repository, inputs) => {
      await addToInbox(base.db, repository, inputs);
      processing.clearBackoff(repository);
      void scheduling.kick(repository);
    },
  });
  // The runner's reads are recorded, so that reconciliation knows which changes it has seen.
  const ctx = { ...base, forge: reconciler.recording(base.forge) };
  const processing = new RepositoryProcessing(ctx);
  const scheduling = new RunnerScheduling(ctx, processing);
  const loop = deps.reconcileIntervalMs
    ? new ReconciliationLoop(reconciler, base.db, base.log, deps.reconcileIntervalMs, deps.redeliver)
    : null;
  return {
    wake(repository) {
      processing.clearBackoff(repository);
      void scheduling.kick(repository);
    },
    async submit(event, key) {
      const input: RunnerInput = { kind: "forge", event };
      if (key === undefined) await addToInbox(ctx.db, event.repo, [input]);
      else if (!(await addToInboxOnce(ctx.db, event.repo, input, key))) return;
      // New input may be what was missing (the repository now exists): try again now.
      processing.clearBackoff(event.repo);
      void scheduling.kick(event.repo);
    },
    async request(repository, request) {
      const lock = await RepositoryLockSession.open(ctx.db, repository, "wait");
      const blame = processing.blamer(repository);
      try {
        const { result } = await applyRound(ctx, lock.client, repository, blame, request);
        // The request is committed. Its effects are performed before the answer, within one lock
        // hold; the rest (a backlog in the inbox) and any failure there are the sweep's work,
        // retried and reported by it, not answered to the caller.
        const until = ctx.now() + ctx.lockHoldMs;
        try {
          for (;;) {
            const performed = await performEffects(ctx, lock, repository);
            const { applied } = await applyRound(ctx, lock.client, repository, blame);
            if ((!performed && !applied) || ctx.now() >= until) break;
          }
        } catch (e) {
          processing.forgetBlame(repository);
          ctx.log.warn(
            { repository, err: (e as Error).message },
            "processing after a request failed; the queue runner retries it",
          );
        }
        return result;
      } finally {
        await lock.release();
        void scheduling.kick(repository);
      }
    },
    drain: () => scheduling.drain(),
    reconcile: () => reconciler.pass(),
    start: () => {
      scheduling.start();
      loop?.start();
    },
    stop: async () => {
      await loop?.stop();
      await scheduling.stop();
    },
    workedRepositories: () => processing.worked(),
  };
}
