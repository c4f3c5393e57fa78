/** Public surface of services/store (PostgreSQL). */
export { openDatabase, withTransaction, type Database, type Pool, type PoolClient } from "./database.js";
export { freePort, startEmbeddedPostgres } from "./embedded-postgres.js";
export { FreshRead } from "./fresh-read.js";
export { migrate } from "./migrate.js";
export { appendToOutbox, oldestAssignedInOutbox, outboxSize, type EventRow, type StoredEventRow } from "./outbox.js";
export { startOutboxRelay, type EventSink, type OutboxRelay } from "./outbox-relay.js";
export { deletePause, getPause, setPause, type PauseRow } from "./pause.js";
export { createFreeze, deleteFreeze, listFreezes, updateFreeze, type FreezeAttributes, type FreezeRow } from "./scheduled-freezes.js";
export { findToken, insertToken, listTokens, revokeToken, type TokenRow } from "./tokens.js";
export { deliverEvents, type DeliveryResult } from "./deliveries.js";
export * from "./queue/index.js";
export * as localForgeStore from "./local-forge/index.js";
export { PRODUCT_DEFAULTS, productStates, setProductEnabled, type ProductName } from "./products.js";
export { claimGithubDelivery, completeGithubDelivery, GITHUB_CLAIM_TIMEOUT_MS, pruneGithubDeliveries, releaseGithubDelivery } from "./github-deliveries.js";
