/**
 * The running service's RPCs a replay uses (docs/deployment.md "The operational contract": the CLI
 * is a client like any other): ForgeService (the local forge), QueueService (status,
 * configuration), ActivityLogService (the run's log), all with the admin key through rpc-client.ts.
 */
import type { Client } from "@connectrpc/connect";
import { ActivityLogService } from "../../../gen/yardmaster/v1/activity_log_pb.js";
import { ForgeService } from "../../../gen/yardmaster/v1/forge_pb.js";
import { QueueService } from "../../../gen/yardmaster/v1/queue_pb.js";
import { serviceClient } from "../rpc-client.js";
import type { Settings } from "../settings.js";

/** The three clients and the repository they act on. */
export interface ReplayClients {
  forge: Client<typeof ForgeService>;
  queue: Client<typeof QueueService>;
  log: Client<typeof ActivityLogService>;
  /** `{owner, repository}` of the replayed repository, as every request names it. */
  repo: { owner: string; repository: string };
}

/** Connects to the service named by `settings` (YARDMASTER_URL, admin key). */
export async function connectReplayClients(
  settings: Settings,
  repo: { owner: string; repository: string },
): Promise<ReplayClients> {
  const [forge, queue, log] = await Promise.all([
    serviceClient(ForgeService, settings),
    serviceClient(QueueService, settings),
    serviceClient(ActivityLogService, settings),
  ]);
  return { forge, queue, log, repo };
}
