/**
 * A what-if on recorded traffic as a task for a worker thread (docs/what-if.md "Bounds"): a
 * month of a busy repository is tens of thousands of engine events per configuration, seconds of
 * CPU that must not hold the server's event loop; in a thread it also stops at its pool's time
 * limit.
 */
import type { ConfigurationInput } from "../engine/index.js";
import { simulateTraffic, type QueueOutcome, type TrafficInput } from "../simulation/index.js";

/** What crosses to the thread (structured clone: plain data). */
export interface TrafficTask {
  input: TrafficInput;
  config: ConfigurationInput;
}

/** Simulates the traffic under the configuration (simulation/traffic-simulation.ts). */
export function trafficTask(task: TrafficTask): QueueOutcome {
  return simulateTraffic(task.input, task.config);
}
