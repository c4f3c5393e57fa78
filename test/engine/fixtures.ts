/**
 * What engine tests import, in one place: the named builders (scenario-builders.ts), the harness
 * that drives the engine event by event (queue-harness.ts), and the state and effects rendered as
 * readable lines (state-lines.ts).
 */
export {
  batchOf,
  configuration,
  minutes,
  pauseEvent,
  queuedPull,
  queueRule,
  sha,
  T0,
  unpauseEvent,
} from "./scenario-builders.js";
export { QueueHarness } from "./queue-harness.js";
export { describeEffects, describeState, STORY } from "./state-lines.js";
