/**
 * What the runner does when a repository's scheduled freezes change or one begins
 * (docs/scheduled-freeze.md): every running check, and every check that passed and is not
 * merging, is evaluated again with the freezes as they are now (a freeze may hold or release it:
 * check-evaluation.ts); pull requests that gave way to a freeze that no longer holds them may
 * embark again at once (freeze_released). A freeze's end needs no input: a held check is evaluated
 * again when its hold ends (its schedule timer), and those that gave way return then. When a
 * queued pull request changes (labels, reviews, title...) during a freeze, the same is done for it
 * alone: a freeze's conditions may now match it, or no longer.
 */
import { checkResults, pullFreezeHold } from "./check-evaluation.js";
import type { IngressEnv } from "./ingress-env.js";
import { anyActive } from "../config/index.js";

/** Key prefix of the runner's timer at a freeze's start (then the freeze id). */
export const FREEZE_START_TIMER_PREFIX = "freeze-start/";

/** Checks that a freeze may hold or release: running with a pull request to read, or passed and not merging. */
function checksToLookAt(env: IngressEnv): string[] {
  const ids: string[] = [];
  for (const train of env.state().trains) {
    for (const batch of train.batches) {
      const check = batch.check;
      if (!check || check.number === null) continue;
      if (check.phase === "running" || (check.phase === "passed" && !batch.merging)) ids.push(check.id);
    }
  }
  return ids;
}

/**
 * Applies a change of the freezes: checks evaluated again, one event each (a check gone
 * meanwhile is skipped), then freeze_released for those that gave way and are no longer held.
 * @throws ForgeError when the forge cannot be read (the input stays in the inbox and is retried)
 */
export async function onFreezesChanged(env: IngressEnv): Promise<void> {
  for (const id of checksToLookAt(env)) await checkResults(env, id);
  await releaseYielded(
    env,
    Object.values(env.state().pulls).map((p) => p.number),
  );
}

/** freeze_released for those of `numbers` that gave way to a freeze that no longer holds them. */
async function releaseYielded(env: IngressEnv, numbers: readonly number[]): Promise<void> {
  const released: number[] = [];
  for (const n of numbers) {
    const pull = env.state().pulls[String(n)];
    if (!pull || pull.scheduleYieldBy !== "freeze" || (pull.scheduleYieldUntil ?? 0) <= env.now.getTime()) continue;
    if ((await pullFreezeHold(env, env.state(), n)) === null) released.push(n);
  }
  if (released.length > 0) env.emit({ type: "freeze_released", numbers: released });
}

/**
 * A queued pull request's facts changed: while a freeze is active (or one held it), its batch's
 * check is evaluated again when a freeze holds it or it passed, and it is released if it gave way
 * to a freeze that no longer matches it. Nothing is read when no freeze is involved.
 * @throws ForgeError when the forge cannot be read
 */
export async function onPullChangedUnderFreeze(env: IngressEnv, number: number): Promise<void> {
  const active = anyActive(env.freezes, env.now);
  for (const train of env.state().trains) {
    for (const batch of train.batches) {
      const check = batch.check;
      if (!batch.members.includes(number) || !check || check.number === null) continue;
      const heldByFreeze = (check.scheduleHeldUntil ?? null) !== null && check.scheduleHeldBy === "freeze";
      if (heldByFreeze || (active && check.phase === "passed" && !batch.merging)) await checkResults(env, check.id);
    }
  }
  await releaseYielded(env, [number]);
}
