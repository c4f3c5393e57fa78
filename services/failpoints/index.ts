/**
 * Public surface of services/failpoints: named failpoints for fault tests (docs/reliability.md
 * "Failpoints"). Imports nothing of the project, so any layer but the pure engine may use it.
 */
export {
  armFailpoint,
  armFailpointsFromEnvironment,
  disarmAll,
  disarmFailpoint,
  failpoint,
  FailpointError,
  FAILPOINTS_VARIABLE,
  type FailpointCallback,
} from "./registry.js";
export { FailpointSpecError, parseFailpointSpec, type FailpointAction, type FailpointTerm } from "./grammar.js";
export { FAILPOINT_NAMES } from "./names.js";
