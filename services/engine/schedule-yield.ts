/**
 * Giving way to a merge schedule (docs/merge-queue.md rule 5; docs/domain.md §3.9
 * SCHEDULE_BLOCKED_AHEAD_YIELDED). A batch whose checks passed but whose merge conditions wait
 * for a schedule (`waiting_schedule`) holds up every pull request that can only merge after it:
 * its own members whose conditions already hold, and the batches checked on top of it. When one
 * of them could merge now (a member the schedule does not block, or a batch behind whose checks
 * passed) and the schedule opens later than a typical CI run from now (a recheck ends first), the
 * batch gives way:
 * - its check stops, and the batches checked on top of it are rechecked without it;
 * - its members whose schedule is open go back to the waiting list and are embarked at once;
 * - its members still blocked wait outside the train until their schedule opens
 *   (`scheduleYieldUntil`, a timer), then are embarked again in their queue order.
 * Every check stopped this way ends with SCHEDULE_BLOCKED_AHEAD_YIELDED; the pull requests stay
 * queued. Nothing gives way while the queue is paused or the batch is being merged, and bisection
 * sub-batches (diagnostic) never do.
 * A batch held by a scheduled freeze (`frozen`, running or passed: docs/scheduled-freeze.md) gives
 * way the same way, with SCHEDULED_FREEZE_STATUS_CHANGED: its frozen members wait outside the
 * train until the freeze ends or stops matching them, the others are checked again without them.
 */
import { rebuildDescendants } from "./bisection.js";
import { cancelBatches, descendantsOf, stopCheck } from "./batches.js";
import type { Ctx } from "./context.js";
import { releaseSchedule, typicalCiMs } from "./outcomes.js";
import type { Batch, EpochMs, HoldKind, Train } from "./state.js";
import { endYield } from "./yield-wait.js";

const CODE = { schedule: "SCHEDULE_BLOCKED_AHEAD_YIELDED", freeze: "SCHEDULED_FREEZE_STATUS_CHANGED" } as const;

/** Key prefix of the timer that embarks pull requests again when their schedule opens (then `<branch>/<partition>`). */
export const SCHEDULE_YIELD_TIMER_PREFIX = "schedule-yield/";

/** Members of a batch waiting for a schedule that the schedule blocks, each with the instant it opens for them. */
function blockedMembers(batch: Batch, heldUntil: EpochMs): Map<number, EpochMs> {
  const per = batch.check?.scheduleBlocked ?? null;
  if (per === null) return new Map(batch.members.map((n) => [n, heldUntil]));
  return new Map(batch.members.filter((n) => per[String(n)] !== undefined).map((n) => [n, per[String(n)]!]));
}

/** Makes batches waiting for a schedule give way (see the module header). Returns true on change. */
export function yieldToSchedules(ctx: Ctx, train: Train): boolean {
  if (ctx.state.pause) return false;
  for (const batch of train.batches) {
    const check = batch.check;
    const heldUntil = check?.scheduleHeldUntil ?? null;
    if (
      !check ||
      (check.phase !== "running" && check.phase !== "passed") ||
      heldUntil === null ||
      batch.merging ||
      batch.bisectionId !== null
    )
      continue;
    if (heldUntil - ctx.now <= (typicalCiMs(ctx) ?? 0)) continue; // it opens before a recheck would end
    const blocked = blockedMembers(batch, heldUntil);
    const open = batch.members.filter((n) => !blocked.has(n));
    const readyBehind = descendantsOf(train, batch).some(
      (d) => d.check?.phase === "passed" && !d.merging && (d.check.scheduleHeldUntil ?? null) === null,
    );
    if (open.length === 0 && !readyBehind) continue;
    giveWay(ctx, train, batch, blocked, heldUntil);
    return true;
  }
  return false;
}

function giveWay(ctx: Ctx, train: Train, batch: Batch, blocked: Map<number, EpochMs>, heldUntil: EpochMs): void {
  const kind: HoldKind = batch.check?.scheduleHeldBy ?? "schedule";
  const code = CODE[kind];
  const opens = ctx.iso(heldUntil);
  const what = kind === "freeze" ? "a scheduled freeze holds" : "whose merge schedule is closed";
  const behind =
    kind === "freeze"
      ? `Rechecked without ${batch.name}, which a scheduled freeze holds until ${opens}, and which gave way`
      : `Rechecked without ${batch.name}, which waits for its merge schedule until ${opens} and gave way`;
  rebuildDescendants(ctx, train, batch, { code, reason: behind, restartReason: behind });
  releaseSchedule(ctx, batch, batch.check!);
  stopCheck(ctx, batch, (n) => ({
    code,
    reason: blocked.has(n)
      ? kind === "freeze"
        ? `A scheduled freeze holds it until ${ctx.iso(blocked.get(n)!)}: it gave way to pull requests that can merge now`
        : `Its merge schedule is closed until ${ctx.iso(blocked.get(n)!)}: it gave way to pull requests that can merge now`
      : `Rechecked without the pull requests of ${batch.name} ${what} until ${opens}`,
  }));
  cancelBatches(ctx, train, [batch], code);
  for (const [n, until] of blocked) {
    const pull = ctx.pull(n);
    if (!pull) continue;
    pull.scheduleYieldUntil = until;
    pull.scheduleYieldBy = kind;
    pull.scheduleYieldSince = ctx.now;
  }
}

/** When pull requests that gave way to a schedule in this train may be embarked again (epoch ms), or null. */
export function nextScheduleReturn(ctx: Ctx, train: Train): EpochMs | null {
  const times = train.waiting
    .map((n) => ctx.pull(n)?.scheduleYieldUntil ?? null)
    .filter((t): t is EpochMs => t !== null && t > ctx.now);
  return times.length === 0 ? null : Math.min(...times);
}

/** freeze_released: those of `numbers` that gave way to a scheduled freeze may be embarked again at once. */
export function onFreezeReleased(ctx: Ctx, numbers: readonly number[]): void {
  for (const n of numbers) {
    const pull = ctx.pull(n);
    if (!pull || pull.scheduleYieldBy !== "freeze") continue;
    endYield(pull, ctx.now);
  }
}
