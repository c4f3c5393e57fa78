/**
 * This process among the queue runner's replicas (docs/deployment.md "Several replicas"): its id
 * (fresh at each start; every database session of the process is named after it), its membership
 * (heartbeats, the live set, which repositories it works) and what the metrics read of it.
 */
import { randomBytes } from "node:crypto";
import type { Logger } from "pino";
import type { ReplicaFigures } from "../metrics/index.js";
import { ReplicaMembership, type QueueRunner } from "../runner/index.js";
import { replicaApplicationName, type ChangeFeed, type Database } from "../store/index.js";
import type { Settings } from "./settings.js";

/** A fresh replica id (16 hex digits) and the `application_name` of the process's sessions. */
export function newReplicaIdentity(): { id: string; applicationName: string } {
  const id = randomBytes(8).toString("hex");
  return { id, applicationName: replicaApplicationName(id) };
}

/**
 * Joins the replicas: resolves once this process's row is written and the live set read.
 * @throws when the sessions do not carry the replica's name, or the database does not answer
 */
export async function joinReplicas(deps: {
  id: string;
  settings: Settings;
  db: Database;
  feed: ChangeFeed;
  logger: Logger;
}): Promise<ReplicaMembership> {
  const membership = new ReplicaMembership({
    replica: { id: deps.id, name: deps.settings.replica.name },
    heartbeats: deps.db.heartbeats,
    db: deps.db.pool,
    feed: deps.feed,
    leaseMs: deps.settings.replica.leaseSeconds * 1000,
    log: deps.logger,
  });
  await membership.start();
  return membership;
}

/** What the replica gauges read at each scrape. */
export function replicaFigures(membership: ReplicaMembership, runner: QueueRunner): ReplicaFigures {
  return {
    replica: membership.name,
    replicas: membership.replicas().length,
    repositories: runner.workedRepositories(),
  };
}
