/**
 * A what-if on recorded traffic as a task for a worker thread (docs/what-if.md "Bounds"): a
 * month of a busy repository is tens of thousands of engine events per configuration, seconds of
 * CPU that must not hold the server's event loop; in a thread it also stops at its pool's time
 * limit.
 */
import { replayTraffic, type ConfigurationInput, type TrafficInput, type QueueOutcome } from "../engine/index.js";

/** What crosses to the thread (structured clone: plain data). */
export interface TrafficTask {
  input: TrafficInput;
  config: ConfigurationInput;
}

/** Replays the traffic under the configuration (engine/simulation/traffic-replay.ts). */
export function simulateTraffic(task: TrafficTask): QueueOutcome {
  return replayTraffic(task.input, task.config);
}
