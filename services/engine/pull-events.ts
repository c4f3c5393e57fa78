/**
 * Pull request events (docs/domain.md §3.2, §3.6): entering the queue (with priority
 * interruption), re-queueing, pushes outside the queue, closing, a new base branch, merges outside
 * the queue and queue conditions turning false.
 */
import { ensureBase } from "./base.js";
import { abandonBisections } from "./bisection-end.js";
import { cancelBatches, withDescendants } from "./batches.js";
import { DEFAULT_PARTITION } from "./config.js";
import type { Ctx } from "./context.js";
import { EngineInputError, type EventOf } from "./events.js";
import { leaveQueue } from "./leave.js";
import { logEnter, logQueueChange } from "./log-events.js";
import { effectivePriority, orderedTrainPulls } from "./order.js";
import type { PullEntry } from "./state.js";

const sameSet = (a: readonly (string | number)[], b: readonly (string | number)[]) =>
  a.length === b.length && a.every((x) => b.includes(x));

function partitionsOf(ctx: Ctx, requested: string[]): string[] {
  const configured = ctx.state.config.partitions;
  if (configured.length === 0) return [DEFAULT_PARTITION];
  requested.forEach((name, i) => {
    if (!configured.includes(name))
      throw new EngineInputError(
        `pull.partitions.${i}`,
        `unknown partition "${name}"; configured: ${configured.join(", ")}`,
      );
  });
  return requested.length ? [...new Set(requested)] : [...configured];
}

/**
 * A higher-priority pull request whose priority rule allows interrupting checks cancels the first
 * batch (and those on top of it) that holds a lower-priority pull request and has not passed yet;
 * bisection sub-batches are not interrupted.
 */
function interrupt(ctx: Ctx, pull: PullEntry): void {
  if (!pull.allowChecksInterruption) return;
  const mine = effectivePriority(ctx, pull);
  for (const train of ctx.trainsOf(pull.number)) {
    const victim = train.batches.find(
      (c) =>
        !c.merging &&
        c.bisectionId === null &&
        c.check?.phase !== "passed" &&
        c.members.some((m) => effectivePriority(ctx, ctx.mustPull(m)) < mine),
    );
    if (victim)
      abandonBisections(
        ctx,
        train,
        cancelBatches(ctx, train, withDescendants(train, victim), "PR_WITH_HIGHER_PRIORITY_QUEUED"),
      );
  }
}

/** pull_request_queued: enters the queue; the same rule and priority again is a no-op, a different one re-queues. */
export function onQueued(ctx: Ctx, event: EventOf<"pull_request_queued">): void {
  const input = event.pull;
  if (!ctx.rule(input.queueRule)) {
    throw new EngineInputError(
      "pull.queueRule",
      `unknown queue rule "${input.queueRule}"; configured: ${ctx.state.config.queueRules.map((r) => r.name).join(", ") || "none"}`,
    );
  }
  const partitions = partitionsOf(ctx, input.partitions);
  const existing = ctx.pull(input.number);
  if (existing) {
    const same =
      existing.queueRule === input.queueRule &&
      existing.priority === input.priority &&
      existing.baseRef === input.baseRef &&
      sameSet(existing.partitions, partitions) &&
      sameSet(existing.scopes, input.scopes) &&
      existing.allScopes === input.allScopes &&
      sameSet(existing.dependsOn, input.dependsOn);
    if (same) {
      Object.assign(existing, {
        title: input.title,
        url: input.url,
        labels: input.labels,
        hostLabels: input.hostLabels,
        author: input.author,
        priorityRuleName: input.priorityRuleName,
        protectionsHold: input.protectionsHold,
        risk: input.risk,
      });
      return;
    }
    leaveQueue(ctx, input.number, "PR_DEQUEUED", {
      trigger: event.trigger,
      cascade: false,
      reason: "The pull request was queued again with a different queue rule, priority, base, scopes or partitions",
    });
  }
  ensureBase(ctx, input.baseRef, input.baseSha);
  const pull: PullEntry = {
    number: input.number,
    title: input.title,
    url: input.url,
    author: input.author,
    labels: input.labels,
    hostLabels: input.hostLabels,
    headSha: input.headSha,
    baseRef: input.baseRef,
    queueRule: input.queueRule,
    priority: input.priority,
    priorityRuleName: input.priorityRuleName,
    allowChecksInterruption: input.allowChecksInterruption,
    scopes: [...new Set(input.scopes)].sort(),
    allScopes: input.allScopes,
    partitions,
    dependsOn: input.dependsOn.filter((n) => n !== input.number),
    queuedAt: ctx.now,
    readySince: ctx.now,
    seq: ++ctx.state.counters.pull,
    sessionId: ctx.nextSession(),
    trigger: event.trigger,
    conflictBlockers: null,
    creationFailures: 0,
    previousBatch: null,
    lastChecks: [],
    lastEvaluation: null,
    pendingHeadSha: null,
    protectionsHold: input.protectionsHold,
    risk: input.risk,
  };
  ctx.state.pulls[String(pull.number)] = pull;
  for (const p of partitions) ctx.train(pull.baseRef, p).waiting.push(pull.number);
  const cfg = ctx.state.config;
  logEnter(ctx, pull);
  if (cfg.queuedLabel) ctx.emit({ kind: "add_labels", number: pull.number, labels: [cfg.queuedLabel] });
  // Only a label it carries (as last read) is removed: removing an absent one is a request for nothing.
  const dequeued = cfg.dequeuedLabel?.toLowerCase();
  if (dequeued && pull.labels.some((l) => l.toLowerCase() === dequeued))
    ctx.emit({ kind: "remove_labels", number: pull.number, labels: [cfg.dequeuedLabel!] });
  const position = orderedTrainPulls(ctx, ctx.train(pull.baseRef, partitions[0]!)).indexOf(pull.number);
  ctx.emit({
    kind: "post_summary_check",
    number: pull.number,
    headSha: pull.headSha,
    conclusion: null,
    title: `Queued in ${pull.queueRule} at position ${position}`,
    summary: `The pull request is queued for ${pull.baseRef} (queue rule \`${pull.queueRule}\`).`,
    first: true,
  });
  if (cfg.statusComments === "all")
    ctx.emit({
      kind: "comment",
      number: pull.number,
      body: `Queued in \`${pull.queueRule}\` for \`${pull.baseRef}\` at position ${position}.`,
    });
  logQueueChange(ctx, pull, event.trigger);
  interrupt(ctx, pull);
}

/** pull_request_updated: a push outside the queue (PULL_REQUEST_UPDATED); the queue's own in-place update is expected. */
export function onUpdated(ctx: Ctx, number: number, headSha: string): void {
  const pull = ctx.pull(number);
  if (!pull || pull.headSha === headSha) return;
  const updating = ctx
    .trainsOf(number)
    .some((t) =>
      t.batches.some((c) => c.members.includes(number) && c.check?.mode === "in_place" && c.check.phase === "creating"),
    );
  if (updating) {
    pull.pendingHeadSha = headSha;
    return;
  }
  leaveQueue(ctx, number, "PULL_REQUEST_UPDATED");
}

/** pull_request_closed: leaves (PR_DEQUEUED). */
export function onClosed(ctx: Ctx, number: number): void {
  leaveQueue(ctx, number, "PR_DEQUEUED", { reason: "The pull request was closed" });
}

/** pull_request_base_changed: a queued pull request now targets another branch; it leaves (BASE_BRANCH_CHANGED). */
export function onBaseChanged(ctx: Ctx, number: number, baseRef: string): void {
  const pull = ctx.pull(number);
  if (!pull || pull.baseRef === baseRef) return;
  leaveQueue(ctx, number, "BASE_BRANCH_CHANGED", {
    reason: `The base branch of the pull request changed from ${pull.baseRef} to ${baseRef}`,
  });
}

/** pull_request_merged_externally: leaves (PR_MANUALLY_MERGED); the base move arrives separately. */
export function onMergedExternally(ctx: Ctx, number: number): void {
  leaveQueue(ctx, number, "PR_MANUALLY_MERGED");
}

/** queue_conditions_evaluated: definitively false leaves (PR_DEQUEUED); "pending" stays. */
export function onQueueConditions(ctx: Ctx, event: EventOf<"queue_conditions_evaluated">): void {
  const pull = ctx.pull(event.number);
  if (pull && event.labels) pull.labels = [...event.labels];
  if (pull && event.hostLabels) pull.hostLabels = event.hostLabels.map((l) => ({ ...l }));
  if (pull && event.evaluation) pull.lastEvaluation = event.evaluation;
  if (event.result === false) leaveQueue(ctx, event.number, "PR_DEQUEUED");
}
