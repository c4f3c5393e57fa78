/**
 * The local forge's git layer: typed operations on bare repositories with the `git` binary, none
 * needing a work tree. Every function takes a {@link BareRepo} first and throws only ForgeError
 * (services/forge/types.ts). Guide: docs/local-forge.md.
 */
export {
  repositoryPath,
  parseRepoName,
  openRepository,
  getDefaultBranch,
  setDefaultBranch,
  type BareRepo,
  type RefMoveObserver,
} from "./bare-repo.js";
export {
  createRepository,
  importRepository,
  type CreateRepositoryInput,
  type ImportRepositoryInput,
  type ImportedRepository,
} from "./create-repository.js";
export {
  ZERO_SHA,
  branchRef,
  validateBranchName,
  validateRefName,
  resolveCommit,
  findCommit,
  getBranchSha,
  findBranchSha,
  readRef,
  listBranches,
  compareAndSwapRef,
  setBranch,
  deleteBranch,
  type BranchTip,
} from "./refs.js";
export { readFile, readFileBlob, type FileBlob } from "./read-file.js";
export { rememberForCommits } from "./commit-memo.js";
export { validateFilePath } from "./file-path.js";
export {
  commitFiles,
  commitToBranch,
  type FileChange,
  type CommitFilesInput,
  type CommitToBranchInput,
} from "./commit-files.js";
export { readCommit, readCommits, parseCommit, type CommitDetails } from "./commit-object.js";
export { writeCommit, writeYardmasterCommit, treeOf, emptyTree, type NewCommit } from "./write-commit.js";
export { YARDMASTER_IDENTITY, datedIdentity, type GitIdentity, type DatedIdentity } from "./identity.js";
export { mergeCommits, mergeCommitsWithBase, hasConflict, type TreeMerge } from "./merge-tree.js";
export { createMergeCommit, type MergeCommitInput } from "./merge-commit.js";
export { MergeConflictError, isMergeConflict } from "./errors.js";
export { commitsToReplay, replayCommits, type Replay } from "./replay-commits.js";
export { cherryPickCommits, squashHead, type CherryPick } from "./cherry-pick.js";
export { createSpeculativeBranch, buildSpeculativeChain, type SpeculativePull } from "./speculative-branch.js";
export { applyPull, type PullToMerge, type MergedPull } from "./merge-methods.js";
export {
  mergePullRequests,
  mergePullRequest,
  type PullToMergeGuarded,
  type MergePullRequestsInput,
  type MergePullRequestInput,
  type MergeOutcome,
} from "./merge-pull-requests.js";
export { updateHeadWithBase, type UpdateHeadInput } from "./update-head.js";
export { fastForwardBranch } from "./fast-forward.js";
export { mergeBase, isAncestor, commitsBehind, commitsAhead, commitsBetween } from "./ancestry.js";
export { commitsContainedIn } from "./contained-tips.js";
export { diffFacts, diffBetween, type DiffFacts } from "./diff-facts.js";
export { pullRequestFacts, type PullRequestGitFacts } from "./pull-facts.js";
export { fetchCommit } from "./fetch-commit.js";
export { addNote } from "./notes.js";
export { GitCommandError, runGit, type GitRunOptions, type GitOutput } from "./git-command.js";
