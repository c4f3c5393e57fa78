/**
 * Wires the merge queue: the runner over a forge, the QueueService over the runner, and the sink
 * that turns forge events (webhooks, local forge actions) into runner inputs. Pause changes reach
 * the engine through the runner's inbox in the pause's own transaction.
 */
import type { Logger } from "pino";
import type { ForgeEventSink, ForgePort } from "../forge/types.js";
import { createQueueRunner, type QueueRunner } from "../engine/runner/index.js";
import { createQueueService } from "../queue/index.js";
import { addToInbox, type Pool } from "../store/index.js";

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
 * milliseconds (UTC), `eventsWritten` kicks the outbox relay.
 */
export function wireQueue(deps: { db: Pool; forge: ForgePort; logger: Logger; eventsWritten: () => void; now?: () => number }): QueueWiring {
  const runner = createQueueRunner({ db: deps.db, forge: deps.forge, logger: deps.logger, eventsWritten: deps.eventsWritten, now: deps.now });
  const queueService = createQueueService({
    db: deps.db,
    runner,
    forge: deps.forge,
    now: deps.now,
    eventsWritten: deps.eventsWritten,
    pauseChanged: (client, repository, change) =>
      addToInbox(client, repository, [
        { kind: "engine", event: change.paused ? { type: "pause", reason: change.reason, actor: change.actor } : { type: "unpause", actor: change.actor } },
      ]),
    pauseCommitted: (repository) => runner.wake(repository),
  });
  return {
    runner,
    queueService,
    sink: (event) => runner.submit(event),
  };
}
