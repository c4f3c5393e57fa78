/** Public surface of services/store (PostgreSQL). */
export {
  API_QUERY_TIMEOUT_MS,
  CONNECT_TIMEOUT_MS,
  guardConnectionErrors,
  openDatabase,
  siblingPool,
  withTransaction,
  type Database,
  type Pool,
  type PoolClient,
  type Queryable,
} from "./database.js";
export { freePort, startEmbeddedPostgres } from "./embedded-postgres.js";
export {
  LOG_CHANNEL,
  QUEUE_CHANNEL,
  startChangeFeed,
  type ChangeFeed,
  type ChangeListener,
} from "./change-feed.js";
export { FreshRead } from "./fresh-read.js";
export {
  announceReplica,
  endReplicaSessions,
  expireReplicas,
  heartbeatReplica,
  leaveReplicas,
  listReplicas,
  notifyWork,
  replicaApplicationName,
  REPLICAS_CHANNEL,
  sessionApplicationName,
  WORK_CHANNEL,
  type ExpiredReplica,
  type ReplicaRow,
} from "./replicas.js";
export { migrate } from "./migrate.js";
export {
  appendToOutbox,
  oldestAssignedInOutbox,
  oldestOutboxAgeSeconds,
  outboxLag,
  outboxSize,
  type EventRow,
  type StoredEventRow,
} from "./outbox.js";
export { RELAY_LOCK, startOutboxRelay, type EventSink, type OutboxRelay } from "./outbox-relay.js";
export { deletePause, getPause, setPause, type PauseRow } from "./pause.js";
export {
  createFreeze,
  deleteFreeze,
  listFreezes,
  listFreezesNotEnded,
  updateFreeze,
  type FreezeAttributes,
  type FreezeRow,
} from "./scheduled-freezes.js";
export { findToken, insertToken, listTokens, revokeToken, type TokenRow } from "./tokens.js";
export {
  deleteWebhook,
  insertWebhook,
  listWebhooks,
  MAX_WEBHOOKS_PER_REPOSITORY,
  type WebhookRow,
} from "./webhooks.js";
export {
  claimDeliveries,
  listDeliveries,
  pruneDeliveries,
  recordAttempt,
  redeliver,
  releaseDeliveries,
  type AttemptRow,
  type ClaimedDelivery,
  type DeliveryEvent,
  type DeliveryRow,
} from "./webhook-deliveries.js";
export {
  queueOverviews,
  repositoriesWithQueueState,
  type BranchOverview,
  type QueueOverview,
} from "./repository-overview.js";
export { deliverEvents, type DeliveryResult } from "./deliveries.js";
export * from "./queue/index.js";
export * as localForgeStore from "./local-forge/index.js";
export * as ciInsightsStore from "./ci-insights/index.js";
export { isProductEnabled, PRODUCT_DEFAULTS, productStates, setProductEnabled, type ProductName } from "./products.js";
export {
  claimGithubDelivery,
  completeGithubDelivery,
  githubEventKey,
  pruneGithubDeliveries,
} from "./github-deliveries.js";
