/**
 * Forgetting old idempotency keys of forge events (`queue_inbox_keys`; docs/reliability.md): the
 * runner's sweep prunes keys older than {@link INBOX_KEY_RETENTION_MS} at most once an hour.
 */
import type { Logger } from "pino";
import { INBOX_KEY_RETENTION_MS, pruneInboxKeys, type Pool } from "../store/index.js";

const PRUNE_EVERY_MS = 3_600_000;

/** Prunes old inbox keys, at most once per hour of this process. */
export class InboxKeyPruner {
  private last = 0;

  constructor(
    private readonly db: Pool,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Prunes when the last pruning is an hour old; a failure is logged and tried again next hour. */
  async maybePrune(): Promise<void> {
    if (this.now() - this.last < PRUNE_EVERY_MS) return;
    this.last = this.now();
    try {
      const pruned = await pruneInboxKeys(this.db, new Date(this.now() - INBOX_KEY_RETENTION_MS));
      if (pruned > 0) this.logger.debug({ pruned }, "forgot old forge event keys");
    } catch (e) {
      this.logger.warn({ err: e }, "could not prune old forge event keys");
    }
  }
}
