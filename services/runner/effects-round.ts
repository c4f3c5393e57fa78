/**
 * The effects round (docs/merge-queue.md "Runner", item 4): after a round's commit, the forge
 * effects it decided are performed one by one, in order (effect-journal.ts marks each started
 * first); each result goes to the inbox in the transaction that deletes the effect. A forge error
 * worth retrying postpones the effect with exponential backoff (and the effects behind it wait);
 * any other error, or too many attempts, drops it with an error in the log.
 */
import type pg from "pg";
import type { EngineEffect } from "../engine/index.js";
import { addToInbox, deleteEffect, dueEffects, postponeEffect } from "../store/index.js";
import { isRetryable } from "./effect-executor.js";
import { performStoredEffect } from "./effect-journal.js";
import type { RunnerInput } from "./inputs.js";
import type { RepositoryLockSession } from "./lock-session.js";
import type { RunnerContext } from "./runner-context.js";
import {
  isProtectionsReport,
  performProtectionsReport,
  type ProtectionsReportEffect,
} from "./merge-protections/effect.js";
import { isRuleActionEffect, type RuleActionEffect } from "./rule-actions/effect.js";
import { performRuleActionRow } from "./rule-actions/perform-round.js";

/** Attempts of one effect before it is dropped (the last waits about a minute). */
const MAX_EFFECT_ATTEMPTS = 12;

/**
 * Performs the repository's due effects in order on `lock`'s connection; returns whether any was
 * performed. Stops at the first postponed one. Each effect waits for `lock` to prove it is still
 * held (lock-session.ts).
 * @throws LockLostError before any forge call once the lock is lost; the database's error
 */
export async function performEffects(
  ctx: RunnerContext,
  lock: RepositoryLockSession,
  repository: string,
): Promise<boolean> {
  const client = lock.client;
  const due = await dueEffects<EngineEffect | RuleActionEffect | ProtectionsReportEffect>(client, repository);
  let any = false;
  for (const row of due) {
    await lock.assertHeld();
    try {
      if (isRuleActionEffect(row.effect)) {
        await performRuleActionRow(ctx, client, repository, { ...row, effect: row.effect });
        any = true;
        continue;
      }
      if (isProtectionsReport(row.effect)) {
        await performProtectionsReport(ctx, client, repository, { ...row, effect: row.effect });
        any = true;
        continue;
      }
      const engineRow = { ...row, effect: row.effect as EngineEffect };
      const deps = { forge: ctx.forge, repository, logger: ctx.log, labelEchoes: ctx.labelEchoes };
      const results = await performStoredEffect(deps, client, engineRow);
      await inTransaction(client, async () => {
        await addToInbox(
          client,
          repository,
          results.map((event) => ({ kind: "engine", event }) satisfies RunnerInput),
        );
        await deleteEffect(client, row.id);
      });
      any = true;
    } catch (e) {
      const attempts = row.attempts + 1;
      if (isRetryable(e) && attempts < MAX_EFFECT_ATTEMPTS) {
        const delay =
          e.kind === "rate_limited" && e.retryAfterMs ? e.retryAfterMs : Math.min(60_000, 500 * 2 ** attempts);
        await postponeEffect(client, row.id, delay, (e as Error).message);
        ctx.log.warn(
          { repository, effect: row.effect.kind, attempts, delayMs: delay, err: (e as Error).message },
          "forge effect postponed",
        );
        return any;
      }
      ctx.log.error({ repository, effect: row.effect.kind, err: e }, "forge effect failed for good");
      await deleteEffect(client, row.id);
      any = true;
    }
  }
  return any;
}

async function inTransaction(client: pg.ClientBase, fn: () => Promise<void>): Promise<void> {
  await client.query("BEGIN");
  try {
    await fn();
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  }
}
