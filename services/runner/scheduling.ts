/**
 * When repositories are processed (docs/merge-queue.md "Runner", items 5-7): a repository is kicked
 * by new input and by the sweep, which runs every `intervalMs`, turns due timers into inbox inputs
 * (timers are rows, claimed with SKIP LOCKED) and kicks every repository with work or whose pauses
 * differ. One processing per repository at a time in this process; a kick during one runs it again
 * after. `stop()` lets the repository being processed finish its current round and starts nothing
 * more.
 *
 * With several replicas (docs/deployment.md "Several replicas") this process works only the
 * repositories the ownership gives it: the sweep passes the others by, and new input for one of
 * them is handed to the replica that works it (a notification) instead of being processed here.
 */
import { SCHEDULE_TIMER_PREFIX, TEST_RESULTS_TIMER_PREFIX } from "../engine/index.js";
import { FailureStreak } from "../outage/index.js";
import {
  addToInbox,
  claimDueTimers,
  repositoriesPausedDifferently,
  repositoriesWithWork,
  withTransaction,
} from "../store/index.js";
import { FREEZE_START_TIMER_PREFIX } from "./freeze-input.js";
import { InboxKeyPruner } from "./inbox-keys.js";
import type { RunnerInput } from "./inputs.js";
import type { RepositoryProcessing } from "./processing.js";
import { protectionsTimerNumber } from "./merge-protections/report.js";
import { pullRulesTimerNumber } from "./rule-actions/clock-timer.js";
import type { RunnerContext } from "./runner-context.js";

/** The runner's scheduling (see the file header). */
export class RunnerScheduling {
  private readonly active = new Map<string, Promise<void>>();
  private readonly again = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = true;
  /** Set by stop(): the repository being processed stops after its current round; no new one starts. */
  private ending = false;
  private readonly sweepFailures = new FailureStreak();
  private readonly inboxKeys: InboxKeyPruner;

  constructor(
    private readonly ctx: RunnerContext,
    private readonly processing: RepositoryProcessing,
  ) {
    this.inboxKeys = new InboxKeyPruner(ctx.db, ctx.log);
    ctx.ownership.onWork((repository) => {
      if (this.stopped) return;
      if (repository === null) void this.sweep();
      else void this.work(repository);
    });
  }

  /**
   * New input for `repository`: processes it now (or again after the processing under way) when
   * this process works it, else hands it to the replica that does. Resolves when this process's
   * processing ends.
   */
  kick(repository: string): Promise<void> {
    if (this.ending) return Promise.resolve();
    if (!this.ctx.ownership.owns(repository)) {
      this.ctx.ownership.handOver(repository);
      return Promise.resolve();
    }
    return this.work(repository);
  }

  /** Processes `repository` here now, or again after the processing under way. */
  private work(repository: string): Promise<void> {
    if (this.ending) return Promise.resolve();
    const running = this.active.get(repository);
    if (running) {
      this.again.add(repository);
      return running;
    }
    const p = this.processing
      .process(repository, () => this.ending)
      .then((again) => void (again && this.again.add(repository)))
      .catch((e) => this.ctx.log.error({ repository, err: e }, "queue runner failed"))
      .finally(() => {
        this.active.delete(repository);
        // After stop() nothing starts again: the pool is about to close.
        if (this.again.delete(repository) && !this.ending && this.ctx.ownership.owns(repository))
          void this.work(repository);
      });
    this.active.set(repository, p);
    return p;
  }

  /** Turns due timers into inbox inputs and kicks their repositories. @throws the database's error */
  async fireTimers(): Promise<void> {
    const fired = await withTransaction(this.ctx.db, async (client) => {
      const due = await claimDueTimers(client, new Date(this.ctx.now()));
      for (const t of due) {
        // A freeze's start, a pull request's rules and its merge protections are the runner's own
        // timers (freeze-input.ts, rule-actions/clock-timer.ts, merge-protections/report.ts); the
        // others are the engine's.
        const pullRules = pullRulesTimerNumber(t.key);
        const protections = protectionsTimerNumber(t.key);
        const inputs: RunnerInput[] = t.key.startsWith(FREEZE_START_TIMER_PREFIX)
          ? [{ kind: "freezes_changed" }]
          : pullRules !== null
            ? [{ kind: "evaluate_pull_rules", number: pullRules }]
            : protections !== null
              ? [{ kind: "evaluate_protections", number: protections }]
              : [{ kind: "engine", event: { type: "timer_fired", key: t.key } }];
        // A check waiting for a schedule is evaluated again when it opens, one waiting for its
        // test results when it looks again (docs/merge-queue.md "Verdicts from test results").
        for (const prefix of [SCHEDULE_TIMER_PREFIX, TEST_RESULTS_TIMER_PREFIX])
          if (t.key.startsWith(prefix)) inputs.push({ kind: "evaluate_check", checkId: t.key.slice(prefix.length) });
        await addToInbox(client, t.repository, inputs);
      }
      return due;
    });
    for (const r of new Set(fired.map((t) => t.repository))) void this.kick(r);
  }

  /** Processes every repository with work until none is left (tests, shutdown): at most 100 passes. */
  async drain(): Promise<void> {
    for (let i = 0; i < 100; i++) {
      await this.fireTimers();
      const pending = (await repositoriesWithWork(this.ctx.db)).filter(
        (r) => !this.processing.inBackoff(r) && this.ctx.ownership.owns(r),
      );
      if (pending.length === 0 && this.active.size === 0) return;
      await Promise.all([...pending.map((r) => this.work(r)), ...this.active.values()]);
    }
  }

  /** Starts the sweep every `intervalMs` (no-op when started). */
  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.ending = false;
    this.schedule();
  }

  /** Stops the sweep and waits for the repositories being processed (each ends after its current round). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.ending = true;
    clearTimeout(this.timer);
    await Promise.all(this.active.values());
  }

  private async sweep(): Promise<void> {
    try {
      await this.fireTimers();
      await this.inboxKeys.maybePrune();
      const work = [
        ...(await repositoriesWithWork(this.ctx.db)),
        ...(await repositoriesPausedDifferently(this.ctx.db)),
      ];
      for (const r of new Set(work)) if (this.ctx.ownership.owns(r)) void this.work(r);
      const ended = this.sweepFailures.succeed();
      if (ended > 0) this.ctx.log.info({ failures: ended }, "queue runner sweep works again");
    } catch (e) {
      // Every 500 ms during an outage: logged at the 1st, 2nd, 4th, 8th, ... failure in a row.
      const { count, log: worthLogging } = this.sweepFailures.fail();
      if (worthLogging) this.ctx.log.warn({ err: e, failures: count }, "queue runner sweep failed");
    }
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => void this.sweep().finally(() => this.schedule()), this.ctx.intervalMs);
    this.timer.unref();
  }
}
