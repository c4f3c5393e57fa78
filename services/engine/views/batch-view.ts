/**
 * Batches as the status view shows them (docs/api.md "Merge queue status" Batch, docs/merge-queue.md
 * "Batch states"). Status codes: waiting_for_batch (filling), waiting_for_checks_slot, preparing
 * (draft being created), running, bisecting (a failed batch whose sub-batches are checked),
 * waiting_for_previous_batches (failed, waiting for the batches it is checked on top of),
 * waiting_for_merge (passed, waiting for the batches ahead or for its merge), waiting_schedule (its
 * checks passed, a schedule in the merge conditions is closed), frozen (a scheduled freeze holds
 * its merge, before or after its checks passed: docs/scheduled-freeze.md), failed (being
 * resolved). Merged batches leave the state, so `merged` is never shown live.
 */
import { DEFAULT_SCOPE, laneScopes } from "../batches.js";
import type { Ctx } from "../context.js";
import { deterministicUuid } from "../ids.js";
import { priorityAlias } from "../order.js";
import { checksTimeoutAt } from "../outcomes.js";
import type { Bisection, Batch, QueueCheck, Train } from "../state.js";
import { ciFinishAt } from "./estimates.js";

/** Batch status codes (docs/merge-queue.md "Batch states and transitions"). */
export type BatchStatusCode =
  | "waiting_for_batch"
  | "waiting_for_checks_slot"
  | "preparing"
  | "running"
  | "bisecting"
  | "waiting_for_previous_batches"
  | "waiting_for_merge"
  | "waiting_schedule"
  | "frozen"
  | "merged"
  | "failed";

/**
 * A pull request in a batch or in the waiting list (docs/api.md "Merge queue status",
 * BatchPullRequest). Times: epoch ms.
 */
export interface BatchPullRequestView {
  number: number;
  title: string;
  url: string;
  author: { id: number; login: string };
  queuedAt: number;
  priorityAlias: string;
  priorityRuleName: string | null;
  labels: string[];
  hostLabels: { id: number; name: string; color: string; default: boolean }[];
  scopes: string[];
  /** Touches every scope: checked alone (barrier). */
  allScopes: boolean;
  /** Why merge protections hold it (docs/merge-protections.md "The queue"); null when they do not. */
  protectionsHold: string | null;
}

/** A batch (docs/api.md "Merge queue status", Batch). Times are epoch ms UTC, null when unknown. */
export interface BatchView {
  id: string;
  parentIds: string[];
  name: string;
  status: { code: BatchStatusCode };
  branch: string;
  partition: string;
  startedAt: number | null;
  estimatedMergeAt: number | null;
  estimatedCiFinishAt: number | null;
  ciFinishedAt: number | null;
  scopes: string[];
  queueRuleName: string;
  checksSummary: { passed: number; total: number };
  /** The checks of its current check; on a bisecting batch, those of the check that failed. */
  checks: QueueCheck[];
  pullRequests: BatchPullRequestView[];
  /** Present (non-empty) on a batch being bisected: its prefixes. */
  subBatches: BatchView[];
  /** The check's pull request (draft, or the pull request itself in place); null before creation. */
  checkPullRequestNumber: number | null;
  checkType: "in_place" | "draft_pr" | null;
  checksTimeoutAt: number | null;
  /** Filling batch only: members so far, size, and when it starts anyway. */
  batchFilledSlots: number | null;
  maxBatchSlots: number | null;
  batchMaxStartAt: number | null;
}

const PASSING = new Set<QueueCheck["state"]>(["success", "neutral", "skipped"]);

/** How many of `checks` passed (success, neutral, skipped), out of how many. */
const summaryOf = (checks: QueueCheck[]) => ({
  passed: checks.filter((c) => PASSING.has(c.state)).length,
  total: checks.length,
});

/** Status code of a live batch. */
export function batchStatus(train: Train, batch: Batch): BatchStatusCode {
  const check = batch.check;
  if (!check) return "waiting_for_checks_slot";
  if (check.phase === "creating") return "preparing";
  const held = (check.scheduleHeldUntil ?? null) !== null;
  if (held && check.scheduleHeldBy === "freeze") return "frozen";
  if (check.phase === "running") return held ? "waiting_schedule" : "running";
  if (check.phase === "passed") return "waiting_for_merge";
  const ahead = train.batches.filter((c) => batch.ancestors.includes(c.id));
  return ahead.every((a) => a.check?.phase === "passed") ? "failed" : "waiting_for_previous_batches";
}

/** The queue view of a pull request. */
export function pullRequestView(ctx: Ctx, number: number): BatchPullRequestView | null {
  const p = ctx.pull(number);
  if (!p) return null;
  return {
    number,
    title: p.title,
    url: p.url,
    author: { ...p.author },
    queuedAt: p.queuedAt,
    priorityAlias: priorityAlias(p.priority),
    priorityRuleName: p.priorityRuleName,
    labels: [...p.labels],
    hostLabels: (p.hostLabels ?? []).map((l) => ({ ...l })),
    scopes: [...p.scopes],
    allScopes: p.allScopes,
    protectionsHold: p.protectionsHold ?? null,
  };
}

const views = (ctx: Ctx, numbers: number[]) =>
  numbers.map((n) => pullRequestView(ctx, n)).filter((v): v is BatchPullRequestView => v !== null);

/** View of a live batch. */
export function batchView(ctx: Ctx, train: Train, batch: Batch, mergeAt: number | null): BatchView {
  const check = batch.check;
  return {
    id: batch.id,
    parentIds: [...batch.ancestors],
    name: batch.name,
    status: { code: batchStatus(train, batch) },
    branch: train.branch,
    partition: train.partition,
    startedAt: check?.startedAt ?? null,
    estimatedMergeAt: mergeAt,
    estimatedCiFinishAt: ciFinishAt(ctx, batch),
    ciFinishedAt: check?.endedAt ?? null,
    scopes: [...batch.scopes],
    queueRuleName: batch.queueRule,
    checksSummary: summaryOf(check?.checks ?? []),
    checks: (check?.checks ?? []).map((c) => ({ ...c })),
    pullRequests: views(ctx, batch.members),
    subBatches: [],
    checkPullRequestNumber: check?.number ?? null,
    checkType: check ? (check.mode === "in_place" ? "in_place" : "draft_pr") : null,
    checksTimeoutAt: checksTimeoutAt(ctx, batch),
    batchFilledSlots: null,
    maxBatchSlots: null,
    batchMaxStartAt: null,
  };
}

/** View of a bisection: the failed batch, status bisecting, its sub-batches (nested bisections inside). */
export function bisectionView(ctx: Ctx, train: Train, b: Bisection, mergeAt: Map<string, number | null>): BatchView {
  const subs: BatchView[] = [];
  for (const id of b.subBatchIds) {
    const batch = train.batches.find((c) => c.id === id);
    if (batch) {
      subs.push(batchView(ctx, train, batch, mergeAt.get(batch.id) ?? null));
      continue;
    }
    const child = train.bisections.find((x) => x.id === id);
    if (child) subs.push(bisectionView(ctx, train, child, mergeAt));
  }
  const ends = subs.map((s) => s.estimatedMergeAt);
  return {
    id: b.id,
    parentIds: [...b.ancestors],
    name: b.name,
    status: { code: "bisecting" },
    branch: train.branch,
    partition: train.partition,
    startedAt: b.startedAt,
    estimatedMergeAt: ends.length && ends.every((e) => e !== null) ? Math.max(...(ends as number[])) : null,
    estimatedCiFinishAt: null,
    ciFinishedAt: null,
    scopes: [...b.scopes],
    queueRuleName: b.queueRule,
    checksSummary: summaryOf(b.failedChecks ?? []),
    checks: (b.failedChecks ?? []).map((c) => ({ ...c })),
    pullRequests: views(ctx, b.members),
    subBatches: subs,
    checkPullRequestNumber: b.checkPullRequest,
    checkType: "draft_pr",
    checksTimeoutAt: null,
    batchFilledSlots: null,
    maxBatchSlots: null,
    batchMaxStartAt: null,
  };
}

/** View of the batch filling in a train (`waiting_for_batch`); `offset` numbers the ids of several. */
export function formingView(ctx: Ctx, train: Train, offset: number): BatchView | null {
  const f = train.forming;
  if (!f) return null;
  const first = ctx.pull(f.members[0]!);
  const c = ctx.state.counters;
  return {
    id: deterministicUuid(ctx.state.repository, "batch", c.batch + 1 + offset),
    parentIds: [],
    name: `Batch ${(c.named ?? c.batch) + 1 + offset}`,
    status: { code: "waiting_for_batch" },
    branch: train.branch,
    partition: train.partition,
    startedAt: null,
    estimatedMergeAt: null,
    estimatedCiFinishAt: null,
    ciFinishedAt: null,
    scopes: [...new Set(f.members.flatMap((n) => ctx.pull(n)?.scopes ?? []))].sort(),
    queueRuleName: first?.queueRule ?? "",
    checksSummary: { passed: 0, total: 0 },
    checks: [],
    pullRequests: views(ctx, f.members),
    subBatches: [],
    checkPullRequestNumber: null,
    checkType: null,
    checksTimeoutAt: null,
    batchFilledSlots: f.members.length,
    maxBatchSlots: f.size,
    batchMaxStartAt: f.startsAt,
  };
}

/** Lanes of a batch in `scope_queues`. */
export function lanesOf(view: BatchView): string[] {
  return view.scopes.length ? laneScopes(view.scopes) : [DEFAULT_SCOPE];
}
