/** The queue runner's tables. */
export { activeRepositories } from "./active-repositories.js";
export { baseRefsInWindow, recordBaseRefActivity } from "./base-ref-activity.js";
export { addEffects, deleteEffect, dueEffects, markEffectStarted, postponeEffect, type EffectRow } from "./effects.js";
export { addToInboxOnce, INBOX_KEY_RETENTION_MS, pruneInboxKeys } from "./inbox-keys.js";
export { addToInbox, deleteInbox, repositoriesWithWork, setAsideInput, takeInbox, type InboxRow } from "./inbox.js";
export {
  batchOfCheckBranch,
  holdsRepositorySessionLock,
  loadQueueState,
  loadQueueStateIfChanged,
  lockRepository,
  lockRepositorySession,
  saveQueueState,
  tryLockRepositorySession,
  unlockRepositorySession,
} from "./queue-state.js";
export { getStoredConfig, putStoredConfig, type StoredConfigFile } from "./repository-config.js";
export { cancelTimer, claimDueTimers, nextTimerDue, setTimer } from "./timers.js";
export { deleteQueueRequest, listQueueRequests, putQueueRequest, type QueueRequest } from "./queue-requests.js";
export { pauseWithPendingInput, repositoriesPausedDifferently } from "./pause-agreement.js";
export {
  claimPullRuleAction,
  listPullRuleActions,
  loadLabelFlips,
  loadPullRuleStates,
  recordPullRuleOutcome,
  saveLabelFlips,
  savePullRuleState,
  type LabelFlips,
  type PullRuleActionKey,
  type PullRuleState,
} from "./pull-rules.js";
export {
  lastProtectionReport,
  protectionDependents,
  replaceProtectionDependencies,
  saveProtectionReport,
  type ProtectionReport,
} from "./merge-protections.js";
export { pullRequestScopes, putPullRequestScopes, type SentScopes } from "./pull-scopes.js";
