/**
 * Repository-level events: pause / unpause (docs/domain.md §3.7), manual dequeue (§3.6) and
 * configuration changes (§3.6: QUEUE_RULE_MISSING, SPECULATIVE_CHECK_NUMBER_REDUCED,
 * CONFIGURATION_CHANGED; a new mode or partition set re-embarks batches with BATCH_SCOPES_CHANGED).
 */
import { abandonBisections } from "./bisection-end.js";
import { cancelBatches, withDescendants } from "./batches.js";
import { DEFAULT_PARTITION, projectConfiguration, type ConfigurationInput, type EngineConfig } from "./config.js";
import type { Ctx } from "./context.js";
import { EngineInputError, type EventOf } from "./events.js";
import { leaveQueue } from "./leave.js";
import { logDequeue } from "./log-events.js";
import type { Batch, Train } from "./state.js";

/** The pull request named by a dequeue is in no merge queue (the API answers 404). */
export class NotQueuedError extends EngineInputError {
  override readonly errorKind = "not_found";
  constructor(number: number) {
    super("number", `pull request #${number} is not in any merge queue`);
  }
}

/**
 * pause: no new checks, no merges; draft checks not yet concluded stop (with the batches checked
 * on top of them) and their pull requests stay queued; in-place checks keep running. The pause
 * endpoints log queue.pause.* themselves (docs/pause.md); the engine logs the stopped checks.
 */
export function onPause(ctx: Ctx, event: EventOf<"pause">): void {
  const was = ctx.state.pause;
  // The pause's own time (the endpoint's, docs/pause.md), so the status and the pause route agree.
  ctx.state.pause = { reason: event.reason, pausedAt: was?.pausedAt ?? event.pausedAt ?? ctx.now };
  if (was) return;
  for (const train of ctx.state.trains) {
    const first = train.batches.find(
      (c) => c.check?.mode === "draft" && (c.check.phase === "creating" || c.check.phase === "running"),
    );
    if (!first) continue;
    const stopped = train.batches
      .filter((c) => c.check?.mode === "draft" && (c.check.phase === "creating" || c.check.phase === "running"))
      .flatMap((c) => withDescendants(train, c));
    abandonBisections(
      ctx,
      train,
      cancelBatches(ctx, train, [...new Set(stopped)], "PR_CHECKS_STOPPED_BECAUSE_MERGE_QUEUE_PAUSE"),
    );
  }
}

/** unpause: checks and merges resume (a no-op when not paused). */
export function onUnpause(ctx: Ctx): void {
  ctx.state.pause = null;
}

/**
 * dequeue_requested: action.dequeue, then the pull request leaves with PR_MANUALLY_DEQUEUED; its
 * stacked successors leave too and the batches from its position on are re-embarked.
 * @throws NotQueuedError when it is in no merge queue.
 */
export function onDequeue(ctx: Ctx, event: EventOf<"dequeue_requested">): void {
  const pull = ctx.pull(event.number);
  if (!pull) throw new NotQueuedError(event.number);
  logDequeue(ctx, pull, event.trigger);
  leaveQueue(ctx, event.number, "PR_MANUALLY_DEQUEUED", { trigger: event.trigger });
}

function validate(config: EngineConfig): void {
  const names = new Set<string>();
  config.queueRules.forEach((r, i) => {
    const at = `config.queue_rules.${i}`;
    if (!r.name) throw new EngineInputError(`${at}.name`, "a queue rule needs a name");
    if (names.has(r.name)) throw new EngineInputError(`${at}.name`, `duplicate queue rule name "${r.name}"`);
    names.add(r.name);
    const { min, max } = r.batchSize;
    if (!(Number.isInteger(min) && Number.isInteger(max) && min >= 1 && max <= 128 && min <= max)) {
      throw new EngineInputError(
        `${at}.batch_size`,
        "must be an integer 1-128, or {min, max} with 1 <= min <= max <= 128",
      );
    }
    if (!(r.batchMaxWaitTime >= 0))
      throw new EngineInputError(`${at}.batch_max_wait_time`, "must be a non-negative number of seconds");
    if (!(Number.isInteger(r.maxChecksRetries) && r.maxChecksRetries >= 0))
      throw new EngineInputError(`${at}.max_checks_retries`, "must be an integer >= 0");
  });
  if (
    !(Number.isInteger(config.maxParallelChecks) && config.maxParallelChecks >= 1 && config.maxParallelChecks <= 128)
  ) {
    throw new EngineInputError("config.merge_queue.max_parallel_checks", "must be an integer 1-128");
  }
}

function dissolveTrain(
  ctx: Ctx,
  train: Train,
  batches: Batch[],
  code: "BATCH_SCOPES_CHANGED" | "SPECULATIVE_CHECK_NUMBER_REDUCED",
): void {
  abandonBisections(
    ctx,
    train,
    cancelBatches(
      ctx,
      train,
      batches.filter((c) => !c.merging),
      code,
    ),
  );
}

/** configuration_changed: applies the new configuration and settles what it invalidates. */
export function onConfigurationChanged(ctx: Ctx, input: ConfigurationInput): void {
  const next = projectConfiguration(input);
  validate(next);
  const old = ctx.state.config;
  ctx.state.config = next;
  const missing = Object.values(ctx.state.pulls)
    .filter((p) => !ctx.rule(p.queueRule))
    .map((p) => p.number);
  leaveQueue(ctx, missing, "QUEUE_RULE_MISSING");

  const allowed = next.partitions.length ? next.partitions : [DEFAULT_PARTITION];
  for (const train of ctx.state.trains.filter((t) => !allowed.includes(t.partition))) {
    // The leave of a pull request that had no other partition names the batch it was in here.
    const from = new Map(train.batches.flatMap((c) => c.members.map((m) => [m, { ...c }] as const)));
    dissolveTrain(ctx, train, [...train.batches], "BATCH_SCOPES_CHANGED");
    const orphans: number[] = [];
    for (const n of [...train.waiting]) {
      const pull = ctx.mustPull(n);
      pull.partitions = pull.partitions.filter((p) => p !== train.partition);
      if (pull.partitions.length === 0) orphans.push(n);
      else train.waiting = train.waiting.filter((x) => x !== n);
    }
    leaveQueue(ctx, orphans, "PR_DEQUEUED_FROM_PARTITION", { from });
    if (train.batches.length === 0) ctx.state.trains = ctx.state.trains.filter((t) => t !== train);
  }

  if (old.mode !== next.mode)
    for (const train of ctx.state.trains) dissolveTrain(ctx, train, [...train.batches], "BATCH_SCOPES_CHANGED");

  const changedRules = new Set(
    next.queueRules
      .filter((r) => {
        const before = old.queueRules.find((o) => o.name === r.name);
        return before !== undefined && before.checkFingerprint !== r.checkFingerprint;
      })
      .map((r) => r.name),
  );
  const invalidated = ctx.state.trains
    .flatMap((t) => t.batches)
    .filter((c) => c.check && changedRules.has(c.queueRule))
    .flatMap((c) => c.members);
  leaveQueue(ctx, invalidated, "CONFIGURATION_CHANGED");

  if (next.maxParallelChecks < old.maxParallelChecks) {
    for (const train of ctx.state.trains) {
      const extra = train.batches.filter((c) => c.check && c.bisectionId === null).slice(next.maxParallelChecks);
      if (extra.length)
        dissolveTrain(
          ctx,
          train,
          [...new Set(extra.flatMap((c) => withDescendants(train, c)))],
          "SPECULATIVE_CHECK_NUMBER_REDUCED",
        );
    }
  }
}
