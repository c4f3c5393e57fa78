/**
 * Processing one repository (docs/merge-queue.md "Runner", items 2, 6-8): under its advisory lock
 * (lock-session.ts), rounds (round.ts) and effects rounds (effects-round.ts) alternate until
 * nothing is left, for at most one lock hold; a failure backs the repository off, and an input
 * blamed for every failed round is set aside (input-failures.ts).
 */
import { isForgeError } from "../forge/index.js";
import { setAsideInput } from "../store/index.js";
import { performEffects } from "./effects-round.js";
import { InputFailureCount, retryDelayMs } from "./input-failures.js";
import { RepositoryLockSession } from "./lock-session.js";
import { applyRound } from "./round.js";
import type { RunnerContext } from "./runner-context.js";

/** The per-repository bookkeeping of failures and backoffs, and the processing itself. */
export class RepositoryProcessing {
  /** Until when (epoch ms UTC) a repository is not processed after a failure. */
  private readonly backoffUntil = new Map<string, number>();
  /** Consecutive failed processings of a repository, reset by a success or by new input. */
  private readonly failures = new Map<string, number>();
  /** The inbox input a repository's last round failed on, when the failure blames it. */
  private readonly failedInput = new Map<string, string>();
  private readonly inputFailures = new InputFailureCount();
  /** The repositories this process took the lock of to work them (for the metrics; see {@link worked}). */
  private readonly workedHere = new Set<string>();

  constructor(private readonly ctx: RunnerContext) {}

  /** Whether the repository waits out a backoff now. */
  inBackoff(repository: string): boolean {
    return (this.backoffUntil.get(repository) ?? 0) > this.ctx.now();
  }

  /**
   * The repositories this process works: it processed them, and they are still its own (a
   * repository whose ownership moved to another replica is forgotten here).
   */
  worked(): string[] {
    for (const r of this.workedHere) if (!this.ctx.ownership.owns(r)) this.workedHere.delete(r);
    return [...this.workedHere].sort();
  }

  /** Ends a backoff: new input may be what was missing (the repository now exists). */
  clearBackoff(repository: string): void {
    this.backoffUntil.delete(repository);
  }

  /** What a round calls to blame an inbox input of `repository` for its failure. */
  blamer(repository: string): (inputId: string) => void {
    return (inputId) => this.failedInput.set(repository, inputId);
  }

  /** Forgets a blame noted by a round whose failure is left to the sweep (after an API request). */
  forgetBlame(repository: string): void {
    this.failedInput.delete(repository);
  }

  /**
   * Processes `repository` if no other session holds its lock and it is not backing off; loops
   * until no input or effect is left, the lock hold is over, or `ending()`.
   * @returns whether work may remain (the hold ended, or an input was set aside): run it again
   */
  async process(repository: string, ending: () => boolean): Promise<boolean> {
    if (this.inBackoff(repository)) return false;
    const lock = await RepositoryLockSession.open(this.ctx.db, repository, "try");
    if (!lock) return false;
    this.workedHere.add(repository);
    try {
      // The lock is held for at most lockHoldMs of rounds at a time: an API request waiting for
      // it (a dequeue, an enqueue) gets it between two holds instead of after the backlog.
      const until = this.ctx.now() + this.ctx.lockHoldMs;
      let again = false;
      for (;;) {
        await lock.assertHeld();
        const { applied } = await applyRound(this.ctx, lock.client, repository, this.blamer(repository));
        const performed = await performEffects(this.ctx, lock, repository);
        if (!applied && !performed) break;
        if (this.ctx.now() >= until || ending()) {
          again = true;
          break;
        }
      }
      this.backoffUntil.delete(repository);
      this.failures.delete(repository);
      this.inputFailures.clear(repository);
      return again;
    } catch (e) {
      return this.failed(repository, e);
    } finally {
      await lock.release();
    }
  }

  /** Books a failed processing: set the blamed input aside, or back off. @returns whether to run again */
  private async failed(repository: string, e: unknown): Promise<boolean> {
    const { log } = this.ctx;
    const blamed = this.failedInput.get(repository) ?? null;
    this.failedInput.delete(repository);
    const blame = this.inputFailures.record(repository, blamed, this.ctx.now());
    const { failures: limit, ms } = this.ctx.setAsideAfter;
    if (
      blamed !== null &&
      blame.count >= limit &&
      blame.sinceFirstMs >= ms &&
      (await this.setAside(repository, blamed, blame.count, e))
    ) {
      return true;
    }
    const count = (this.failures.get(repository) ?? 0) + 1;
    this.failures.set(repository, count);
    const wait = retryDelayMs(e, count, this.ctx.failureBackoffMs);
    this.backoffUntil.set(repository, this.ctx.now() + wait);
    // The first failure is logged with its stack (a repository the forge does not know with its
    // message alone: nothing in the code failed); repeats only at 2, 4, 8, ... failures.
    if (count === 1) {
      const err = isForgeError(e, "not_found") ? e.message : e;
      log.warn({ repository, err, retryInMs: wait }, "processing failed; the inputs stay in the inbox");
    } else if ((count & (count - 1)) === 0) {
      const fields = { repository, failures: count, err: (e as Error).message, retryInMs: wait };
      log.warn(fields, "processing still fails; the inputs stay in the inbox");
    }
    return false;
  }

  /**
   * Moves the input blamed for `count` failed rounds to queue_inbox_set_aside and lets the inputs
   * behind it be applied at once. Returns whether it was moved.
   */
  private async setAside(repository: string, inputId: string, count: number, e: unknown): Promise<boolean> {
    this.inputFailures.clear(repository);
    const message = e instanceof Error ? e.message : String(e);
    if (!(await setAsideInput(this.ctx.db, inputId, count, message))) return false;
    this.ctx.log.error(
      { repository, inputId, failures: count, err: e },
      "an input failed every time it was applied: set aside in queue_inbox_set_aside; the inputs behind it go on",
    );
    this.backoffUntil.delete(repository);
    this.failures.delete(repository);
    return true;
  }
}
