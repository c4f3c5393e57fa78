/**
 * The local forge's tables (migration 0003_local_forge.sql; docs/local-forge.md "Tables"): one
 * function per statement, every parameter cast. Re-exported by services/store as `localForgeStore`.
 */
export type { Queryable } from "./queryable.js";
export {
  insertLocalRepository,
  findLocalRepository,
  listLocalRepositories,
  lockLocalRepository,
  takePullRequestNumber,
  type LocalRepositoryRow,
} from "./repositories.js";
export {
  ensureLocalUser,
  findLocalUser,
  setLocalUserPermission,
  type LocalPermission,
  type LocalUserRow,
} from "./users.js";
export {
  insertPullRequest,
  findPullRequest,
  listPullRequests,
  openPullsWithHead,
  openPullsWithBase,
  setPullRequestHead,
  editPullRequest,
  touchPullRequest,
  closePullRequestRow,
  markPullRequestMerged,
  type NewPullRequest,
  type PullRequestRow,
  type PullState,
} from "./pull-requests.js";
export { ensureLabel, attachLabel, detachLabel, labelsOfPullRequest, type LabelRow } from "./labels.js";
export {
  assigneesOfPullRequest,
  requestedReviewersOfPullRequest,
  requestReviewer,
  dropReviewRequest,
} from "./people.js";
export { insertReview, reviewsOfPullRequest, type LocalReviewState, type ReviewRow } from "./reviews.js";
export { insertComment, commentsOfPullRequest, findCommentContaining, type CommentRow } from "./comments.js";
export {
  insertRefIntent,
  deleteRefIntents,
  countRefIntentsAfterLock,
  repositoriesWithRefIntents,
  lockRefIntents,
  type RefIntent,
  type RefIntentRow,
} from "./ref-journal.js";
export { insertForgeEvents, storedForgeEvents, deleteForgeEvents, type StoredForgeEvent } from "./forge-events.js";
export {
  insertCheckRun,
  updateCheckRun,
  findCheckRun,
  findNewestCheckRun,
  newestCheckRunsOfCommit,
  checkRunsOfCiJob,
  cancelCheckRunsOfCiJobs,
  type CheckRunChange,
  type CheckRunRow,
  type NewCheckRun,
} from "./check-runs.js";
export {
  insertCiJob,
  hasLiveCiJob,
  cancelCiJobsOfBranch,
  cancelCiJobsOfCommit,
  claimCiJob,
  renewCiJobLease,
  finishCiJob,
  releaseCiJob,
  findCiJob,
  ciJobsOfCommit,
  type CiJobRow,
  type CiJobState,
} from "./ci-jobs.js";
export { addAssignee, dismissReviewsInStates, removeAssignee, setPullRequestDraft } from "./pull-workflow.js";
