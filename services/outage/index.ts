/** Public surface of services/outage: what a database outage means to the service. */
export {
  CLICKHOUSE_UNAVAILABLE_CODES,
  DatabaseUnavailableError,
  isDatabaseUnavailable,
  RETRY_AFTER_SECONDS,
  unavailableDatabase,
  type DatabaseName,
} from "./database-unavailable.js";
export { withDeadline } from "./deadline.js";
export { FailureStreak } from "./failure-streak.js";
export { retryWhileUnavailable, RETRY_MAX_DELAY_MS } from "./retry-unavailable.js";
