/**
 * The configuration module's public surface: the queue engine, the simulator service and the
 * forge's command handling import only from here. Pure TypeScript, no I/O (another repository's
 * configuration for `extends` is read through the loader the caller passes).
 *
 * - Loading: {@link loadConfiguration} (YAML -> validated, merged, defaulted {@link Configuration},
 *   errors with path/line/column, deprecations), within the limits of load/limits.ts.
 *   docs/configuration.md.
 * - Conditions: {@link parseCondition}, {@link parseConditionList}, {@link attributesOf},
 *   {@link evaluateConditions}, {@link renderChecklist}, {@link conditionsEvaluationJson},
 *   {@link parseDependsOn} / {@link dependsOnConditions}, {@link branchProtectionConditions}.
 *   docs/conditions.md.
 * - Queue choice: {@link chooseQueueRule}, {@link priorityOf}.
 * - Simulator: {@link simulatePullRequestSummary}, {@link simulateRepositorySummary},
 *   {@link unusedSections}, {@link queueRuleApiConfig}, {@link queueRulesApiConfiguration}.
 */
export type {
  Condition,
  ConditionGroup,
  ConditionLeaf,
  ConditionValue,
  ConfigError,
  Configuration,
  DeprecationFinding,
  EvaluatedCondition,
  MergeQueueConfig,
  Operator,
  PriorityRuleConfig,
  PullRequestRuleConfig,
  QueueRuleConfig,
  Schedule,
  Truth,
} from "./model.js";

export { loadConfiguration, type LoadOptions, type LoadResult } from "./load/load.js";
export { formatConfigError, formatPath } from "./load/issues.js";
export {
  byteLength,
  MAX_ALIAS_EXPANSION,
  MAX_ALIASES,
  MAX_CONFIGURATION_BYTES,
  MAX_DEPTH,
  MAX_NODES,
  MAX_REPORTED_DEPRECATIONS,
  MAX_REPORTED_ERRORS,
} from "./load/limits.js";
export { DEFAULT_PRIORITY } from "./load/defaults.js";
export { DEPRECATED_ATTRIBUTES, DEPRECATED_KEYS, findDeprecations, UNDATED_DEADLINE } from "./deprecations.js";

export { ConditionError, parseCondition } from "./conditions/leaf-parser.js";
export { isKnownTimeZone, wallClock, zonedToUtc } from "./conditions/zones.js";
export { parseConditionList, type ConditionIssue } from "./conditions/tree.js";
export { evaluateCondition, evaluateConditions } from "./conditions/evaluate.js";
/** What evaluations read: see conditions/context.ts. */
export type {
  AttributeValue,
  CommitAttributes,
  EvaluationContext,
  PullRequestAttributes,
} from "./conditions/context.js";
export { attributesOf, CONFIGURATION_FILES, type QueueContext } from "./conditions/attributes-of.js";
export { conditionLabel, leafToString } from "./conditions/format.js";
export { renderBatchChecklist, renderChecklist } from "./conditions/render.js";
export {
  conditionEvaluationEventJson,
  conditionsEvaluationJson,
  type ConditionEvaluationEventJson,
  type ConditionsEvaluationJson,
} from "./conditions/json.js";
export { dependsOnConditions, parseDependsOn, type Dependency } from "./conditions/depends-on.js";
export {
  BRANCH_PROTECTION_DESCRIPTION,
  branchProtectionConditions,
  type BranchProtectionRules,
} from "./conditions/branch-protection.js";
export {
  DEFINITIVE_CODES,
  DEQUEUE_REASON_VALUES,
  MERGED_CODES,
  REEMBARKED_CODES,
  type AbortCode,
  type DefinitiveCode,
  type DequeueCode,
  type ReembarkedCode,
} from "./conditions/dequeue-codes.js";

export { simulatePullRequestSummary, simulateRepositorySummary, type SimulationSummary } from "./simulator/summary.js";
export { chooseQueueRule, priorityOf } from "./simulator/queue-choice.js";
export { PRODUCTS, type Product, unusedSections, type UnusedSection } from "./simulator/unused-sections.js";
export {
  queueRuleApiConfig,
  queueRulesApiConfiguration,
  type QueueRuleApiConfig,
  type RunningSettings,
} from "./simulator/queue-rule-api.js";
export { DOCS_BASE_URL } from "./docs-url.js";
export { parseDuration, DurationError } from "./duration.js";
export { CHECK_STATES, FAILURE_CHECK_STATES, isFailureCheckState, type CheckState } from "./conditions/check-states.js";
export type {
  CheckRun,
  CommitInfo,
  Permission,
  PullRequestSnapshot,
  RepoName,
  Review,
  ReviewState,
  Sha,
} from "./conditions/pull-request-facts.js";
export {
  chooseRule,
  choosePriority,
  evaluateFor,
  partitionsOf,
  ruleConditions,
  scopesOf,
  type Protection,
} from "./rules/rule-evaluation.js";
export {
  anyActive,
  compileFreeze,
  freezeHold,
  freezeMatches,
  isActive,
  type CompiledFreeze,
  type FreezeHold,
  type FreezeSource,
} from "./rules/freeze-hold.js";
export { HORIZON_MS, scheduleVerdict, type ScheduleVerdict } from "./rules/schedule-verdict.js";
export { BASE_FACTS, COMMENT_FACTS, rulesReadAttributes } from "./rules/rule-attributes.js";
export type { MergeMethodSetting, PartitionRuleConfig, ScopesConfig } from "./model.js";
export { renderTemplate, TemplateError, type TemplateVariables } from "./templates/template.js";
export { templateVariables } from "./templates/variables.js";
export { TEMPLATED_OPTIONS } from "./templates/template-issues.js";
export {
  outputLimitOf,
  TEMPLATE_STEP_LIMIT,
  TEMPLATE_WRITE_LIMIT,
  type OutputLimit,
} from "./templates/template-limits.js";
export {
  needsBoundedRender,
  planAction,
  postCheckConclusion,
  postCheckFromPlan,
  postCheckVerdict,
  pullRulesWakeUp,
  QUEUE_ACTIONS,
  ruleMatches,
  type PlannedAction,
  type PostCheckConclusion,
  type PostCheckVerdict,
} from "./rules/pull-rule-actions.js";
export { plannedActionsMarkdown } from "./simulator/planned-actions.js";
export {
  evaluateProtections,
  type DependencyFact,
  type ProtectionsInput,
  type ProtectionState,
  type ProtectionsVerdict,
  type RuleVerdict,
} from "./protections/verdict.js";
export { parseMergeAfter, type MergeAfter } from "./protections/built-ins.js";
