/**
 * A stored rule action performed in the effects round (docs/reliability.md "Crashes: every effect
 * exactly once", docs/workflow-automation.md "When actions run"): marked started in a committed
 * statement, performed through the forge (perform.ts, replay-safe), then in one transaction its
 * events go to the outbox, its outcome to `pull_rule_actions`, and the effect is deleted. A crash
 * before that transaction replays the action, which reads the forge first; a crash after it has
 * nothing left to do.
 */
import type pg from "pg";
import { internalEventRow } from "../../activity-log/index.js";
import { FAILPOINT_NAMES, failpoint } from "../../failpoints/index.js";
import { ForgeError } from "../../forge/index.js";
import {
  appendToOutbox,
  deleteEffect,
  markEffectStarted,
  recordPullRuleOutcome,
  type EffectRow,
  type EventRow,
} from "../../store/index.js";
import { isReplay } from "../effect-journal.js";
import type { RunnerContext } from "../runner-context.js";
import type { RuleActionEffect } from "./effect.js";
import { performRuleAction } from "./perform.js";

/**
 * Performs one stored rule action on `client` (outside a transaction, holding the repository's lock).
 * @throws ForgeError transient / rate_limited (the caller postpones the effect); the database's error
 */
export async function performRuleActionRow(
  ctx: RunnerContext,
  client: pg.ClientBase,
  repository: string,
  row: EffectRow<RuleActionEffect>,
): Promise<void> {
  const effect = row.effect;
  if (row.startedAt === null) {
    try {
      await markEffectStarted(client, row.id);
    } catch (e) {
      throw new ForgeError("transient", `could not record the action as started: ${(e as Error).message}`, undefined, {
        cause: e,
      });
    }
  }
  await failpoint(FAILPOINT_NAMES.effectStarted(effect.kind));
  const events = await performRuleAction(
    { forge: ctx.forge, repository, replay: isReplay(row), startedAt: row.startedAt ?? new Date(ctx.now()) },
    effect,
  );
  await failpoint(FAILPOINT_NAMES.effectPerformed(effect.kind));
  await failpoint(FAILPOINT_NAMES.ruleActionPerformed(effect.action));
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
  const failed = events.some((e) => typeof e.metadata.error === "string");
  await client.query("BEGIN");
  try {
    await appendToOutbox(client, rows);
    await recordPullRuleOutcome(client, effect.key, failed ? "failure" : "success");
    await deleteEffect(client, row.id);
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  }
  if (failed) ctx.log.warn({ repository, action: effect.action, key: effect.key, events }, "a rule action failed");
  if (rows.length) ctx.eventsWritten();
}
