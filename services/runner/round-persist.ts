/**
 * What a round writes before its commit (docs/merge-queue.md "Runner", item 3): the new engine
 * state, its log events into the outbox (relayed to the activity log after the commit), the base
 * refs' activity, the engine's timers, and the forge effects to perform after the commit.
 */
import type pg from "pg";
import { internalEventRow } from "../activity-log/index.js";
import type { EngineEffect, EngineState, LogEffect } from "../engine/index.js";
import {
  addEffects,
  appendToOutbox,
  cancelTimer,
  recordBaseRefActivity,
  saveQueueState,
  setTimer,
  type EventRow,
} from "../store/index.js";
import type { RunnerContext } from "./runner-context.js";
import type { ProtectionsReportEffect } from "./merge-protections/effect.js";
import type { RuleActionEffect } from "./rule-actions/effect.js";

/** What a round decided: the state after it, the effects and log events, and its time (epoch ms UTC). */
export interface RoundWrites {
  state: EngineState;
  effects: readonly EngineEffect[];
  logs: readonly LogEffect[];
  /** Actions of pull request rules and merge protections reports, stored after the engine's effects. */
  ruleEffects?: readonly (RuleActionEffect | ProtectionsReportEffect)[];
  at: number;
}

/**
 * Writes a round's decisions in its transaction (`client`). A log event that does not make a valid
 * event row is a bug: it is logged as an error and dropped, so it cannot wedge the queue.
 * @throws the database's error (the caller rolls back)
 */
export async function persistRound(
  ctx: RunnerContext,
  client: pg.ClientBase,
  repository: string,
  w: RoundWrites,
): Promise<void> {
  await saveQueueState(client, repository, w.state, w.state.pause !== null);
  const rows: EventRow[] = [];
  const receivedAt = new Date(w.at);
  for (const l of w.logs) {
    try {
      rows.push(
        internalEventRow({
          type: l.type,
          repository,
          pullRequest: l.pullRequest,
          baseRef: l.baseRef,
          trigger: l.trigger,
          receivedAt,
          metadata: l.metadata,
        }),
      );
    } catch (e) {
      ctx.log.error({ repository, type: l.type, err: (e as Error).message }, "dropped an invalid log event");
    }
  }
  await appendToOutbox(client, rows);
  const baseRefs = w.logs.map((l) => l.baseRef).filter((b): b is string => b !== null);
  await recordBaseRefActivity(client, repository, baseRefs, receivedAt);
  const forgeEffects: EngineEffect[] = [];
  for (const e of w.effects) {
    if (e.kind === "schedule_timer") await setTimer(client, repository, e.key, new Date(e.dueAt));
    else if (e.kind === "cancel_timer") await cancelTimer(client, repository, e.key);
    else forgeEffects.push(e);
  }
  await addEffects(client, repository, [...forgeEffects, ...(w.ruleEffects ?? [])]);
}
