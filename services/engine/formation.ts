/**
 * Batch formation (research/domain.md §3.3). While the train holds fewer than max_parallel_checks
 * batches and nothing waits for a slot, the next batch is taken from the waiting pull requests in
 * queue order: a seed and the following pull requests of the same queue rule and effective
 * priority (in parallel and isolated modes, also the same scope set; a pull request touching every
 * scope goes alone). Stacked pull requests (`Depends-On`) join only after their queued
 * predecessors. Size: `batch_size` when fixed; for a `{min, max}` range, the waiting pull
 * requests of the rule spread over the free slots, clamped to the range. A batch smaller than its
 * size waits until `batch_max_wait_time` after its oldest member became ready (entering, or
 * already earlier for a re-embarked one). Nothing is embarked on top of a failed batch, on
 * pause, or while a conflict is deferred behind pull requests still queued.
 */
import { ancestorsFor, addCar, laneScopes, scopesOverlap } from "./cars.js";
import type { Ctx } from "./context.js";
import { effectivePriority, orderedWaiting } from "./order.js";
import type { PullEntry, Train } from "./state.js";

const laneKey = (p: PullEntry) => (p.allScopes ? "*" : [...laneScopes(p.scopes)].sort().join("\u0000"));

/** Waiting pull requests that may be embarked now, in queue order. */
function eligible(ctx: Ctx, train: Train): PullEntry[] {
  const mode = ctx.state.config.mode;
  const failed = train.cars.filter((c) => c.check?.phase === "failed");
  return orderedWaiting(ctx, train).filter((p) => {
    if (!ctx.rule(p.queueRule)) return false;
    if (p.conflictBlockers?.some((n) => ctx.pull(n))) return false;
    if (mode === "serial" && failed.length > 0) return false;
    if (mode === "parallel" && failed.some((c) => scopesOverlap(c, p))) return false;
    return true;
  });
}

/** Pull requests of the seed's group that can go in one batch, stacks respected, at most `size`. */
function take(ctx: Ctx, train: Train, group: PullEntry[], size: number): PullEntry[] {
  const embarked = new Set(train.cars.flatMap((c) => c.members));
  const taken: PullEntry[] = [];
  for (const p of group) {
    if (taken.length >= size) break;
    // A predecessor still waiting (or held) in this train must be embarked first.
    const blocked = (n: number) => ctx.pull(n) !== undefined && !embarked.has(n) && !taken.some((t) => t.number === n) && ctx.trainsOf(n).includes(train);
    if (!p.dependsOn.some(blocked)) taken.push(p);
  }
  return taken;
}

/** Forms new batches from the waiting pull requests. Returns true when a batch was formed. */
export function formCars(ctx: Ctx, train: Train): boolean {
  train.forming = null;
  if (ctx.state.pause) return false;
  const cfg = ctx.state.config;
  let changed = false;
  for (;;) {
    const free = cfg.maxParallelChecks - train.cars.length;
    if (free <= 0 || train.cars.some((c) => !c.check)) break;
    const candidates = eligible(ctx, train);
    const seed = candidates[0];
    if (!seed) break;
    const rule = ctx.mustRule(seed.queueRule);
    const mode = cfg.mode;
    const priority = effectivePriority(ctx, seed);
    const group = seed.allScopes ? [seed] : candidates.filter((p) => p.queueRule === seed.queueRule && effectivePriority(ctx, p) === priority
      && !p.allScopes && (mode === "serial" || laneKey(p) === laneKey(seed)));
    const { min, max } = rule.batchSize;
    const size = seed.allScopes ? 1 : min === max ? max : Math.min(max, Math.max(min, Math.ceil(group.length / free)));
    const members = take(ctx, train, group, size);
    if (members.length === 0) break;
    if (members.length < size) {
      const deadline = Math.min(...members.map((p) => p.readySince)) + rule.batchMaxWaitTime * 1000;
      if (ctx.now < deadline) { train.forming = { members: members.map((p) => p.number), size, startsAt: deadline }; break; }
    }
    const scopes = [...new Set(members.flatMap((p) => p.scopes))].sort();
    const allScopes = members.some((p) => p.allScopes);
    addCar(ctx, train, {
      queueRule: seed.queueRule, members: members.map((p) => p.number), ancestors: ancestorsFor(ctx, train, { scopes, allScopes }),
      scopes, allScopes, bisectionId: null, depth: 0,
    });
    const ids = new Set(members.map((p) => p.number));
    train.waiting = train.waiting.filter((n) => !ids.has(n));
    changed = true;
  }
  return changed;
}
