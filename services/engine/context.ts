/**
 * The working context of one `apply`: a private copy of the state that handlers change, the
 * clock value passed in, and the effects collected so far. Lookups that fail on an engine bug
 * throw plain errors; lookups of things an event names return undefined (events may be stale).
 */
import type { EngineQueueRule } from "./config.js";
import type { EngineEffect, LogEffect } from "./effects.js";
import { deterministicUuid } from "./ids.js";
import type { Bisection, Batch, CheckAttempt, EngineState, EpochMs, PullEntry, Train } from "./state.js";

/** State, clock and effects of one `apply` (see the module header). */
export class Ctx {
  readonly effects: EngineEffect[] = [];

  constructor(
    readonly state: EngineState,
    readonly now: EpochMs,
  ) {}

  /** Appends an effect. */
  emit(effect: EngineEffect): void {
    this.effects.push(effect);
  }

  /** Appends an activity log effect. */
  log(
    type: string,
    pullRequest: number | null,
    baseRef: string | null,
    trigger: string,
    metadata: Record<string, unknown>,
  ): void {
    const effect: LogEffect = { kind: "log", type, pullRequest, baseRef, trigger, metadata };
    this.effects.push(effect);
  }

  /** RFC 3339 text of an epoch-ms time (UTC), as event metadata carries times. */
  iso(ms: EpochMs): string {
    return new Date(ms).toISOString();
  }

  /** The queued pull request, or undefined. */
  pull(number: number): PullEntry | undefined {
    return this.state.pulls[String(number)];
  }

  /** The queued pull request, or an error (engine bug) when it is not queued. */
  mustPull(number: number): PullEntry {
    const p = this.pull(number);
    if (!p) throw new Error(`engine invariant: pull request #${number} is not queued`);
    return p;
  }

  /** The queue rule of that name in the current configuration, or undefined. */
  rule(name: string): EngineQueueRule | undefined {
    return this.state.config.queueRules.find((r) => r.name === name);
  }

  /** The queue rule, or an error (engine bug) when it is missing. */
  mustRule(name: string): EngineQueueRule {
    const r = this.rule(name);
    if (!r) throw new Error(`engine invariant: queue rule ${name} is missing`);
    return r;
  }

  /** The train of a branch and partition, created empty when absent. */
  train(branch: string, partition: string): Train {
    let t = this.state.trains.find((x) => x.branch === branch && x.partition === partition);
    if (!t) {
      t = { branch, partition, batches: [], waiting: [], bisections: [], forming: null };
      this.state.trains.push(t);
    }
    return t;
  }

  /** Trains holding a pull request (waiting, in a batch or held by a bisection). */
  trainsOf(number: number): Train[] {
    return this.state.trains.filter(
      (t) =>
        t.waiting.includes(number) ||
        t.batches.some((c) => c.members.includes(number)) ||
        t.bisections.some((b) => b.candidates.includes(number)),
    );
  }

  /** The batch with this id and its train. */
  findBatch(id: string): { train: Train; batch: Batch } | undefined {
    for (const train of this.state.trains) {
      const batch = train.batches.find((c) => c.id === id);
      if (batch) return { train, batch };
    }
    return undefined;
  }

  /** The batch whose current check attempt has this id. */
  findCheck(checkId: string): { train: Train; batch: Batch; check: CheckAttempt } | undefined {
    for (const train of this.state.trains) {
      for (const batch of train.batches) if (batch.check?.id === checkId) return { train, batch, check: batch.check };
    }
    return undefined;
  }

  /** The bisection with this id in the train (undefined for null or unknown). */
  bisection(train: Train, id: string | null): Bisection | undefined {
    return id === null ? undefined : train.bisections.find((b) => b.id === id);
  }

  /** A new batch id and its sequence number (for names). */
  nextBatch(): { id: string; seq: number } {
    const seq = ++this.state.counters.batch;
    return { id: deterministicUuid(this.state.repository, "batch", seq), seq };
  }

  /** The number of the next top-level batch's name (`Batch <n>`; see EngineState.counters). */
  nextBatchNumber(): number {
    const c = this.state.counters;
    c.named = (c.named ?? c.batch) + 1;
    return c.named;
  }

  /** A new session id (one per stay of a pull request in the queue). */
  nextSession(): string {
    return deterministicUuid(this.state.repository, "session", ++this.state.counters.session);
  }

  /** A new check attempt id. */
  nextCheckId(): string {
    return deterministicUuid(this.state.repository, "check", ++this.state.counters.check);
  }

  /** The base state of a branch, or an error (engine bug) when unknown. */
  base(branch: string) {
    const b = this.state.bases[branch];
    if (!b) throw new Error(`engine invariant: base branch ${branch} is unknown`);
    return b;
  }
}
