/**
 * What-if simulation in virtual time: the real engine driven by a simulated forge and CI
 * (virtual-forge.ts). Pull requests arrive as a Poisson process (rate λ per hour), each
 * breaks the build with probability p, CI runs take a drawn duration on k runners and flake with
 * probability f. Seeded and deterministic. Used by bench/queue.ts and the engine's property tests;
 * the method and the closed forms it is checked against: docs/merge-queue.md "Simulation".
 */
import {
  apply,
  carriedPulls,
  createState,
  SCHEDULE_TIMER_PREFIX,
  type ConfigurationInput,
  type EngineEvent,
  type EngineState,
  type LogEffect,
} from "../engine/index.js";
import { EventHeap } from "./event-heap.js";
import { Prng } from "./prng.js";
import { TestOutcomes, type TestWorkload } from "./test-workload.js";
import { VirtualForge, type DurationModel, type ForgeStats, type SimItem } from "./virtual-forge.js";

/** One applied event, for observers (tests check invariants on every step). */
export interface SimulationStep {
  now: number;
  event: EngineEvent;
  before: EngineState;
  after: EngineState;
  effects: ReturnType<typeof apply>["effects"];
}

/** Options of a {@link Simulation}. Times in milliseconds. */
export interface SimulationSetup {
  seed: number;
  config: ConfigurationInput;
  /** CI run duration per run (ms); see {@link constantMinutes}. */
  ciDuration: DurationModel;
  ciSlots: number;
  flakeRate: number;
  /** With test identities (test-workload.ts): failures on named tests replace `flakeRate`. */
  tests?: TestWorkload;
  /** Start of virtual time (epoch ms); default 2026-01-05T00:00:00Z. */
  startAt?: number;
  branch?: string;
  observe?: (step: SimulationStep) => void;
}

/** What happened to a pull request. */
export interface PullFate {
  queuedAt: number;
  leftAt: number | null;
  code: string | null;
}

/** Callbacks of {@link Simulation.runUntil}. */
export interface RunHooks {
  arrival?: () => void;
  after?: () => void;
  stop?: () => boolean;
}

/** A constant CI duration. */
export function constantMinutes(minutes: number): DurationModel {
  return () => minutes * 60_000;
}

/** A virtual repository: the engine, its forge and CI, and an agenda. */
export class Simulation {
  state: EngineState;
  now: number;
  readonly rng: Prng;
  readonly forge: VirtualForge;
  /** The tests workload's outcomes, when the setup has one. */
  readonly tests: TestOutcomes | null;
  readonly fates = new Map<number, PullFate>();
  readonly logs: LogEffect[] = [];
  readonly branch: string;
  private readonly agenda = new EventHeap<SimItem>();
  private nextNumber = 1;
  private config: ConfigurationInput;

  constructor(private readonly setup: SimulationSetup) {
    this.rng = new Prng(setup.seed);
    this.now = setup.startAt ?? Date.UTC(2026, 0, 5);
    this.branch = setup.branch ?? "main";
    this.state = createState("acme/simulated", setup.config);
    this.config = setup.config;
    this.tests = setup.tests ? new TestOutcomes(setup.tests, setup.seed) : null;
    const tests = this.tests ?? undefined;
    this.forge = new VirtualForge(
      this.rng,
      { ciSlots: setup.ciSlots, flakeRate: setup.flakeRate, duration: setup.ciDuration, tests },
      (at, item) => this.agenda.push(at, item),
    );
  }

  /** Number of queued pull requests. */
  get queued(): number {
    return Object.keys(this.state.pulls).length;
  }

  /** Whether anything is scheduled. */
  get idle(): boolean {
    return this.agenda.size === 0;
  }

  stats(): ForgeStats {
    return this.forge.stats;
  }

  /** Applies an engine event now and performs its effects. */
  send(event: EngineEvent): void {
    const before = this.state;
    const result = apply(before, event, this.now);
    this.state = result.state;
    this.setup.observe?.({ now: this.now, event, before, after: result.state, effects: result.effects });
    for (const effect of result.effects) {
      if (effect.kind === "log") this.record(effect);
      this.forge.perform(effect, this.now);
    }
  }

  private record(log: LogEffect): void {
    this.logs.push(log);
    if (log.type === "action.queue.leave" && log.pullRequest !== null) {
      const fate = this.fates.get(log.pullRequest);
      if (fate) {
        fate.leftAt = this.now;
        fate.code = String(log.metadata.dequeue_code);
      }
    }
  }

  /** Opens a pull request and queues it; returns its number. */
  arrive(
    options: {
      bad?: boolean;
      priority?: number;
      allowChecksInterruption?: boolean;
      queueRule?: string;
      scopes?: string[];
      dependsOn?: number[];
    } = {},
  ): number {
    const number = this.nextNumber++;
    if (options.bad) this.forge.bad.add(number);
    this.tests?.arrived(number, options.bad === true);
    this.fates.set(number, { queuedAt: this.now, leftAt: null, code: null });
    this.send({
      type: "pull_request_queued",
      trigger: "Rule: simulated",
      pull: {
        number,
        title: `Change ${number}`,
        url: `https://forge.example/acme/simulated/pull/${number}`,
        author: { id: 1, login: "dev" },
        labels: [],
        hostLabels: [],
        headSha: this.forge.headSha(number),
        baseRef: this.branch,
        baseSha: this.forge.baseSha,
        queueRule: options.queueRule ?? this.config.queue_rules[0]!.name,
        priority: options.priority ?? 2000,
        priorityRuleName: null,
        allowChecksInterruption: options.allowChecksInterruption ?? false,
        scopes: options.scopes ?? [],
        allScopes: false,
        partitions: [],
        dependsOn: options.dependsOn ?? [],
        protectionsHold: null,
        risk: this.tests?.riskOf(number) ?? null,
      },
    });
    return number;
  }

  /** Applies a new configuration (arrivals then use its first queue rule). */
  configure(config: ConfigurationInput): void {
    this.config = config;
    this.send({ type: "configuration_changed", config });
  }

  /** Dequeues a queued pull request (API). */
  dequeue(number: number): void {
    if (this.state.pulls[String(number)])
      this.send({ type: "dequeue_requested", number, trigger: "@ada", source: "api" });
  }

  pause(reason = "maintenance"): void {
    this.send({ type: "pause", reason });
  }

  unpause(): void {
    this.send({ type: "unpause" });
  }

  /** A push to a queued pull request's head outside the queue. */
  push(number: number): void {
    this.send({ type: "pull_request_updated", number, headSha: this.forge.headSha(number) });
  }

  /**
   * Closes the merge window (a schedule in the merge conditions) for `ms` milliseconds from now,
   * for the pull requests whose number is a multiple of `modulus` (1: every one).
   */
  closeMergeWindow(ms: number, modulus = 1): void {
    this.forge.windowClosedUntil = this.now + ms;
    this.forge.windowModulus = modulus;
  }

  /**
   * Begins a scheduled freeze for `ms` milliseconds from now over the pull requests whose number
   * is a multiple of `modulus` (1: every one). As the runner does when the freezes change, every
   * check whose CI passed (waiting for a merge window, or passed and not merging) is evaluated
   * again; the freeze's end needs nothing (held checks are evaluated again when their hold ends).
   */
  freeze(ms: number, modulus = 1): void {
    this.forge.freezeUntil = this.now + ms;
    this.forge.freezeModulus = modulus;
    const ids = this.state.trains
      .flatMap((t) => t.batches)
      .filter((c) => c.check !== null && (c.check.phase === "running" || (c.check.phase === "passed" && !c.merging)))
      .map((c) => c.check!.id);
    for (const id of ids) {
      const verdict = this.forge.windowVerdict(id, this.now, carriedPulls(this.state, id));
      if (verdict) this.send(verdict);
    }
  }

  /** A push to the base outside the queue. */
  externalMerge(): void {
    const sha = this.forge.externalMerge(1_000_000 + this.nextNumber++);
    this.send({ type: "base_branch_moved", branch: this.branch, sha });
  }

  /**
   * Runs the agenda up to `until` (inclusive), then sets the clock there. `hooks.arrival` runs on
   * arrival ticks, `hooks.after` after every item; `hooks.stop` ends the run early when true.
   */
  runUntil(until: number, hooks: RunHooks = {}): void {
    for (;;) {
      const next = this.agenda.peekTime();
      if (next === undefined || next > until) break;
      const { at, item } = this.agenda.pop()!;
      this.now = Math.max(this.now, at);
      this.handle(item, hooks.arrival);
      hooks.after?.();
      if (hooks.stop?.()) return;
    }
    this.now = Math.max(this.now, until);
  }

  /** Runs until nothing is scheduled or `limit` (ms after now) passes. */
  drain(limit: number, hooks: RunHooks = {}): void {
    this.runUntil(this.now + limit, hooks);
  }

  /** Schedules an arrival tick (open-loop runs). */
  scheduleArrival(at: number): void {
    this.agenda.push(at, { kind: "arrival" });
  }

  private handle(item: SimItem, onArrival?: () => void): void {
    switch (item.kind) {
      case "engine":
        return this.send(item.event);
      case "ci_done": {
        const event = this.forge.finish(item.checkId, item.token, this.now, carriedPulls(this.state, item.checkId));
        if (event) this.send(event);
        return;
      }
      case "timer": {
        if (!this.forge.timerIsCurrent(item.key, item.token)) return;
        this.send({ type: "timer_fired", key: item.key });
        // As the runner does: a check waiting for a merge window is evaluated again when it opens.
        const id = item.key.slice(SCHEDULE_TIMER_PREFIX.length);
        const verdict = item.key.startsWith(SCHEDULE_TIMER_PREFIX)
          ? this.forge.windowVerdict(id, this.now, carriedPulls(this.state, id))
          : null;
        if (verdict) this.send(verdict);
        return;
      }
      case "arrival":
        onArrival?.();
        return;
    }
  }
}
