/**
 * The QueueService implementation (proto/yardmaster/v1/queue.proto): reads map the engine's read
 * views of the stored queue state (PostgreSQL, last committed) to messages; writes (dequeue,
 * enqueue, pause) go through the queue runner, under the repository's lock; scheduled freezes
 * are stored and reach the runner through its inbox. Shapes: docs/api.md "Merge queue" and
 * "Queues"; decisions: docs/merge-queue.md, docs/pause.md, docs/scheduled-freeze.md.
 */
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { create, type JsonObject } from "@bufbuild/protobuf";
import { GetMergeQueueStatusResponseSchema, type QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { DomainError, invalidField } from "../contracts/index.js";
import {
  branchesWithQueue,
  dequeueImpact,
  NotQueuedError,
  pullView,
  queueListing,
  statusView,
  type EngineState,
} from "../engine/index.js";
import type { QueueRunner } from "../runner/index.js";
import type { ForgePort, RepositoryDirectory } from "../forge/index.js";
import { queueRulesApiConfiguration, renderChecklist, type Configuration } from "../config/index.js";
import { baseRefsInWindow, type ChangeFeed } from "../store/index.js";
import { fullName, type RepoRequest } from "./caller.js";
import { watchMergeQueueHandler } from "./watch-status.js";
import type { LiveRegistry } from "../live/index.js";
import { flatFreezeHandlers } from "./flat-freeze-handlers.js";
import { freezeHandlers, type FreezeDeps } from "./freeze-handlers.js";
import { pauseHandlers, type PauseDeps } from "./pause-handlers.js";
import { scopeHandlers, type ScopeDeps } from "./scope-handlers.js";
import { evaluatedMergeConditions, mergeabilityDetail, readsOnce } from "./pull-detail.js";
import { queueStateSnapshots, type QueueStateReads } from "./state-snapshots.js";
import { statusAnswers } from "./status-answers.js";
import { storedConfiguration } from "./stored-configuration.js";
import { knownRepositories, requireKnownRepository } from "./known-repository.js";
import { autoSeconds, ruleApiConfig, runningSettings } from "./rule-config.js";
import { queuedPullRequest, status, ts } from "./view-mapping.js";
import { pullRequestSummary } from "./pull-summary.js";
import { repositoryHandlers } from "./repositories.js";

/**
 * What {@link createQueueService} needs besides the pause deps: the queue runner (writes), the
 * forge port (condition reads), the clock (epoch milliseconds UTC; default `Date.now`) and the
 * reads of the committed queue state (default: snapshots over `db`, state-snapshots.ts).
 */
export interface QueueServiceDeps
  extends PauseDeps,
    Omit<FreezeDeps, "now">,
    Pick<ScopeDeps, "scopesChanged" | "scopesCommitted"> {
  runner: QueueRunner;
  forge: ForgePort;
  now?: () => number;
  states?: QueueStateReads;
  /** The live streams' registry and change feed; without them WatchMergeQueue is not served. */
  live?: { registry: LiveRegistry; feed: ChangeFeed };
  /** The repositories the forge knows (ListRepositories); without it, those with queue state only. */
  directory?: RepositoryDirectory;
}

const DAY_MS = 86_400_000;

/** The status of a repository the queue has never seen. */
const EMPTY_STATUS = {
  scopeQueues: { __default__: { values: [] } },
  batches: [],
  waitingPullRequests: [],
  automaticConflictResolutionUnsupported: true,
  mode: "serial",
};

/**
 * The time window of `/queues/branches` (docs/api.md #18): end default now, start default end - 1 day.
 * @throws InvalidArgumentError ("start_at") when start is after end
 */
export function queueWindow(
  start: Timestamp | undefined,
  end: Timestamp | undefined,
  now: Date,
): { start: Date; end: Date } {
  const e = end ? timestampDate(end) : now;
  const s = start ? timestampDate(start) : new Date(e.getTime() - DAY_MS);
  if (s.getTime() > e.getTime()) throw invalidField("start_at", "must not be after end_at");
  return { start: s, end: e };
}

const notQueued = (n: bigint | number) => new DomainError("not_found", `pull request ${n} is not in any merge queue`);

/** Builds the QueueService implementation. */
export function createQueueService(deps: QueueServiceDeps): Partial<ServiceImpl<typeof QueueService>> {
  const now = deps.now ?? Date.now;
  const states = deps.states ?? queueStateSnapshots(deps.db);
  const state = (r: { owner: string; repository: string }): Promise<EngineState | null> => states.current(fullName(r));
  const answers = statusAnswers(now);
  const number = (n: bigint) => {
    if (n > BigInt(Number.MAX_SAFE_INTEGER)) throw notQueued(n);
    return Number(n);
  };

  /** The configuration the queue runs with, for the caller of `ctx` (stored-configuration.ts). */
  const configuration = (repo: string, ctx: HandlerContext): Promise<Configuration> =>
    storedConfiguration({ forge: deps.forge, db: deps.db }, repo, ctx);

  /** The status answer of `req` now, and the state it was computed from (status-answers.ts). */
  async function statusNow(req: RepoRequest & { branch?: string }) {
    const arrivedAt = now();
    const s = await state(req);
    if (!s) return { state: null, message: create(GetMergeQueueStatusResponseSchema, EMPTY_STATUS) };
    const key = JSON.stringify([fullName(req), req.branch ?? null]);
    return { state: s, message: answers(key, s, arrivedAt, (at) => status(statusView(s, req.branch, at))) };
  }

  const freezes = freezeHandlers({ ...deps, now });
  // A forge failure while answering (mergeability detail, an extended configuration) is answered
  // with its own kind by the gateway (contracts/domain-error.ts): 429, 503, 404.
  const handlers: Partial<ServiceImpl<typeof QueueService>> = {
    ...pauseHandlers(deps),
    ...scopeHandlers(deps),
    ...freezes,
    ...flatFreezeHandlers(freezes, now),
    ...repositoryHandlers({ db: deps.db, directory: deps.directory, now }),
    async getPullRequestSummary(req, ctx) {
      const repo = fullName(req);
      const [s, config] = await Promise.all([state(req), configuration(repo, ctx).catch((e: Error) => e)]);
      return pullRequestSummary(
        { forge: readsOnce(deps.forge), repository: repo, state: s, config, now: new Date(now()) },
        number(req.prNumber),
      );
    },
    async listMergeQueueBranches(req) {
      const s = await state(req);
      return { branches: s ? branchesWithQueue(s) : [] };
    },
    async getMergeQueueStatus(req) {
      return (await statusNow(req)).message;
    },
    ...(deps.live && {
      watchMergeQueue: watchMergeQueueHandler({ ...deps.live, now, status: statusNow }),
    }),
    async getQueuedPullRequest(req, ctx) {
      const s = await state(req);
      const view = s && pullView(s, number(req.prNumber), now());
      if (!view) throw notQueued(req.prNumber);
      const repo = fullName(req);
      const config = await configuration(repo, ctx).catch(() => null);
      return {
        number: req.prNumber,
        queuedAt: ts(view.queuedAt),
        estimatedTimeOfMerge: ts(view.estimatedTimeOfMerge),
        position: BigInt(view.position),
        priorityRuleName: view.priorityRuleName ?? undefined,
        queueRuleName: view.queueRuleName,
        checksTimeoutAt: ts(view.checksTimeoutAt),
        queueRule: { name: view.queueRuleName, config: ruleApiConfig(config, view.queueRuleName, s!) },
        mergeabilityCheck: view.mergeabilityCheck
          ? await mergeabilityDetail({ forge: deps.forge, repository: repo, config, now: new Date(now()) }, s!, view)
          : undefined,
      };
    },
    async getDequeueImpact(req) {
      const s = await state(req);
      if (!s) throw notQueued(req.prNumber);
      try {
        const impact = dequeueImpact(s, number(req.prNumber), now());
        return {
          interruptedBatches: impact.interruptedBatches,
          recheckedPullRequests: impact.recheckedPullRequests,
          cascadedPullRequests: impact.cascadedPullRequests,
        };
      } catch (e) {
        if (e instanceof NotQueuedError) throw notQueued(req.prNumber);
        throw e;
      }
    },
    async dequeuePullRequest(req) {
      const s = await state(req);
      if (!s || !s.pulls[String(req.prNumber)]) throw notQueued(req.prNumber);
      try {
        await deps.runner.request(fullName(req), {
          kind: "engine",
          event: { type: "dequeue_requested", number: number(req.prNumber), trigger: "API", source: "api" },
        });
      } catch (e) {
        if (e instanceof NotQueuedError) throw notQueued(req.prNumber);
        throw e;
      }
      return {};
    },
    async getQueuesConfiguration(req, ctx) {
      const [config, s] = await Promise.all([configuration(fullName(req), ctx), state(req)]);
      // docs/self-tuning.md: a self-tuned rule shows the settings the engine runs with.
      const running = s && runningSettings(s);
      const rules = queueRulesApiConfiguration(config, s ? autoSeconds(s) : null, running);
      // Each rule's configuration is a google.protobuf.Struct. Its JSON is declared with interfaces
      // and optional keys, which TypeScript does not take for a JsonObject: every value is JSON.
      return { configuration: rules.map((r) => ({ name: r.name, config: r.config as unknown as JsonObject })) };
    },
    async listQueues(req, ctx) {
      const s = await state(req);
      if (!s) return { queues: [] };
      const repo = fullName(req);
      const config = await configuration(repo, ctx).catch(() => null);
      const evaluation = { forge: readsOnce(deps.forge), repository: repo, config, now: new Date(now()) };
      const listing = queueListing(s, now());
      return {
        queues: await Promise.all(
          listing.queues.map(async (q) => ({
            branch: q.branch,
            pullRequests: await Promise.all(
              q.pullRequests.map(async (p) => {
                const checked = p.mergeabilityCheck
                  ? await evaluatedMergeConditions(evaluation, s, {
                      number: p.number,
                      branch: q.branch.name,
                      queueRuleName: p.queueRuleName,
                      position: p.position,
                      checkPullRequest: p.mergeabilityCheck.pullRequestNumber,
                    })
                  : null;
                return queuedPullRequest(
                  p,
                  { name: p.queueRuleName, config: ruleApiConfig(config, p.queueRuleName, s) },
                  checked ? renderChecklist(checked) : "",
                );
              }),
            ),
          })),
        ),
      };
    },
    async listQueueBaseRefs(req) {
      const w = queueWindow(req.startAt, req.endAt, new Date(now()));
      return { baseRefs: await baseRefsInWindow(deps.db, fullName(req), w.start, w.end) };
    },
    async enqueuePullRequest(req) {
      const repo = fullName(req);
      // The engine's refusal (EngineInputError) is answered failed_precondition (docs/errors.md).
      const result = await deps.runner.request(repo, {
        kind: "enqueue",
        number: number(req.prNumber),
        queueRule: req.queueRule || null,
        trigger: "API",
      });
      if (!result || result.kind === "refused") {
        throw new DomainError(
          "failed_precondition",
          `pull request ${req.prNumber} cannot be queued: ${result?.reason ?? "unknown"}`,
        );
      }
      const s = await state(req);
      const view = s && pullView(s, number(req.prNumber), now());
      return { queueRule: result.rule, position: BigInt(view?.position ?? -1) };
    },
  };
  // A repository the forge does not know is 404 on every method (known-repository.ts).
  return requireKnownRepository(handlers, knownRepositories(deps.forge, now), ["watchMergeQueue"]);
}
