/**
 * The two pause endpoint families over one pause state (docs/pause.md, docs/api.md #6-#8, #13-#16):
 * - PUT pauses, or changes the reason of the current pause (queue.pause.update); paused_at is kept;
 * - DELETE (and POST /queue/pause/delete) unpauses; NOT_FOUND (404) when not paused, as the
 *   reference CLI expects (docs/domain.md §4.2);
 * - GET answers the state; not paused = {paused: false, reason: null, paused_at: null} or
 *   {queue_pause: []}.
 * Every change writes its log event in the same transaction (store/pause.ts).
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext } from "@connectrpc/connect";
import { DomainError } from "../contracts/index.js";
import type { ActorInfo } from "../auth/index.js";
import { deletePause, getPause, setPause, type PauseRow, type Pool, type PoolClient } from "../store/index.js";
import { actorOf, fullName, type RepoRequest } from "./caller.js";
import { pauseEvent, unpauseEvent } from "./pause-events.js";

/**
 * What the pause operations need (docs/pause.md): the PostgreSQL pool, the outbox kick, and the
 * hooks that tell the queue engine (wired in main/queue-wiring.ts).
 */
export interface PauseDeps {
  db: Pool;
  /** Called after a commit that wrote log events (kicks the outbox relay). */
  eventsWritten: () => void;
  /**
   * Records the change for the queue engine in the same transaction as the pause row (the
   * runner's inbox), so the engine applies every change the endpoints report, in their order. It
   * applies it when the runner reaches it in the inbox: within a second normally, later behind a
   * backlog (docs/pause.md).
   */
  pauseChanged?: (
    client: PoolClient,
    repository: string,
    change: { paused: true; reason: string; actor: ActorInfo; pausedAt: Date } | { paused: false; actor: ActorInfo },
  ) => Promise<void>;
  /** Called after the commit (wakes the runner). */
  pauseCommitted?: (repository: string) => void;
}

const notPaused = (repo: string) => new DomainError("not_found", `the merge queue of ${repo} is not paused`);

/** The pause operations shared by both families, in domain terms. */
export function pauseOperations(deps: PauseDeps) {
  return {
    async pause(req: RepoRequest & { reason: string }, ctx: HandlerContext): Promise<PauseRow> {
      const repo = fullName(req);
      const actor = actorOf(ctx);
      const { pause } = await setPause(
        deps.db,
        { repository: repo, reason: req.reason, pausedBy: actor },
        (kind) => pauseEvent(repo, kind, req.reason, actor),
        (client, _created, stored) =>
          deps.pauseChanged?.(client as PoolClient, repo, {
            paused: true,
            reason: req.reason,
            actor,
            pausedAt: stored.pausedAt,
          }) ?? Promise.resolve(),
      );
      deps.eventsWritten();
      deps.pauseCommitted?.(repo);
      return pause;
    },
    async unpause(req: RepoRequest, ctx: HandlerContext): Promise<void> {
      const repo = fullName(req);
      const actor = actorOf(ctx);
      const removed = await deletePause(
        deps.db,
        repo,
        () => unpauseEvent(repo, actor),
        (client) => deps.pauseChanged?.(client as PoolClient, repo, { paused: false, actor }) ?? Promise.resolve(),
      );
      if (!removed) throw notPaused(repo);
      deps.eventsWritten();
      deps.pauseCommitted?.(repo);
    },
    get: (req: RepoRequest) => getPause(deps.db, fullName(req)),
  };
}

/** The QueueService methods of both pause families. */
export function pauseHandlers(deps: PauseDeps) {
  const ops = pauseOperations(deps);
  const state = (p: PauseRow | null) => ({
    paused: p !== null,
    reason: p?.reason,
    pausedAt: p ? timestampFromDate(p.pausedAt) : undefined,
  });
  const legacy = (p: PauseRow | null) => ({
    queuePause: p ? [{ reason: p.reason, pauseDate: timestampFromDate(p.pausedAt) }] : [],
  });
  return {
    pauseMergeQueue: async (req: RepoRequest & { reason: string }, ctx: HandlerContext) =>
      state(await ops.pause(req, ctx)),
    unpauseMergeQueue: async (req: RepoRequest, ctx: HandlerContext) => (await ops.unpause(req, ctx), {}),
    getMergeQueuePause: async (req: RepoRequest) => state(await ops.get(req)),
    pauseQueue: async (req: RepoRequest & { reason: string }, ctx: HandlerContext) => legacy(await ops.pause(req, ctx)),
    unpauseQueue: async (req: RepoRequest, ctx: HandlerContext) => (await ops.unpause(req, ctx), {}),
    deleteQueuePause: async (req: RepoRequest, ctx: HandlerContext) => (await ops.unpause(req, ctx), {}),
    getQueuePause: async (req: RepoRequest) => legacy(await ops.get(req)),
  };
}
