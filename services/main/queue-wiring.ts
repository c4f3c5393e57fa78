/**
 * Wires the merge queue: the runner over a forge, the QueueService over the runner, and the sink
 * that turns forge events (webhooks, local forge actions) into runner inputs. Pause changes reach
 * the engine through the runner's inbox in the pause's own transaction; so do changes of the
 * scheduled freezes, with a runner timer at a freeze's start (docs/scheduled-freeze.md).
 */
import type { QueueFigures } from "../metrics/index.js";
import type { Logger } from "pino";
import type { ForgeEventSink, ForgePort, RepositoryDirectory } from "../forge/index.js";
import {
  createQueueRunner,
  FREEZE_START_TIMER_PREFIX,
  type QueueRunner,
  type RepositoryOwnership,
  type RunnerInput,
  type TestResultsReader,
  type FlakyTestFilesReader,
  type TrafficReader,
} from "../runner/index.js";
import { createQueueService } from "../queue/index.js";
import { addToInbox, cancelTimer, setTimer, type ChangeFeed, type Pool, type PoolClient } from "../store/index.js";
import type { LiveRegistry } from "../live/index.js";

/**
 * The merge queue's parts: the runner (not started), the QueueService over it, and the sink that
 * submits forge events to the runner.
 */
export interface QueueWiring {
  runner: QueueRunner;
  queueService: ReturnType<typeof createQueueService>;
  /** Where forge events go. */
  sink: ForgeEventSink;
}

/**
 * Builds the runner and the QueueService (see the file header); `now` is the clock in epoch
 * milliseconds (UTC), `eventsWritten` kicks the outbox relay. The runner works on `db`; the
 * QueueService's handlers on `api` when given (the API's own pool: docs/reliability.md "Load").
 */
export function wireQueue(deps: {
  db: Pool;
  api?: Pool;
  forge: ForgePort;
  /** The repositories the forge knows (ListRepositories). */
  directory?: RepositoryDirectory;
  logger: Logger;
  eventsWritten: () => void;
  now?: () => number;
  /** The live streams' registry and change feed (WatchMergeQueue); absent: not served. */
  live?: { registry: LiveRegistry; feed: ChangeFeed };
  /** The activity log's traffic reader for the self-tuning default (docs/self-tuning.md); none: static defaults. */
  readTraffic?: TrafficReader;
  /** Told the queue's figures after each round (the metrics, docs/observability.md). */
  observeRound?: (figures: QueueFigures) => void;
  /** CI Insights' facts about failed checks (docs/merge-queue.md "Verdicts from test results"); none: blind to tests. */
  testResults?: TestResultsReader;
  /** The files of the tests known flaky on a base branch (docs/merge-queue.md "Risk-aware batching"); none: 0 counted. */
  flakyTests?: FlakyTestFilesReader;
  /** Which repositories this process works among the replicas (docs/deployment.md "Several replicas"); default all. */
  ownership?: RepositoryOwnership;
  /** Seconds between reconciliation passes (0: none; docs/github.md "Reconciliation"). */
  reconcileIntervalSeconds?: number;
  /** The platform's recovery of lost events, run before each reconciliation pass. */
  redeliver?: () => Promise<unknown>;
}): QueueWiring {
  const runner = createQueueRunner({
    db: deps.db,
    forge: deps.forge,
    logger: deps.logger,
    eventsWritten: deps.eventsWritten,
    now: deps.now,
    readTraffic: deps.readTraffic,
    observeRound: deps.observeRound,
    testResults: deps.testResults,
    flakyTests: deps.flakyTests,
    ownership: deps.ownership,
    reconcileIntervalMs: (deps.reconcileIntervalSeconds ?? 0) * 1000,
    redeliver: deps.redeliver,
  });
  const queueService = createQueueService({
    db: deps.api ?? deps.db,
    runner,
    forge: deps.forge,
    directory: deps.directory,
    now: deps.now,
    live: deps.live,
    eventsWritten: deps.eventsWritten,
    pauseChanged: (client, repository, change) =>
      addToInbox(client, repository, [
        {
          kind: "engine",
          event: change.paused
            ? { type: "pause", reason: change.reason, actor: change.actor, pausedAt: change.pausedAt.getTime() }
            : { type: "unpause", actor: change.actor },
        },
      ]),
    pauseCommitted: (repository) => runner.wake(repository),
    freezeChanged: (client, repository, freeze) =>
      freezeChangedInputs(client, repository, freeze, deps.now?.() ?? Date.now()),
    freezeCommitted: (repository) => runner.wake(repository),
    scopesChanged: (client, repository, number) => addToInbox(client, repository, [{ kind: "scopes_changed", number }]),
    scopesCommitted: (repository) => runner.wake(repository),
  });
  return {
    runner,
    queueService,
    sink: (event, key) => runner.submit(event, key),
  };
}

/**
 * A freeze changed: the runner looks again at its checks now (inbox) and when the freeze begins
 * (a timer, when the start is still ahead at `now`, epoch ms); a deleted freeze's timer is removed.
 */
export async function freezeChangedInputs(
  client: PoolClient,
  repository: string,
  freeze: { id: string; start: Date; deleted: boolean },
  now: number,
): Promise<void> {
  await addToInbox(client, repository, [{ kind: "freezes_changed" } satisfies RunnerInput]);
  const key = `${FREEZE_START_TIMER_PREFIX}${freeze.id}`;
  if (freeze.deleted || freeze.start.getTime() <= now) await cancelTimer(client, repository, key);
  else await setTimer(client, repository, key, freeze.start);
}

/**
 * A product was switched on `repository`: the queue runner applies the switch (docs/configuration.md
 * "Products"), here or in the process running the queue: the input is in the shared inbox, written
 * in the switch's transaction and found by the next sweep.
 */
export async function productChangedInput(
  client: PoolClient,
  repository: string,
  product: string,
  enabled: boolean,
): Promise<void> {
  await addToInbox(client, repository, [{ kind: "products_changed", product, enabled }]);
}
