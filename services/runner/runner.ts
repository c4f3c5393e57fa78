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
import type { Logger } from "pino";
import type pg from "pg";
import type { ForgeEvent, ForgePort } from "../forge/types.js";
import { internalEventRow } from "../activity-log/index.js";
import {
  addEffects, addToInbox, addToInboxOnce, appendToOutbox, cancelTimer, claimDueTimers, deleteEffect, deleteInbox,
  dueEffects, loadQueueState, postponeEffect, listFreezes, recordBaseRefActivity, repositoriesPausedDifferently,
  repositoriesWithWork, saveQueueState, setAsideInput, setTimer, takeInbox, withTransaction,
  type EventRow, type Pool,
} from "../store/index.js";
import type { EngineEffect, LogEffect } from "../engine/effects.js";
import { apply, createState } from "../engine/engine.js";
import { EngineInputError, type EngineEventInput } from "../engine/events.js";
import type { EngineState } from "../engine/state.js";
import { isRetryable } from "./effect-executor.js";
import { performStoredEffect } from "./effect-journal.js";
import { InboxKeyPruner } from "./inbox-keys.js";
import { InputFailureCount, isTransientFailure, retryDelayMs, SET_ASIDE_AFTER } from "./input-failures.js";
import { RepositoryLockSession } from "./lock-session.js";
import { FailureStreak } from "../outage/index.js";
import { pauseCorrection } from "./pause-agreement.js";
import { ProtectionCache } from "./protection-cache.js";
import { compileFreeze } from "../config/index.js";
import { FREEZE_START_TIMER_PREFIX, onFreezesChanged } from "./freeze-input.js";
import { checkResults } from "./check-evaluation.js";
import { enqueue, translateForgeEvent, type EnqueueResult, type IngressEnv } from "./ingress.js";
import type { RunnerInput } from "./inputs.js";
import { SCHEDULE_TIMER_PREFIX } from "../engine/reconcile.js";
import { engineConfigurationInput, repositoryConfig, type RepositoryConfig } from "./repository-config.js";

/**
 * What the queue runner needs: the PostgreSQL pool (state, inbox, effects, timers, outbox), the
 * forge port and a logger.
 */
export interface RunnerDeps {
  db: Pool;
  forge: ForgePort;
  logger: Logger;
  /** Called after a commit that wrote log events (kicks the outbox relay). */
  eventsWritten: () => void;
  /** Clock, epoch ms UTC; injected for tests. */
  now?: () => number;
  /** Polling interval of the sweep and the timers, ms (default 500). */
  intervalMs?: number;
  /**
   * Backoff after a repository's processing fails for a reason retrying soon will not fix (a
   * repository the forge does not know), ms: `first`, doubling per consecutive failure up to
   * `max` (default 5 s to 5 min). docs/merge-queue.md "Runner".
   */
  failureBackoffMs?: { first: number; max: number };
  /**
   * Longest time rounds hold a repository's lock before letting a waiting API request in, ms
   * (default 1000; docs/merge-queue.md "Runner", item 6).
   */
  lockHoldMs?: number;
  /**
   * When an inbox input that fails every round it is applied in is set aside: consecutive failures
   * and ms since the first (default 5 and 10 min; docs/merge-queue.md "Runner", item 8).
   */
  setAsideAfter?: { failures: number; ms: number };
}

/** A synchronous request from the API, applied under the repository's lock. */
export type RunnerRequest =
  | { kind: "engine"; event: EngineEventInput }
  | { kind: "enqueue"; number: number; queueRule: string | null; trigger: string };

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
  start(): void;
  stop(): Promise<void>;
}

const MAX_INPUTS_PER_ROUND = 50;
/** Longest time a sweep holds a repository's lock before letting a waiting request in, ms. */
const DEFAULT_LOCK_HOLD_MS = 1000;
const MAX_EFFECT_ATTEMPTS = 12;

/** Builds a runner (not started). */
export function createQueueRunner(deps: RunnerDeps): QueueRunner {
  const now = deps.now ?? Date.now;
  const log = deps.logger.child({ component: "queue-runner" });
  let timer: NodeJS.Timeout | undefined;
  let stopped = true;
  /** Set by stop(): the repository being processed stops after its current round; no new one starts. */
  let ending = false;
  const active = new Map<string, Promise<void>>();
  const again = new Set<string>();
  const backoffUntil = new Map<string, number>();
  /** Consecutive failed processings of a repository, reset by a success or by new input. */
  const failures = new Map<string, number>();
  const backoff = deps.failureBackoffMs ?? { first: 5000, max: 300_000 };
  const lockHoldMs = deps.lockHoldMs ?? DEFAULT_LOCK_HOLD_MS;
  /** The inbox input a repository's last round failed on, when the failure blames it (input-failures.ts). */
  const failedInput = new Map<string, string>();
  const inputFailures = new InputFailureCount();
  const setAsideAfter = deps.setAsideAfter ?? SET_ASIDE_AFTER;
  const sweepFailures = new FailureStreak();
  const inboxKeys = new InboxKeyPruner(deps.db, log);

  /**
   * One transaction: a request alone when `extra` is given, else up to MAX_INPUTS_PER_ROUND inbox
   * inputs. Returns whether anything was applied. A failure while applying an inbox input that is
   * not transient is noted in `failedInput` for processRepository.
   */
  async function applyRound(client: pg.ClientBase, repository: string, extra?: RunnerRequest): Promise<{ applied: boolean; result?: EnqueueResult | void }> {
    let applying: string | null = null;
    await client.query("BEGIN");
    try {
      let state: EngineState | null = await loadQueueState<EngineState>(client, repository);
      let config: RepositoryConfig = await repositoryConfig({ forge: deps.forge, db: client as never }, repository, state === null);
      if (!state) state = createState(repository, engineConfigurationInput(config.config));
      // A request is applied in a round of its own: an input that cannot be applied fails the
      // sweep's rounds, not the API call of someone steering the queue.
      const inbox = extra ? [] : await takeInbox<RunnerInput>(client, repository, MAX_INPUTS_PER_ROUND);
      // docs/pause.md "The engine's pause": with the inbox worked off (every processing ends with
      // such a round, and the sweep kicks a repository whose pauses differ), the API's pause wins.
      const correction = inbox.length === 0 && !extra ? await pauseCorrection(client, repository, state) : null;
      if (inbox.length === 0 && !extra && correction === null) {
        await client.query("COMMIT");
        return { applied: false };
      }
      const at = now();
      const effects: EngineEffect[] = [];
      const logs: LogEffect[] = [];
      let current: EngineState = state;
      const evaluateAfter: string[] = [];
      const freezes = (await listFreezes(client, repository)).map(compileFreeze);
      const env: IngressEnv = {
        repository, forge: deps.forge, client, config, protections: new ProtectionCache(deps.forge, repository), now: new Date(at), freezes, logger: log,
        state: () => current,
        emit: (event) => {
          try {
            const r = apply(current, event, at);
            current = r.state;
            for (const e of r.effects) (e.kind === "log" ? logs : effects).push(e);
            if (event.type === "speculative_check_created") evaluateAfter.push(event.checkId);
            return true;
          } catch (e) {
            if (!(e instanceof EngineInputError)) throw e;
            log.warn({ repository, event: event.type, err: e.message }, "the engine refused an event");
            if (extra?.kind === "engine" && extra.event === event) throw e;
            return false;
          }
        },
        effect: (e) => effects.push(e),
        log: (e) => logs.push(e),
        refreshConfig: () => repositoryConfig({ forge: deps.forge, db: client as never }, repository, true),
        setConfig: (c) => {
          config = c;
          env.config = c;
        },
      };
      let result: EnqueueResult | void = undefined;
      if (correction) {
        log.warn({ repository, engine: state.pause ? "paused" : "not paused", correction: correction.type }, "the engine's pause differed from the API's with no pause input waiting; applied the API's");
        if (!env.emit(correction)) {
          await client.query("COMMIT");
          return { applied: false };
        }
      }
      if (extra?.kind === "engine") env.emit(extra.event);
      if (extra?.kind === "enqueue") result = await enqueue(env, extra.number, extra.queueRule, extra.trigger, false);
      for (const row of inbox) {
        applying = row.id;
        const input = row.input;
        if (input.kind === "engine") env.emit(input.event);
        else if (input.kind === "evaluate_check") await checkResults(env, input.checkId);
        else if (input.kind === "freezes_changed") await onFreezesChanged(env);
        else await translateForgeEvent(env, input.event);
        while (evaluateAfter.length) await checkResults(env, evaluateAfter.shift()!);
      }
      applying = null;
      while (evaluateAfter.length) await checkResults(env, evaluateAfter.shift()!);
      await persist(client, repository, current, effects, logs, at);
      await deleteInbox(client, inbox.map((r) => r.id));
      await client.query("COMMIT");
      if (logs.length) deps.eventsWritten();
      return { applied: true, result };
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      if (applying !== null && !isTransientFailure(e)) failedInput.set(repository, applying);
      throw e;
    }
  }

  async function persist(client: pg.ClientBase, repository: string, state: EngineState, effects: EngineEffect[], logs: LogEffect[], at: number): Promise<void> {
    await saveQueueState(client, repository, state, state.pause !== null);
    const rows: EventRow[] = [];
    for (const l of logs) {
      try {
        rows.push(internalEventRow({ type: l.type, repository, pullRequest: l.pullRequest, baseRef: l.baseRef, trigger: l.trigger, receivedAt: new Date(at), metadata: l.metadata }));
      } catch (e) {
        // A malformed log event is a bug; it must not wedge the queue. It is reported loudly.
        log.error({ repository, type: l.type, err: (e as Error).message }, "dropped an invalid log event");
      }
    }
    await appendToOutbox(client, rows);
    await recordBaseRefActivity(client, repository, logs.map((l) => l.baseRef).filter((b): b is string => b !== null), new Date(at));
    const forgeEffects: EngineEffect[] = [];
    for (const e of effects) {
      if (e.kind === "schedule_timer") await setTimer(client, repository, e.key, new Date(e.dueAt));
      else if (e.kind === "cancel_timer") await cancelTimer(client, repository, e.key);
      else forgeEffects.push(e);
    }
    await addEffects(client, repository, forgeEffects);
  }

  /**
   * Performs due effects in order; returns whether any was performed. Stops at the first postponed
   * one. Each effect waits for `lock` to prove it is still held (lock-session.ts): a lost lock
   * throws LockLostError before any forge call.
   */
  async function performRound(
    client: pg.ClientBase,
    repository: string,
    lock: RepositoryLockSession,
  ): Promise<boolean> {
    const due = await dueEffects<EngineEffect>(client, repository);
    let any = false;
    for (const row of due) {
      await lock.assertHeld();
      try {
        const results = await performStoredEffect({ forge: deps.forge, repository, logger: log }, client, row);
        await withClientTransaction(client, async () => {
          await addToInbox(client, repository, results.map((event) => ({ kind: "engine", event }) satisfies RunnerInput));
          await deleteEffect(client, row.id);
        });
        any = true;
      } catch (e) {
        const attempts = row.attempts + 1;
        if (isRetryable(e) && attempts < MAX_EFFECT_ATTEMPTS) {
          const delay = e.kind === "rate_limited" && e.retryAfterMs ? e.retryAfterMs : Math.min(60_000, 500 * 2 ** attempts);
          await postponeEffect(client, row.id, delay, (e as Error).message);
          log.warn({ repository, effect: row.effect.kind, attempts, delayMs: delay, err: (e as Error).message }, "forge effect postponed");
          return any;
        }
        log.error({ repository, effect: row.effect.kind, err: e }, "forge effect failed for good");
        await deleteEffect(client, row.id);
        any = true;
      }
    }
    return any;
  }

  async function withClientTransaction(client: pg.ClientBase, fn: () => Promise<void>): Promise<void> {
    await client.query("BEGIN");
    try {
      await fn();
      await client.query("COMMIT");
    } catch (e) {
      await client.query("ROLLBACK").catch(() => {});
      throw e;
    }
  }

  /** Processes a repository if no other session does; loops until no input or effect is left. */
  async function processRepository(repository: string): Promise<void> {
    if ((backoffUntil.get(repository) ?? 0) > Date.now()) return;
    const lock = await RepositoryLockSession.open(deps.db, repository, "try");
    if (!lock) return;
    const client = lock.client;
    try {
      // The lock is held for at most lockHoldMs of rounds at a time: an API request waiting for
      // it (a dequeue, an enqueue) gets it between two holds instead of after the backlog.
      const until = Date.now() + lockHoldMs;
      for (;;) {
        await lock.assertHeld();
        const { applied } = await applyRound(client, repository);
        const performed = await performRound(client, repository, lock);
        if (!applied && !performed) break;
        if (Date.now() >= until || ending) {
          again.add(repository);
          break;
        }
      }
      backoffUntil.delete(repository);
      failures.delete(repository);
      inputFailures.clear(repository);
    } catch (e) {
      const blamed = failedInput.get(repository) ?? null;
      failedInput.delete(repository);
      const blame = inputFailures.record(repository, blamed, Date.now());
      if (blame.count >= setAsideAfter.failures && blame.sinceFirstMs >= setAsideAfter.ms && (await setAside(repository, blamed!, blame.count, e))) return;
      const count = (failures.get(repository) ?? 0) + 1;
      failures.set(repository, count);
      const wait = retryDelayMs(e, count, backoff);
      backoffUntil.set(repository, Date.now() + wait);
      // The first failure is logged with its stack; repeats only at 2, 4, 8, ... failures.
      if (count === 1) log.warn({ repository, err: e, retryInMs: wait }, "processing failed; the inputs stay in the inbox");
      else if ((count & (count - 1)) === 0) log.warn({ repository, failures: count, err: (e as Error).message, retryInMs: wait }, "processing still fails; the inputs stay in the inbox");
    } finally {
      await lock.release();
    }
  }

  /**
   * Moves the input blamed for `count` failed rounds to queue_inbox_set_aside and lets the inputs
   * behind it be applied at once. Returns whether it was moved.
   */
  async function setAside(repository: string, inputId: string, count: number, e: unknown): Promise<boolean> {
    inputFailures.clear(repository);
    const message = e instanceof Error ? e.message : String(e);
    if (!(await setAsideInput(deps.db, inputId, count, message))) return false;
    log.error({ repository, inputId, failures: count, err: e }, "an input failed every time it was applied: set aside in queue_inbox_set_aside; the inputs behind it go on");
    backoffUntil.delete(repository);
    failures.delete(repository);
    again.add(repository);
    return true;
  }

  function kick(repository: string): Promise<void> {
    if (ending) return Promise.resolve();
    const running = active.get(repository);
    if (running) {
      again.add(repository);
      return running;
    }
    const p = processRepository(repository)
      .catch((e) => log.error({ repository, err: e }, "queue runner failed"))
      .finally(() => {
        active.delete(repository);
        // After stop() nothing starts again: the pool is about to close.
        if (again.delete(repository) && !ending) void kick(repository);
      });
    active.set(repository, p);
    return p;
  }

  async function fireTimers(): Promise<void> {
    const fired = await withTransaction(deps.db, async (client) => {
      const due = await claimDueTimers(client, new Date(now()));
      for (const t of due) {
        // A freeze's start is the runner's own timer (freeze-input.ts); the others are the engine's.
        const inputs: RunnerInput[] = t.key.startsWith(FREEZE_START_TIMER_PREFIX)
          ? [{ kind: "freezes_changed" }]
          : [{ kind: "engine", event: { type: "timer_fired", key: t.key } }];
        // A check waiting for a schedule is evaluated again when it opens.
        if (t.key.startsWith(SCHEDULE_TIMER_PREFIX)) inputs.push({ kind: "evaluate_check", checkId: t.key.slice(SCHEDULE_TIMER_PREFIX.length) });
        await addToInbox(client, t.repository, inputs);
      }
      return due;
    });
    for (const r of new Set(fired.map((t) => t.repository))) void kick(r);
  }

  async function sweep(): Promise<void> {
    try {
      await fireTimers();
      await inboxKeys.maybePrune();
      for (const r of new Set([...(await repositoriesWithWork(deps.db)), ...(await repositoriesPausedDifferently(deps.db))])) void kick(r);
      const ended = sweepFailures.succeed();
      if (ended > 0) log.info({ failures: ended }, "queue runner sweep works again");
    } catch (e) {
      // Every 500 ms during an outage: logged at the 1st, 2nd, 4th, 8th, ... failure in a row.
      const { count, log: worthLogging } = sweepFailures.fail();
      if (worthLogging) log.warn({ err: e, failures: count }, "queue runner sweep failed");
    }
  }

  function schedule(): void {
    if (stopped) return;
    timer = setTimeout(() => void sweep().finally(schedule), deps.intervalMs ?? 500);
    timer.unref();
  }

  return {
    wake(repository) {
      backoffUntil.delete(repository);
      void kick(repository);
    },
    async submit(event, key) {
      const input: RunnerInput = { kind: "forge", event };
      if (key === undefined) await addToInbox(deps.db, event.repo, [input]);
      else if (!(await addToInboxOnce(deps.db, event.repo, input, key))) return;
      // New input may be what was missing (the repository now exists): try again now.
      backoffUntil.delete(event.repo);
      void kick(event.repo);
    },
    async request(repository, request) {
      const lock = await RepositoryLockSession.open(deps.db, repository, "wait");
      const client = lock.client;
      try {
        const { result } = await applyRound(client, repository, request);
        // The request is committed. Its effects are performed before the answer, within one lock
        // hold; the rest (a backlog in the inbox) and any failure there are the sweep's work,
        // retried and reported by it, not answered to the caller.
        const until = Date.now() + lockHoldMs;
        try {
          for (;;) {
            const performed = await performRound(client, repository, lock);
            const { applied } = await applyRound(client, repository);
            if ((!performed && !applied) || Date.now() >= until) break;
          }
        } catch (e) {
          failedInput.delete(repository);
          log.warn({ repository, err: (e as Error).message }, "processing after a request failed; the queue runner retries it");
        }
        return result;
      } finally {
        await lock.release();
        void kick(repository);
      }
    },
    async drain() {
      for (let i = 0; i < 100; i++) {
        await fireTimers();
        const repos = await repositoriesWithWork(deps.db);
        const pending = repos.filter((r) => (backoffUntil.get(r) ?? 0) <= Date.now());
        if (pending.length === 0 && active.size === 0) return;
        await Promise.all([...pending.map((r) => kick(r)), ...active.values()]);
      }
    },
    start() {
      if (!stopped) return;
      stopped = false;
      ending = false;
      schedule();
    },
    async stop() {
      stopped = true;
      ending = true;
      clearTimeout(timer);
      await Promise.all(active.values());
    },
  };
}
