/**
 * Ending bisections (docs/domain.md §3.5): settling a bisection tree's sub-batches (passed ones
 * merge from there when they still can, the others are stopped and their pull requests
 * re-embarked), ending a bisection with every enclosing one, and abandoning bisections without a
 * verdict when their pull requests leave or the base moves. The verdicts themselves are
 * bisection.ts's.
 */
import { cancelBatches } from "./batches.js";
import type { Ctx } from "./context.js";
import { isExactTree } from "./exact-tree.js";
import { logBisectionEnd } from "./log-events.js";
import type { Bisection, Batch, Train } from "./state.js";

export const rootOf = (train: Train, b: Bisection): Bisection => train.bisections.find((x) => x.id === b.rootId) ?? b;
export const inTree = (train: Train, batch: Batch, rootId: string) =>
  batch.bisectionId !== null && train.bisections.find((x) => x.id === batch.bisectionId)?.rootId === rootId;

/** Moves held candidates back to waiting. */
export function reembarkCandidates(train: Train, b: Bisection): void {
  for (const n of b.candidates) if (!train.waiting.includes(n)) train.waiting.push(n);
  b.candidates = [];
}

/**
 * The live sub-batches of a bisection tree, in order: passed ones merge from there when they can
 * (they become ordinary batches: exact, every batch ahead merged, no other check in the train);
 * every other one is stopped and its pull requests re-embarked.
 */
export function settleSubs(ctx: Ctx, train: Train, rootId: string, keepPassed: boolean): void {
  const subs = train.batches.filter((c) => inTree(train, c, rootId));
  const kept = new Set<string>();
  const others = train.batches.filter((c) => c.check && !inTree(train, c, rootId));
  let broken = !keepPassed || others.length > 0;
  for (const sub of subs) {
    const aheadOk = sub.ancestors.every((a) => kept.has(a) || !train.batches.some((c) => c.id === a));
    const chain = [...subs.filter((s) => kept.has(s.id)), sub].flatMap((s) => s.members);
    const exact =
      sub.check?.phase === "passed" &&
      isExactTree(ctx, train.branch, sub.check.baseSha, sub.check.includedPulls, chain);
    if (!broken && aheadOk && exact) {
      kept.add(sub.id);
      sub.bisectionId = null;
      continue;
    }
    broken = true;
    cancelBatches(ctx, train, [sub], "BATCH_AHEAD_FAILED");
  }
}

/** Ends a bisection and every enclosing one (innermost first), logging batch_bisection_end per member. */
export function endChain(ctx: Ctx, train: Train, b: Bisection, maxReached: boolean): void {
  const culprits = new Set([...b.confirmedCulprits, ...b.droppedUnverified]);
  for (let level: Bisection | undefined = b; level; level = ctx.bisection(train, level.parentId)) {
    if (level !== b) {
      level.confirmedCulprits.push(...b.confirmedCulprits.filter((n) => !level!.confirmedCulprits.includes(n)));
      level.droppedUnverified.push(...b.droppedUnverified.filter((n) => !level!.droppedUnverified.includes(n)));
    }
    const remaining = level.members.filter((n) => ctx.pull(n) && !culprits.has(n));
    for (const ref of level.memberRefs) logBisectionEnd(ctx, ref, level, remaining, maxReached);
    reembarkCandidates(train, level);
    cancelBatches(
      ctx,
      train,
      train.batches.filter((c) => c.bisectionId === level!.id),
      "BATCH_AHEAD_FAILED",
    );
    train.bisections = train.bisections.filter((x) => x.id !== level!.id);
  }
}

/** Abandons the bisections (whole trees) holding these ids: ends them without verdict, re-embarks their pull requests. */
export function abandonBisections(ctx: Ctx, train: Train, ids: string[]): void {
  for (const id of ids) {
    const b = train.bisections.find((x) => x.id === id);
    if (!b) continue;
    const root = rootOf(train, b);
    settleSubs(ctx, train, root.id, false);
    for (let deepest = deepestOf(train, root.id); deepest; deepest = deepestOf(train, root.id))
      endChain(ctx, train, deepest, false);
  }
}

function deepestOf(train: Train, rootId: string): Bisection | undefined {
  return train.bisections.filter((x) => x.rootId === rootId).sort((x, y) => y.depth - x.depth)[0];
}
