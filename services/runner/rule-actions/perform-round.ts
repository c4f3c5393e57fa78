/**
 * The effect journal's performer of stored rule actions (effect-journal.ts; docs/reliability.md
 * "Crashes: every effect exactly once", docs/workflow-automation.md "When actions run"): the action
 * is performed through the forge (perform.ts, safe to resume), then its events go to the outbox and
 * its outcome to `pull_rule_actions` in the transaction that deletes the effect. Besides the
 * journal's failpoints, `runner.effect.rule_action.<action>.after-perform` follows the action.
 */
import { internalEventRow } from "../../activity-log/index.js";
import { FAILPOINT_NAMES } from "../../failpoints/index.js";
import { appendToOutbox, recordPullRuleOutcome, type EventRow } from "../../store/index.js";
import type { EffectPerformer } from "../effect-journal.js";
import type { RunnerContext } from "../runner-context.js";
import type { ActionEvent } from "./action-deps.js";
import type { RuleActionEffect } from "./effect.js";
import { performRuleAction } from "./perform.js";

/**
 * The performer of `repository`'s rule actions (what they need of the runner: `ctx`'s forge,
 * clock, log and event wake-up).
 */
export function ruleActionPerformer(
  ctx: Pick<RunnerContext, "forge" | "now" | "log" | "eventsWritten">,
  repository: string,
): EffectPerformer<RuleActionEffect, PerformedAction> {
  return {
    async perform(effect, attempt) {
      const deps = { forge: ctx.forge, repository, resumed: attempt.resumed };
      const events = await performRuleAction({ ...deps, startedAt: attempt.startedAt ?? new Date(ctx.now()) }, effect);
      return { events, rows: eventRows(ctx, repository, effect, events) };
    },
    failpoints: (effect) => [FAILPOINT_NAMES.ruleActionPerformed(effect.action)],
    async record(tx, effect, { events, rows }) {
      await appendToOutbox(tx, rows);
      await recordPullRuleOutcome(tx, effect.key, failed(events) ? "failure" : "success");
    },
    committed(effect, { events, rows }) {
      if (failed(events))
        ctx.log.warn({ repository, action: effect.action, key: effect.key, events }, "a rule action failed");
      if (rows.length) ctx.eventsWritten();
    },
  };
}

/** A performed action: its events, and their activity log rows (the invalid ones left out). */
interface PerformedAction {
  events: ActionEvent[];
  rows: EventRow[];
}

const failed = (events: ActionEvent[]) => events.some((e) => typeof e.metadata.error === "string");

/** The activity log rows of an action's events; an invalid one is logged and left out. */
function eventRows(
  ctx: Pick<RunnerContext, "now" | "log">,
  repository: string,
  effect: RuleActionEffect,
  events: ActionEvent[],
): EventRow[] {
  const receivedAt = new Date(ctx.now());
  const rows: EventRow[] = [];
  for (const e of events) {
    try {
      rows.push(
        internalEventRow({
          type: e.type,
          repository,
          pullRequest: effect.number,
          baseRef: effect.baseRef,
          trigger: `Rule: ${effect.rule}`,
          receivedAt,
          metadata: e.metadata,
        }),
      );
    } catch (err) {
      ctx.log.error({ repository, type: e.type, err: (err as Error).message }, "dropped an invalid action event");
    }
  }
  return rows;
}
