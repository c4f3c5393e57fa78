/**
 * The simulated forge and CI of the what-if simulation (one base branch). Trees are abstract: a
 * tree is the set of changes applied on the initial base, stored as a tip of the base history
 * plus the pull requests added on top; a commit SHA names a tree. A check fails when its tree
 * contains a pull request that breaks the build (or a broken change already in the base), or by a
 * flake (probability `flakeRate` per run); with a `tests` workload (test-workload.ts) the failing
 * tests decide instead, and the engine may run a failed check again (`rerun_checks`). CI has
 * `ciSlots` runners; checks beyond them wait.
 * Every run that starts counts, cancelled ones included; the CI time used is counted too (a
 * cancelled run for the time it ran). The forge audits the merges the engine asks (merge-audit.ts).
 */
import type { EngineEffect, EngineEvent, QueueCheck, TestFacts } from "../engine/index.js";
import type { Prng } from "./prng.js";
import { auditedMerge } from "./merge-audit.js";
import { TreeHistory, type Tree } from "./tree-history.js";

export type { DurationModel, ForgeStats, SimItem } from "./simulation-types.js";
import { emptyForgeStats, type DurationModel, type ForgeStats, type SimItem } from "./simulation-types.js";
import type { RunOutcome, TestOutcomes } from "./test-workload.js";

interface Job {
  tree: Tree;
  sha: string;
  /** The batch's own pull requests (whose merge conditions the runner evaluates). */
  own: number[];
  token: number;
  running: boolean;
  /** When its run started (virtual epoch ms); null while it waits for a runner. */
  startedAt: number | null;
}

const CHECK: QueueCheck = { name: "ci", description: "", url: null, state: "success", avatar_url: null };

/** The forge and CI of a simulation: performs engine effects and schedules their results. */
export class VirtualForge {
  readonly stats: ForgeStats = emptyForgeStats();
  /** Pull requests that break the build. */
  readonly bad = new Set<number>();
  /**
   * A merge window in the merge conditions: closed until this instant (epoch ms), open when null
   * or past. A check whose CI passed while it is closed is reported waiting for it.
   */
  windowClosedUntil: number | null = null;
  /** The window binds the pull requests whose number is a multiple of this (1: every one); the others merge any time. */
  windowModulus = 1;
  /**
   * A scheduled freeze (docs/scheduled-freeze.md): active until this instant (epoch ms), over the
   * pull requests whose number is a multiple of `freezeModulus`; none when null or past.
   */
  freezeUntil: number | null = null;
  freezeModulus = 1;
  /** Every check whose CI passed and that was not cancelled, by check id: its own pull requests (a freeze may hold it later). */
  private readonly passedOwn = new Map<string, number[]>();
  /** Those of them whose merge conditions have not held yet (the merge window was closed). */
  private readonly awaitingWindow = new Set<string>();
  /** The base history and every tree named by a SHA. */
  private readonly history: TreeHistory;
  private readonly passed = new Set<string>();
  private readonly jobs = new Map<string, Job>();
  /** Failed runs the engine may ask to run again (with a tests workload): their sha and own pull requests. */
  private readonly failedRuns = new Map<string, { sha: string; own: number[] }>();
  /** Checks failing only on quarantined tests not yet reported (a freeze holds them): their facts. */
  private readonly quarantinedPasses = new Map<string, TestFacts>();
  private readonly ciQueue: string[] = [];
  private readonly timerTokens = new Map<string, number>();
  private running = 0;
  private nextDraft = 100_000;
  private now = 0;

  constructor(
    private readonly rng: Prng,
    private readonly options: { ciSlots: number; flakeRate: number; duration: DurationModel; tests?: TestOutcomes },
    private readonly schedule: (at: number, item: SimItem) => void,
  ) {
    this.history = new TreeHistory(this.bad);
  }

  /** The base tip SHA. */
  get baseSha(): string {
    return this.history.baseSha;
  }

  /** Head SHA of a pull request (the tree with just that change on the initial base). */
  headSha(number: number): string {
    return this.history.newSha({ tip: 0, extra: [number] });
  }

  /** Pull requests merged so far, in order. */
  get mergedPulls(): number[] {
    return this.history.mergedPulls();
  }

  /** Moves the base outside the queue (a change numbered `change` merged by hand). */
  externalMerge(change: number): string {
    return this.history.addTip([change]);
  }

  /** Whether a timer delivery is still the current one for its key. */
  timerIsCurrent(key: string, token: number): boolean {
    if (this.timerTokens.get(key) !== token) return false;
    this.timerTokens.delete(key);
    return true;
  }

  /** A CI run finished at `now`: its result as an engine event, or null when it was cancelled. */
  finish(checkId: string, token: number, now: number, carried: readonly number[] = []): EngineEvent | null {
    const job = this.jobs.get(checkId);
    if (!job || job.token !== token) return null;
    this.now = now;
    this.jobs.delete(checkId);
    this.running--;
    this.stats.ciMs += now - job.startedAt!;
    this.pump();
    const { failed, tested, tests } = this.outcome(job);
    // Failures only on quarantined tests: the tree is a tested one by definition (docs/merge-queue.md).
    if (tested) this.passed.add(job.sha);
    if (!failed) {
      this.passedOwn.set(checkId, job.own);
      this.awaitingWindow.add(checkId);
    }
    if (failed && tests) this.failedRuns.set(checkId, { sha: job.sha, own: job.own });
    if (failed && tests?.withoutQuarantined === true) {
      // As the runner does: a check passing on quarantined failures is held by a freeze first.
      this.passedOwn.set(checkId, job.own);
      this.quarantinedPasses.set(checkId, tests);
      return this.windowVerdict(checkId, now, carried);
    }
    return failed ? this.failure(checkId, tests) : this.windowVerdict(checkId, now, carried);
  }

  /** A failed run's result, with its failing tests when the engine reads them. */
  private failure(checkId: string, tests: TestFacts | undefined): EngineEvent {
    const checks = [{ ...CHECK, state: "failure" as const }];
    return { type: "check_results", checkId, conditions: false, checks, ...(tests ? { tests } : {}) };
  }

  /** What one run of `job` says: with a tests workload its failing tests, else a flake draw. */
  private outcome(job: Job): Pick<RunOutcome, "failed" | "tested" | "tests"> {
    const broken = this.history.brokenAt(job.tree.tip);
    const culprits = job.tree.extra.filter((n) => this.bad.has(n));
    if (this.options.tests) return this.options.tests.run(culprits, broken);
    const failed = broken || culprits.length > 0 || this.rng.chance(this.options.flakeRate);
    return { failed, tested: !failed };
  }

  /**
   * The merge conditions of a check whose CI passed, as the runner evaluates them at `now`: true
   * when the merge window is open or binds none of the batch's own pull requests, false until it
   * opens otherwise (`scheduleOpensAt`, and `scheduleBlocked` naming the bound ones); a scheduled
   * freeze over its own pull requests or those it would `carry` into the base holds it the same
   * way (`holdKind: "freeze"`), also once it passed; null for a check unknown here (cancelled, or failed).
   */
  windowVerdict(checkId: string, now: number, carried: readonly number[] = []): EngineEvent | null {
    const own = this.passedOwn.get(checkId);
    if (!own) return null;
    const checks = [{ ...CHECK, state: "success" as const }];
    // A check whose conditions held already: only a freeze can hold it (the runner's freeze evaluation).
    const closed = this.awaitingWindow.has(checkId) && this.windowClosedUntil !== null && now < this.windowClosedUntil;
    const blocked = new Map<number, number>();
    if (closed) for (const n of own) if (n % this.windowModulus === 0) blocked.set(n, this.windowClosedUntil!);
    // What a pass would merge with it (skip_intermediate_results) must not be frozen either.
    const frozen = [...own, ...carried].filter((n) => this.frozenAt(n, now));
    for (const n of frozen) blocked.set(n, Math.max(blocked.get(n) ?? 0, this.freezeUntil!));
    if (blocked.size === 0) {
      this.awaitingWindow.delete(checkId);
      const tests = this.quarantinedPasses.get(checkId);
      this.quarantinedPasses.delete(checkId);
      if (tests) return this.failure(checkId, tests);
      return { type: "check_results", checkId, conditions: true, checks };
    }
    return {
      type: "check_results",
      checkId,
      conditions: false,
      checks,
      scheduleOpensAt: Math.max(...blocked.values()),
      scheduleBlocked: Object.fromEntries([...blocked].map(([n, at]) => [String(n), at])),
      holdKind: frozen.length > 0 ? "freeze" : "schedule",
    };
  }

  /** Whether the freeze holds pull request `n` at `now`. */
  frozenAt(n: number, now: number): boolean {
    return this.freezeUntil !== null && now < this.freezeUntil && n % this.freezeModulus === 0;
  }

  private pump(): void {
    while (this.running < this.options.ciSlots && this.ciQueue.length > 0) {
      const id = this.ciQueue.shift()!;
      const job = this.jobs.get(id);
      if (!job || job.running) continue;
      job.running = true;
      job.startedAt = this.now;
      this.running++;
      this.stats.ciRuns++;
      this.schedule(this.now + this.options.duration(this.rng), { kind: "ci_done", checkId: id, token: job.token });
    }
  }

  private startCi(checkId: string, sha: string, own: number[]): void {
    this.jobs.set(checkId, {
      tree: this.history.tree(sha)!,
      sha,
      own,
      token: this.history.nextId(),
      running: false,
      startedAt: null,
    });
    this.ciQueue.push(checkId);
    this.pump();
  }

  private cancelCi(checkId: string): void {
    this.failedRuns.delete(checkId);
    this.quarantinedPasses.delete(checkId);
    this.passedOwn.delete(checkId);
    this.awaitingWindow.delete(checkId);
    const job = this.jobs.get(checkId);
    if (!job) return;
    this.jobs.delete(checkId);
    if (job.running) {
      this.running--;
      this.stats.cancelledRuns++;
      this.stats.ciMs += this.now - job.startedAt!;
      this.pump();
    }
  }

  /** Performs one effect at `now`; results are scheduled as engine events at `now`. */
  perform(effect: EngineEffect, now: number): void {
    this.now = now;
    const emit = (event: EngineEvent) => this.schedule(now, { kind: "engine", event });
    switch (effect.kind) {
      case "create_speculative_check": {
        const base = this.history.tree(effect.baseSha) ?? { tip: this.history.lastTip, extra: [] };
        const sha = this.history.newSha(
          this.history.extend(
            base,
            effect.pulls.map((p) => p.number),
          ),
        );
        this.stats.draftsCreated++;
        emit({
          type: "speculative_check_created",
          checkId: effect.checkId,
          pullRequestNumber: this.nextDraft++,
          headSha: sha,
        });
        this.startCi(effect.checkId, sha, effect.ownPullNumbers);
        return;
      }
      case "start_in_place_check": {
        const sha = this.history.newSha(
          this.history.extend({ tip: this.history.lastTip, extra: [] }, [effect.pull.number]),
        );
        emit({
          type: "speculative_check_created",
          checkId: effect.checkId,
          pullRequestNumber: effect.pull.number,
          headSha: sha,
        });
        this.startCi(effect.checkId, sha, [effect.pull.number]);
        return;
      }
      case "cancel_speculative_check":
        this.cancelCi(effect.checkId);
        return;
      case "rerun_checks": {
        const failed = this.failedRuns.get(effect.checkId);
        if (!failed) return;
        this.failedRuns.delete(effect.checkId);
        this.stats.reruns++;
        this.startCi(effect.checkId, failed.sha, failed.own);
        return;
      }
      case "merge_batch":
        auditedMerge(
          { history: this.history, passed: this.passed, stats: this.stats, frozen: (n) => this.frozenAt(n, now) },
          effect,
          emit,
        );
        return;
      case "schedule_timer": {
        const token = this.history.nextId();
        this.timerTokens.set(effect.key, token);
        this.schedule(Math.max(now, effect.dueAt), { kind: "timer", key: effect.key, token });
        return;
      }
      case "cancel_timer":
        this.timerTokens.delete(effect.key);
        return;
      default:
        return; // comments, labels, summary checks, closes and log events change nothing here
    }
  }
}
