/**
 * The effect journal: the life of every stored forge effect, and why each is performed exactly
 * once as far as the forge can tell (docs/reliability.md "Crashes: every effect exactly once").
 *
 * 1. Intended. An effect is stored (`queue_effects`) in the transaction that decided it: both
 *    exist, or neither. Its row id is its idempotency key.
 * 2. Started. Before the forge is called, the row is marked started in a committed statement of
 *    its own. From here on a crash leaves the row started, so the next attempt knows the forge may
 *    have acted: it is a resume.
 * 3. Performed. The performer of the effect's kind acts on the forge. Each performer is safe to run
 *    again as a resume: it reads the forge first (is the batch merged, is the draft open, is the
 *    comment with the key's hidden marker there) or sets rather than adds (labels, check runs).
 * 4. Recorded. In ONE transaction, what the performer returned is recorded (engine events to the
 *    inbox, activity log events to the outbox, a rule's outcome) and the row is deleted. A crash
 *    before that commit leaves the row started (step 3 runs again, as a resume); a crash after it
 *    leaves nothing to do. So the result is recorded once, and the forge acted once.
 * 5. Postponed or dropped. A transient or rate-limited forge error (or a start that could not be
 *    recorded) leaves the row, postponed with exponential backoff; it runs again as a resume, and
 *    the repository's later effects wait behind it. Any other error, or too many attempts, deletes
 *    the row with an error in the log: never performed twice, at worst not at all.
 *
 * Only the holder of the repository's advisory lock performs its effects, and the lock is proven
 * held before each (effects-round.ts, lock-session.ts): two processes never run one effect at once.
 * The failpoints `runner.effect.<kind>.after-start` and `.after-perform` (and a performer's own)
 * stand between the steps; the fault tests crash the server there (docs/reliability.md "Failpoints").
 */
import type pg from "pg";
import type { Logger } from "pino";
import { FAILPOINT_NAMES, failpoint } from "../failpoints/index.js";
import { ForgeError, isForgeError } from "../forge/index.js";
import { deleteEffect, markEffectStarted, postponeEffect, withTransaction, type EffectRow } from "../store/index.js";

/** Attempts of one effect before it is dropped (the last waits about a minute). */
export const MAX_EFFECT_ATTEMPTS = 12;

/**
 * What a performer is told about the attempt: the idempotency key, whether an earlier attempt may
 * have reached the forge, and when one marked the effect started (UTC; null on a first attempt).
 */
export interface EffectAttempt {
  key: string;
  resumed: boolean;
  startedAt: Date | null;
}

/** How effects of one kind are performed (step 3) and what is recorded of them (step 4). */
export interface EffectPerformer<E extends { kind: string }, R> {
  /**
   * Acts on the forge; safe to run again when `attempt.resumed`.
   * @throws ForgeError transient / rate_limited (the effect is postponed); anything else drops it
   */
  perform(effect: E, attempt: EffectAttempt): Promise<R>;
  /** Names of failpoints passed after the kind's own `after-perform`, in order. */
  failpoints?(effect: E): string[];
  /** Records `result` inside the transaction that deletes the effect (`tx` is in it). */
  record(tx: pg.ClientBase, effect: E, result: R): Promise<void>;
  /** Told once the transaction committed (logs, wake-ups). */
  committed?(effect: E, result: R): void;
}

/** Whether an error should be retried later rather than reported as the effect's failure. */
export function isRetryable(e: unknown): e is ForgeError {
  return isForgeError(e, "transient") || isForgeError(e, "rate_limited");
}

/**
 * Steps 2 and 3: marks the effect started (committed on `client`, which must not be inside a
 * transaction), passes its failpoints and performs it. A crash after this and before
 * {@link recordEffect} is what a resume completes.
 * @returns what the performer returned
 * @throws ForgeError transient (to postpone) when the start cannot be recorded; the performer's errors
 */
export async function performJournaled<E extends { kind: string }, R>(
  client: pg.ClientBase,
  row: EffectRow<E>,
  performer: EffectPerformer<E, R>,
): Promise<R> {
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
  // A postponed effect is resumed too: its failed attempt may have reached the forge.
  const attempt = { key: row.id, resumed: row.startedAt !== null || row.attempts > 0, startedAt: row.startedAt };
  const result = await performer.perform(row.effect, attempt);
  await failpoint(FAILPOINT_NAMES.effectPerformed(row.effect.kind));
  for (const name of performer.failpoints?.(row.effect) ?? []) await failpoint(name);
  return result;
}

/**
 * Step 4: in one transaction on `client`, records what the performer returned and deletes the effect.
 * @throws the database's error (rolled back: the effect stays, started, and is resumed)
 */
export async function recordEffect<E extends { kind: string }, R>(
  client: pg.ClientBase,
  row: EffectRow<E>,
  performer: EffectPerformer<E, R>,
  result: R,
): Promise<void> {
  await withTransaction(client, async (tx) => {
    await performer.record(tx, row.effect, result);
    await deleteEffect(tx, row.id);
  });
  performer.committed?.(row.effect, result);
}

/** Steps 2 to 4 for one stored effect. @throws as performJournaled and recordEffect */
export async function runEffect<E extends { kind: string }, R>(
  client: pg.ClientBase,
  row: EffectRow<E>,
  performer: EffectPerformer<E, R>,
): Promise<void> {
  await recordEffect(client, row, performer, await performJournaled(client, row, performer));
}

/**
 * Step 5, for an effect whose attempt threw `e`: postpones it (transient or rate-limited, fewer
 * than {@link MAX_EFFECT_ATTEMPTS} attempts: after the platform's retry-after, else 0.5 s doubling
 * up to 60 s) or deletes it, logging either.
 * @returns whether it was postponed (the repository's later effects then wait)
 * @throws the database's error
 */
export async function settleFailedEffect(
  client: pg.ClientBase,
  row: EffectRow<{ kind: string }>,
  e: unknown,
  log: { logger: Logger; repository: string },
): Promise<boolean> {
  const attempts = row.attempts + 1;
  const fields = { repository: log.repository, effect: row.effect.kind };
  if (isRetryable(e) && attempts < MAX_EFFECT_ATTEMPTS) {
    const delay = e.kind === "rate_limited" && e.retryAfterMs ? e.retryAfterMs : Math.min(60_000, 500 * 2 ** attempts);
    await postponeEffect(client, row.id, delay, e.message);
    log.logger.warn({ ...fields, attempts, delayMs: delay, err: e.message }, "forge effect postponed");
    return true;
  }
  log.logger.error({ ...fields, err: e }, "forge effect failed for good");
  await deleteEffect(client, row.id);
  return false;
}
