/**
 * A harness that drives the engine event by event (queue, check created, CI concluded, merged...)
 * on the scenario clock, keeps the effects of the last event and every one since the start, and
 * renders the state and the effects as readable lines (state-lines.ts).
 */
import {
  apply,
  createState,
  type ConfigurationInput,
  type EngineEffect,
  type EngineEventInput,
  type EngineState,
  type QueuedPullInput,
} from "../../services/engine/index.js";
import { configuration, minutes, queuedPull, sha, T0 } from "./scenario-builders.js";
import { describeEffects, describeState } from "./state-lines.js";

/** Drives the engine and keeps the effects of the last event. */
export class QueueHarness {
  state: EngineState;
  now = T0;
  effects: EngineEffect[] = [];
  /** Every effect since the start. */
  readonly history: EngineEffect[] = [];
  private readonly names = new Map<string, string>();

  constructor(config: ConfigurationInput = configuration()) {
    this.state = createState("acme/app", config);
  }

  /** Sets the clock to `m` minutes after T0. */
  at(m: number): this {
    this.now = minutes(m);
    return this;
  }

  send(event: EngineEventInput): EngineEffect[] {
    this.remember(this.state);
    const result = apply(this.state, event, this.now);
    this.state = result.state;
    this.remember(this.state);
    this.effects = result.effects;
    this.history.push(...result.effects);
    return result.effects;
  }

  queue(number: number, over: Partial<QueuedPullInput> = {}, trigger = "Rule: automatic"): EngineEffect[] {
    return this.send({ type: "pull_request_queued", pull: queuedPull(number, over), trigger });
  }

  private remember(state: EngineState): void {
    for (const t of state.trains) {
      for (const c of t.batches) this.names.set(c.id, c.name);
      for (const b of t.bisections) this.names.set(b.id, b.name);
    }
  }

  /** Name of a batch id seen so far. */
  nameOf(id: string): string {
    return this.names.get(id) ?? id;
  }

  /** The live batch called `name`, with its train. */
  batch(name: string) {
    for (const train of this.state.trains) {
      const batch = train.batches.find((c) => c.name === name);
      if (batch) return { train, batch };
    }
    throw new Error(
      `no batch named ${name}; batches: ${this.state.trains.flatMap((t) => t.batches.map((c) => c.name)).join(", ")}`,
    );
  }

  /** The runner created the check of `name` (draft #`draft`, or the pull request in place). */
  created(name: string, draft?: number): EngineEffect[] {
    const { batch } = this.batch(name);
    const number = draft ?? (batch.check!.mode === "in_place" ? batch.members[0]! : 900 + this.state.counters.check);
    return this.send({
      type: "speculative_check_created",
      checkId: batch.check!.id,
      pullRequestNumber: number,
      headSha: sha(`check-${batch.check!.id}`),
    });
  }

  /** CI of `name` concluded. */
  ci(name: string, conditions: boolean | "pending"): EngineEffect[] {
    const { batch } = this.batch(name);
    const state = conditions === true ? "success" : conditions === false ? "failure" : "pending";
    return this.send({
      type: "check_results",
      checkId: batch.check!.id,
      conditions,
      checks: [{ name: "ci", description: "tests", url: null, state, avatar_url: null }],
    });
  }

  /** Creates the checks of several batches then reports their results in order. */
  checkAll(results: Record<string, boolean>): void {
    for (const name of Object.keys(results)) if (this.batch(name).batch.check?.phase === "creating") this.created(name);
    for (const [name, ok] of Object.entries(results)) this.ci(name, ok);
  }

  /** The runner merged the batch `name`. */
  merged(name: string): EngineEffect[] {
    return this.send({
      type: "merge_completed",
      batchId: this.batch(name).batch.id,
      newBaseSha: sha(`merged-${name}`),
    });
  }

  /**
   * Two single pull request batches checked at once (max_parallel_checks ≥ 2, batch size 1):
   * #1 and #2 queued, both drafts created, Batch 1 passes at +20 min and merges; Batch 2 runs on.
   */
  firstOfTwoMerged(): this {
    this.queue(1);
    this.queue(2);
    this.created("Batch 1", 101);
    this.created("Batch 2", 102);
    this.at(20).ci("Batch 1", true);
    this.merged("Batch 1");
    return this;
  }

  /** Merges every merge the last effects asked for, repeatedly (runner loop). */
  mergeRequested(): void {
    for (
      let e = this.effects.find((x) => x.kind === "merge_batch");
      e && e.kind === "merge_batch";
      e = this.effects.find((x) => x.kind === "merge_batch")
    ) {
      this.send({ type: "merge_completed", batchId: e.batchId, newBaseSha: sha(`merged-${e.batchId}`) });
    }
  }

  /** The whole state as lines (see {@link describeState}). */
  picture(): string[] {
    return describeState(this.state, this.now);
  }

  /** The effects of the last event as lines, optionally only some kinds. */
  lines(kinds?: string[]): string[] {
    return describeEffects(
      this.effects.filter((e) => !kinds || kinds.includes(e.kind) || (e.kind === "log" && kinds.includes(e.type))),
      (id) => this.nameOf(id),
    );
  }

  /** Log effects of the last event as "type #n [detail]". */
  logs(): string[] {
    return this.lines().filter((l) => l.startsWith("log "));
  }
}
