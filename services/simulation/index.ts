/**
 * Public surface of the virtual-time simulation (services/simulation): the engine driven by a
 * virtual forge and an event heap instead of the runner and a clock. Used by the what-if on drawn
 * traffic (`simulateQueue`), the traffic simulation of a repository's recorded traffic
 * (`simulateTraffic`, docs/what-if.md) and the benchmark's harness (docs/benchmarks.md). Pure like
 * the engine: no I/O, no clock, no randomness but its seeded generator.
 */
export {
  Simulation,
  constantMinutes,
  type SimulationSetup,
  type SimulationStep,
  type PullFate,
  type RunHooks,
} from "./simulate.js";
export { reportOf, simulateQueue, type WhatIfOptions, type WhatIfReport } from "./what-if.js";
export { defaultQueueRule, queueConfiguration } from "./configurations.js";
export { TestOutcomes, type TestWorkload, type RunOutcome } from "./test-workload.js";
export type { DurationModel, ForgeStats } from "./simulation-types.js";
export {
  simulateTraffic,
  nearestRank,
  type TrafficArrival,
  type TrafficInput,
  type QueueOutcome,
} from "./traffic-simulation.js";
