/** Public surface of services/metrics: the registry of the process and the figures it is told. */
export { createMetrics, MAX_BRANCH_SERIES, OTHER_BRANCH, type Metrics } from "./metrics.js";
export type { OutboxFigures, Protocol, QueueFigures, ReplicaFigures, RequestFigures } from "./figures.js";
export { MAX_REPOSITORY_SERIES } from "./replica-gauges.js";
export type { CiInsightsMetrics } from "./ci-insights-metrics.js";
