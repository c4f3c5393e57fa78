/**
 * Keeps the engine's pause in agreement with the pause endpoints' (docs/pause.md "The engine's
 * pause"). Each API pause change writes its inbox input in the transaction that changes
 * `queue_pauses`, so the two agree once the runner has applied the inputs; if they still differ
 * while no pause input waits (an engine state restored from a backup, a defect: a lost unpause was
 * seen once under stress and not explained), the runner applies the API's pause to the engine and
 * logs a warning, instead of leaving the queue paused (or running) against what the API answers.
 */
import type pg from "pg";
import { pauseWithPendingInput } from "../store/index.js";
import type { EngineEventInput } from "../engine/index.js";
import type { EngineState } from "../engine/index.js";

/**
 * The engine event that brings `state`'s pause to the API's, or null when they agree or a pause
 * input still waits in the inbox (for a round that took no input).
 */
export async function pauseCorrection(
  client: pg.ClientBase,
  repository: string,
  state: EngineState,
): Promise<EngineEventInput | null> {
  const { pause, pending } = await pauseWithPendingInput(client, repository, []);
  if (pending) return null;
  if (pause === null) return state.pause === null ? null : { type: "unpause" };
  if (state.pause === null || state.pause.reason !== pause.reason)
    return { type: "pause", reason: pause.reason, pausedAt: pause.pausedAt.getTime() };
  return null;
}
