/** Public surface of services/contracts: FieldRule access and validation with named violations. */
export { ruleOf, type CompiledRule } from "./field-rule.js";
export { checkJson, INT_RANGES, isRfc3339, TIMESTAMP_RANGE_MS, type PresenceMode } from "./json-check.js";
export { checkMessageRules } from "./message-check.js";
export { isUuid } from "./scalar-rules.js";
export {
  childPath,
  invalidField,
  InvalidArgumentError,
  isInvalidArgumentError,
  throwIfViolations,
  violationsOf,
  type FieldViolation,
} from "./violation.js";
export {
  DOMAIN_ERROR_KINDS,
  DomainError,
  domainErrorOf,
  domainErrorToConnect,
  type DomainErrorKind,
  type DomainRefusal,
} from "./domain-error.js";
export { deepFreeze, isSharedMessage, shareMessage } from "./frozen-message.js";
