/**
 * Named builders for engine tests: configurations, queued pull requests, and a harness that drives
 * the engine event by event and renders the whole state and the effects as readable lines (so
 * scenario tests assert everything without copying 40-line objects).
 */
import {
  apply,
  createState,
  DEFAULT_MERGE_QUEUE,
  type ConfigurationInput,
  type EngineEffect,
  type EngineEventInput,
  type EngineState,
  type QueuedPullInput,
} from "../../services/engine/index.js";
import { defaultQueueRule } from "../../services/simulation/index.js";
import type { MergeQueueConfig, QueueRuleConfig } from "../../services/config/model.js";

/** Monday 2026-01-05 09:00 UTC: minute 0 of every scenario. */
export const T0 = Date.UTC(2026, 0, 5, 9, 0);
/** Epoch ms of `m` minutes after T0. */
export const minutes = (m: number) => T0 + m * 60_000;

/** A queue rule with the configuration defaults, overridden by `over`. */
export function queueRule(over: Partial<QueueRuleConfig> = {}): QueueRuleConfig {
  return defaultQueueRule(over.name ?? "default", over);
}

/** A fixed batch size. */
export const batchOf = (n: number) => ({ min: n, max: n });

/** The configuration sections the engine reads. */
export function configuration(
  options: {
    rules?: QueueRuleConfig[];
    mergeQueue?: Partial<MergeQueueConfig>;
    partitions?: string[];
    capacities?: Record<string, number>;
  } = {},
): ConfigurationInput {
  return {
    queue_rules: options.rules ?? [queueRule()],
    merge_queue: { ...DEFAULT_MERGE_QUEUE, ...options.mergeQueue },
    priority_rules: [],
    scopes: options.capacities
      ? {
          source: { type: "manual" },
          barrier_files: null,
          merge_queue_scope: "merge-queue",
          capacities: options.capacities,
          default_capacity: null,
        }
      : null,
    partition_rules: (options.partitions ?? []).map((name) => ({ name, conditions: [], fallback_partition: false })),
  };
}

/** A 40-hex SHA made from a label ("base", "head-3"...). */
export function sha(label: string): string {
  let h = 0x811c9dc5;
  let out = "";
  for (let round = 0; round < 5; round++) {
    for (const ch of `${round}:${label}`) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193) >>> 0;
    out += h.toString(16).padStart(8, "0");
  }
  return out;
}

/** What the runner resolved for pull request `number` (defaults: rule "default", medium priority, main). */
export function queuedPull(number: number, over: Partial<QueuedPullInput> = {}): QueuedPullInput {
  return {
    number,
    title: `Change ${number}`,
    url: `https://forge.example/acme/app/pull/${number}`,
    author: { id: 7, login: "ada" },
    labels: [],
    headSha: sha(`head-${number}`),
    baseRef: "main",
    baseSha: sha("base"),
    queueRule: "default",
    priority: 2000,
    priorityRuleName: null,
    allowChecksInterruption: false,
    scopes: [],
    ...over,
  };
}

const short = (s: string) => s.slice(0, 7);

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

/**
 * The state as lines: pause, then per train its base, batches (status, members, ancestors by name,
 * check), bisections (members, sub-batches, held candidates), the filling batch, the waiting list.
 */
export function describeState(state: EngineState, now: number): string[] {
  const out: string[] = [];
  if (state.pause) out.push(`paused: ${state.pause.reason}`);
  const nameOf = new Map(state.trains.flatMap((t) => t.batches.map((c) => [c.id, c.name] as const)));
  for (const t of state.trains) {
    out.push(`train ${t.branch}/${t.partition} base ${short(state.bases[t.branch]?.sha ?? "?")}`);
    for (const c of t.batches) {
      const check = c.check
        ? `${c.check.mode === "in_place" ? "in place" : "draft"} ${c.check.phase}${c.check.attempt ? ` retry ${c.check.attempt}` : ""}`
        : "no check";
      const live = c.ancestors.filter((a) => nameOf.has(a));
      const on = live.length ? ` on ${live.map((a) => nameOf.get(a)).join("+")}` : "";
      out.push(`  ${c.name} [${c.members.join(",")}] ${check}${on}${c.merging ? " merging" : ""}`);
    }
    for (const b of t.bisections)
      out.push(`  bisecting ${b.name} [${b.members.join(",")}] depth ${b.depth} held [${b.candidates.join(",")}]`);
    if (t.forming)
      out.push(
        `  filling [${t.forming.members.join(",")}] of ${t.forming.size} until +${(t.forming.startsAt - T0) / 60_000}m`,
      );
    const waiting = t.waiting.filter((n) => !t.forming?.members.includes(n)).sort((a, b) => a - b);
    if (waiting.length) out.push(`  waiting [${waiting.join(",")}]`);
  }
  void now;
  return out;
}

/** Effects as lines: "create Batch 1 [1,2] ahead []", "merge Batch 1 [1,2] exact", "log action.queue.leave #3 CHECKS_FAILED"... */
export function describeEffects(effects: EngineEffect[], nameOf: (id: string) => string = (id) => id): string[] {
  return effects.map((e) => {
    switch (e.kind) {
      case "create_speculative_check":
        return `create ${nameOf(e.batchId)} [${e.ownPullNumbers.join(",")}] ahead [${e.aheadPullNumbers.join(",")}]`;
      case "start_in_place_check":
        return `in place ${nameOf(e.batchId)} #${e.pull.number} (${e.updateMethod})`;
      case "cancel_speculative_check":
        return `cancel ${nameOf(e.batchId)} (${e.reason})`;
      case "merge_batch":
        return `merge ${nameOf(e.batchId)} [${e.pulls.map((p) => p.number).join(",")}] ${e.method}${e.exactTree ? " exact" : ""}`;
      case "rerun_checks":
        return `rerun ${nameOf(e.batchId)} ${e.checks.join(",")}`;
      case "close_pull_request":
        return `close #${e.number}`;
      case "comment":
        return `comment #${e.number}`;
      case "post_summary_check":
        return `summary #${e.number} ${e.conclusion ?? "in progress"}`;
      case "add_labels":
        return `label #${e.number} +${e.labels.join(",")}`;
      case "remove_labels":
        return `label #${e.number} -${e.labels.join(",")}`;
      case "schedule_timer":
        return `timer ${e.key.split("/")[0]} at +${(e.dueAt - T0) / 60_000}m`;
      case "cancel_timer":
        return `cancel timer ${e.key.split("/")[0]}`;
      case "log": {
        const m = e.metadata;
        const who = e.pullRequest === null ? "" : ` #${e.pullRequest}`;
        const batch = typeof m.batch_name === "string" ? ` ${m.batch_name}` : "";
        const detail =
          e.type === "action.queue.leave"
            ? ` ${m.dequeue_code}`
            : e.type === "action.queue.checks_end"
              ? m.aborted
                ? ` aborted ${m.abort_code}`
                : ` ${(m.speculative_check_pull_request as { checks_conclusion: string }).checks_conclusion}`
              : e.type === "action.queue.batch_bisection_end"
                ? ` culprits [${(m.culprit_pr_numbers as number[]).join(",")}]`
                : e.type === "action.queue.checks.change"
                  ? ` ${m.running_checks}`
                  : e.type === "action.queue.change"
                    ? ` size ${m.size}`
                    : "";
        return `log ${e.type}${who}${batch}${detail}`;
      }
    }
  });
}

/** Effect kinds and log types that tell the queue's story (labels, comments and summaries left out). */
export const STORY = [
  "create_speculative_check",
  "start_in_place_check",
  "cancel_speculative_check",
  "merge_batch",
  "rerun_checks",
  "close_pull_request",
  "schedule_timer",
  "cancel_timer",
  "action.queue.checks_start",
  "action.queue.checks_end",
  "action.queue.leave",
  "action.queue.merged",
  "action.queue.batch_bisection_start",
  "action.queue.batch_bisection_end",
  "action.dequeue",
  "action.queue.conflict_deferred",
  "action.queue.checks_postponed",
];

/** A pause (with its reason) or an unpause. */
export const pauseEvent = (reason = "release freeze") => ({ type: "pause" as const, reason });
export const unpauseEvent = () => ({ type: "unpause" as const });
