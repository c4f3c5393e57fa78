/**
 * The running service's RPCs a replay uses (docs/deployment.md "The operational contract": the CLI
 * is a client like any other): ForgeService (the local forge), QueueService (status,
 * configuration), ActivityLogService (the run's log), and with `--flaky` ProductService and
 * CiInsightsService (flaky-setup.ts), all through the connector the CLI hands in
 * (main/rpc-client.ts: the service's address and the admin key).
 */
import type { DescService } from "@bufbuild/protobuf";
import type { Client } from "@connectrpc/connect";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { ProductService } from "../../gen/yardmaster/v1/admin_pb.js";
import { CiInsightsService } from "../../gen/yardmaster/v1/ci_insights_pb.js";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";

/** Opens a typed Connect client of `service` on the running Yardmaster (the CLI's, with its admin key). */
export type ServiceConnector = <S extends DescService>(service: S) => Promise<Client<S>>;

/** The clients and the repository they act on. */
export interface ReplayClients {
  forge: Client<typeof ForgeService>;
  queue: Client<typeof QueueService>;
  log: Client<typeof ActivityLogService>;
  products: Client<typeof ProductService>;
  ciInsights: Client<typeof CiInsightsService>;
  /** `{owner, repository}` of the replayed repository, as every request names it. */
  repo: { owner: string; repository: string };
}

/** Connects to the running service through `connect`. */
export async function connectReplayClients(
  connect: ServiceConnector,
  repo: { owner: string; repository: string },
): Promise<ReplayClients> {
  const [forge, queue, log, products, ciInsights] = await Promise.all([
    connect(ForgeService),
    connect(QueueService),
    connect(ActivityLogService),
    connect(ProductService),
    connect(CiInsightsService),
  ]);
  return { forge, queue, log, products, ciInsights, repo };
}
