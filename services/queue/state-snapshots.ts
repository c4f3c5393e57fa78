/**
 * The queue state as the QueueService reads it (docs/reliability.md "Load"): the last committed
 * state of a repository, kept in memory per repository with its change token, so a read under
 * load neither transfers nor parses the whole state (JSONB) again while it has not changed.
 *
 * Fresh: every read asks PostgreSQL for the current token first (one small query, coalesced with
 * the concurrent reads of the same repository by {@link FreshRead}: each read is answered by a
 * query that started after it), so a change committed by any runner process before the read is
 * always in its answer; the state itself is transferred only when the token changed. The queries
 * go to the pool they are given: the server gives the API's own pool, so readers never wait for
 * (or hold) the runner's connections.
 *
 * A snapshot is shared by the reads that use it: it is deeply frozen, so a view that tried to
 * change it would fail loudly instead of corrupting the next answer.
 */
import { LRUCache } from "lru-cache";
import type { EngineState } from "../engine/index.js";
import { deepFreeze } from "../contracts/index.js";
import { FreshRead, loadQueueStateIfChanged, type Pool } from "../store/index.js";

/** Reads of the committed queue state of a repository. */
export interface QueueStateReads {
  /** The last committed state (deeply frozen), or null for a repository the queue has never seen. */
  current(repository: string): Promise<EngineState | null>;
}

interface Snapshot {
  token: string;
  state: EngineState;
}

/** Repositories whose snapshot is kept (least recently read dropped first). */
const MAX_REPOSITORIES = 1000;
/** The spacing of a repository's token reads under load, ms (store/fresh-read.ts). */
const READ_SPACING_MS = 5;

/**
 * Builds the reads over `pool`.
 * @throws (from `current`) the pool's error when PostgreSQL cannot be reached
 */
export function queueStateSnapshots(pool: Pool): QueueStateReads {
  const snapshots = new LRUCache<string, Snapshot>({ max: MAX_REPOSITORIES });
  const fresh = new FreshRead<string, EngineState | null>(async (repository) => {
    const known = snapshots.get(repository);
    const row = await loadQueueStateIfChanged<EngineState>(pool, repository, known?.token ?? null);
    if (!row) {
      snapshots.delete(repository);
      return null;
    }
    if (row.state === undefined && known) return known.state;
    const state = deepFreeze(row.state as EngineState);
    snapshots.set(repository, { token: row.token, state });
    return state;
  }, READ_SPACING_MS);
  return { current: (repository) => fresh.get(repository) };
}
