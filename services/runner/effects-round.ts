/**
 * The effects round (docs/merge-queue.md "Runner", item 4): after a round's commit, the forge
 * effects it decided are performed one by one, in order, each through the effect journal
 * (effect-journal.ts: marked started, performed, its result recorded with its deletion) by the
 * performer of its kind: the engine's effects (effect-executor.ts), rule actions
 * (rule-actions/perform-round.ts) and merge protections reports (merge-protections/effect.ts). A
 * postponed effect stops the round: the effects behind it wait.
 */
import type { EngineEffect } from "../engine/index.js";
import { dueEffects, type EffectRow } from "../store/index.js";
import { enginePerformer } from "./effect-executor.js";
import { runEffect, settleFailedEffect } from "./effect-journal.js";
import type { RepositoryLockSession } from "./lock-session.js";
import type { RunnerContext } from "./runner-context.js";
import { isProtectionsReport, protectionsPerformer, type ProtectionsReportEffect } from "./merge-protections/effect.js";
import { isRuleActionEffect, type RuleActionEffect } from "./rule-actions/effect.js";
import { ruleActionPerformer } from "./rule-actions/perform-round.js";

/** Every kind of effect the runner stores in `queue_effects`. */
type StoredEffect = EngineEffect | RuleActionEffect | ProtectionsReportEffect;

/**
 * Performs the repository's due effects in order on `lock`'s connection; returns whether any was
 * performed (or dropped). Stops at the first postponed one. Each effect waits for `lock` to prove
 * it is still held (lock-session.ts).
 * @throws LockLostError before any forge call once the lock is lost; the database's error
 */
export async function performEffects(
  ctx: RunnerContext,
  lock: RepositoryLockSession,
  repository: string,
): Promise<boolean> {
  const client = lock.client;
  const due = await dueEffects<StoredEffect>(client, repository);
  let any = false;
  for (const row of due) {
    await lock.assertHeld();
    try {
      await perform(ctx, client, repository, row);
    } catch (e) {
      if (await settleFailedEffect(client, row, e, { logger: ctx.log, repository })) return any;
    }
    any = true;
  }
  return any;
}

/** Runs one stored effect through the journal with the performer of its kind. */
function perform(
  ctx: RunnerContext,
  client: RepositoryLockSession["client"],
  repository: string,
  row: EffectRow<StoredEffect>,
): Promise<void> {
  const effect = row.effect;
  if (isRuleActionEffect(effect)) return runEffect(client, { ...row, effect }, ruleActionPerformer(ctx, repository));
  if (isProtectionsReport(effect)) return runEffect(client, { ...row, effect }, protectionsPerformer(ctx, repository));
  const deps = { forge: ctx.forge, repository, logger: ctx.log, labelEchoes: ctx.labelEchoes };
  return runEffect(client, { ...row, effect }, enginePerformer(deps));
}
