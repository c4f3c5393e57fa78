/**
 * Batch formation (docs/domain.md §3.3). While the train holds fewer than max_parallel_checks
 * batches (bisection sub-batches aside) and none waits for a slot, the next batch is taken from the waiting pull requests in
 * queue order: a seed and the following pull requests of the same queue rule and effective
 * priority (in parallel and isolated modes, also the same scope set; a pull request touching every
 * scope goes alone). Stacked pull requests (`Depends-On`) join only after their queued
 * predecessors (pulled into the batch when needed). Size: `batch_size` when fixed; for a `{min, max}` range, the waiting pull
 * requests of the rule spread over the free slots, clamped to the range. A batch smaller than its
 * size waits until `batch_max_wait_time` after its oldest member became ready (entering, or
 * already earlier for a re-embarked one). Nothing is embarked on pause, in the lanes of a failed
 * batch that a later one may still vindicate (skip_intermediate_results), while a conflict is
 * deferred behind pull requests still queued, for a pull request that gave way to its closed
 * merge schedule, before that schedule opens (schedule-yield.ts), or while merge protections hold
 * it (holds.ts). With the queue rule's `risk_aware_batching`, a risky pull request (risk.ts) ends
 * its batch: as the seed it is checked alone, otherwise it is the batch's last member and the
 * batch starts without waiting to fill (queue order is kept).
 */
import { ancestorsFor, addBatch, laneScopes, scopesOverlap } from "./batches.js";
import type { Ctx } from "./context.js";
import { effectivePriority, orderedWaiting } from "./order.js";
import { endsBatch } from "./risk.js";
import type { PullEntry, Train } from "./state.js";
import { endYield } from "./yield-wait.js";

const laneKey = (p: PullEntry) => (p.allScopes ? "*" : [...laneScopes(p.scopes)].sort().join("\u0000"));

/** Waiting pull requests that may be embarked now, in queue order. */
function eligible(ctx: Ctx, train: Train): PullEntry[] {
  const mode = ctx.state.config.mode;
  // A failed batch waiting for a later one to vindicate it (skip_intermediate_results) blocks its lanes.
  const failed = ctx.state.config.skipIntermediateResults
    ? train.batches.filter((c) => c.check?.phase === "failed")
    : [];
  return orderedWaiting(ctx, train).filter((p) => {
    if (!ctx.rule(p.queueRule)) return false;
    if (p.conflictBlockers?.some((n) => ctx.pull(n))) return false;
    if ((p.scheduleYieldUntil ?? 0) > ctx.now) return false; // gave way to a closed schedule (schedule-yield.ts)
    if ((p.protectionsHold ?? null) !== null) return false; // merge protections hold it (holds.ts)
    if (mode === "serial" && failed.length > 0) return false;
    if (mode === "parallel" && failed.some((c) => scopesOverlap(c, p))) return false;
    return true;
  });
}

/**
 * The seed's stack: its predecessors still waiting in this train (transitively, oldest first) then
 * itself, or null when one of them cannot join it (other queue rule, or not eligible now).
 */
function stackOf(
  ctx: Ctx,
  train: Train,
  seed: PullEntry,
  eligibleNow: Set<number>,
  embarked: Set<number>,
): PullEntry[] | null {
  const inOtherBatch = (n: number) => train.batches.some((c) => c.members.includes(n)) && !embarked.has(n);
  const chain: PullEntry[] = [];
  const visit = (p: PullEntry, depth: number): boolean => {
    if (depth > 64) return false;
    for (const n of p.dependsOn) {
      const pred = ctx.pull(n);
      if (!pred || embarked.has(n) || chain.some((c) => c.number === n) || !ctx.trainsOf(n).includes(train)) continue;
      if (inOtherBatch(n) || !eligibleNow.has(n) || pred.queueRule !== seed.queueRule || !visit(pred, depth + 1))
        return false;
    }
    if (!chain.some((c) => c.number === p.number)) chain.push(p);
    return true;
  };
  return visit(seed, 0) ? chain : null;
}

/** What a new batch is filled from: its first members (the seed's stack), then its group, at most `size`. */
interface Filling {
  first: PullEntry[];
  group: PullEntry[];
  size: number;
  /** The pull requests in the batches the new one is checked on top of. */
  embarked: Set<number>;
  /** A risky group member (risk-aware batching): the batch closes after it. */
  risky: (p: PullEntry) => boolean;
}

/**
 * Fills a batch after `first`: group members whose stack is already embarked or taken, at most
 * `size` in all. `closed`: it stopped after a risky member (the batch does not wait to fill).
 */
function fill(ctx: Ctx, train: Train, { first, group, size, embarked, risky }: Filling) {
  const taken = first.slice(0, size);
  for (const p of group) {
    if (taken.length >= size) break;
    if (taken.some((t) => t.number === p.number)) continue;
    const blocked = (n: number) =>
      ctx.pull(n) !== undefined &&
      !embarked.has(n) &&
      !taken.some((t) => t.number === n) &&
      ctx.trainsOf(n).includes(train);
    if (p.dependsOn.some(blocked)) continue;
    taken.push(p);
    if (risky(p)) return { taken, closed: true };
  }
  return { taken, closed: false };
}

/** Forms new batches from the waiting pull requests. Returns true when a batch was formed. */
export function formBatches(ctx: Ctx, train: Train): boolean {
  train.forming = null;
  if (ctx.state.pause) return false;
  const cfg = ctx.state.config;
  let changed = false;
  for (;;) {
    const mainline = train.batches.filter((c) => c.bisectionId === null);
    const free = cfg.maxParallelChecks - mainline.length;
    // A batch waiting for a slot comes first: nothing new in its lane (in serial mode, at all).
    const stalled = mainline.filter((c) => !c.check);
    if (free <= 0 || (cfg.mode === "serial" && stalled.length > 0)) break;
    const candidates = eligible(ctx, train).filter((p) => !stalled.some((c) => scopesOverlap(c, p)));
    const eligibleNow = new Set(candidates.map((p) => p.number));
    // Predecessors count as embarked only in batches the new one is checked on top of.
    const embarkedFor = (p: PullEntry) =>
      new Set(train.batches.filter((c) => ancestorsFor(ctx, train, p).includes(c.id)).flatMap((c) => c.members));
    let seed: PullEntry | undefined;
    let stack: PullEntry[] = [];
    let embarked = new Set<number>();
    for (const c of candidates) {
      embarked = embarkedFor(c);
      const chain = stackOf(ctx, train, c, eligibleNow, embarked);
      if (chain) {
        seed = c;
        stack = chain;
        break;
      }
    }
    if (!seed) break;
    const rule = ctx.mustRule(seed.queueRule);
    const mode = cfg.mode;
    const priority = effectivePriority(ctx, seed);
    const group = seed.allScopes
      ? [seed]
      : candidates.filter(
          (p) =>
            p.queueRule === seed.queueRule &&
            effectivePriority(ctx, p) === priority &&
            !p.allScopes &&
            (mode === "serial" || laneKey(p) === laneKey(seed)),
        );
    const { min, max } = rule.batchSize;
    // Risk-aware batching: a risky pull request ends its batch (alone when it is the seed).
    const risky = (p: PullEntry) => endsBatch(rule, p.risk);
    const size =
      seed.allScopes || risky(seed)
        ? 1
        : min === max
          ? max
          : Math.min(max, Math.max(min, Math.ceil(group.length / free)));
    const { taken: members, closed } = fill(ctx, train, { first: stack, group, size, embarked, risky });
    if (members.length < size && !closed) {
      const deadline = Math.min(...members.map((p) => p.readySince)) + rule.batchMaxWaitTime * 1000;
      if (ctx.now < deadline) {
        train.forming = { members: members.map((p) => p.number), size, startsAt: deadline };
        break;
      }
    }
    const scopes = [...new Set(members.flatMap((p) => p.scopes))].sort();
    const allScopes = members.some((p) => p.allScopes);
    addBatch(ctx, train, {
      queueRule: seed.queueRule,
      members: members.map((p) => p.number),
      ancestors: ancestorsFor(ctx, train, { scopes, allScopes }),
      scopes,
      allScopes,
      bisectionId: null,
      depth: 0,
    });
    for (const p of members) endYield(p, ctx.now);
    const ids = new Set(members.map((p) => p.number));
    train.waiting = train.waiting.filter((n) => !ids.has(n));
    changed = true;
  }
  return changed;
}
