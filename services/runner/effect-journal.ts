/**
 * Forge effects performed exactly once as far as the forge can tell (docs/reliability.md "Crashes:
 * every effect exactly once"). An effect is recorded as intended with the state that decided it
 * (its `queue_effects` row, whose id is its idempotency key). Before the forge is called the row is
 * marked started in a committed statement, so a replay after a crash knows the forge may have
 * acted: the effect then reads the forge first (merge-effect.ts) or looks for its own marker
 * (comments) instead of acting again blindly. A postponed effect (a transient forge error) is a
 * replay too.
 */
import type pg from "pg";
import { FAILPOINT_NAMES, failpoint } from "../failpoints/index.js";
import { ForgeError } from "../forge/index.js";
import { markEffectStarted, type EffectRow } from "../store/index.js";
import type { EngineEffect } from "../engine/index.js";
import type { EngineEventInput } from "../engine/index.js";
import { performEffect, type ExecutorDeps } from "./effect-executor.js";

/** The idempotency key of a stored effect (its row id, unique in the database). */
export function effectKey(row: Pick<EffectRow<unknown>, "id">): string {
  return row.id;
}

/** Whether an earlier attempt at this effect may have reached the forge. */
export function isReplay(row: Pick<EffectRow<unknown>, "attempts" | "startedAt">): boolean {
  return row.startedAt !== null || row.attempts > 0;
}

/**
 * Marks the effect started (committed on `client`, which must not be inside a transaction), then
 * performs it with its idempotency key.
 * @returns the engine events reporting its result (to record with the effect's deletion)
 * @throws ForgeError transient / rate_limited (to postpone), also when the start cannot be recorded
 */
export async function performStoredEffect(
  deps: Omit<ExecutorDeps, "idempotencyKey">,
  client: pg.ClientBase,
  row: EffectRow<EngineEffect>,
): Promise<EngineEventInput[]> {
  const replay = isReplay(row);
  if (row.startedAt === null) {
    try {
      await markEffectStarted(client, row.id);
    } catch (e) {
      // Not performed: the effect is postponed like a transient forge error, never dropped.
      const message = `could not record the effect as started: ${(e as Error).message}`;
      throw new ForgeError("transient", message, undefined, { cause: e });
    }
  }
  await failpoint(FAILPOINT_NAMES.effectStarted(row.effect.kind));
  const results = await performEffect({ ...deps, idempotencyKey: effectKey(row) }, row.effect, replay);
  await failpoint(FAILPOINT_NAMES.effectPerformed(row.effect.kind));
  return results;
}
