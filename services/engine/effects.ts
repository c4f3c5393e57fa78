/**
 * The effects the engine asks for, as data. The runner performs them and reports their results
 * back as events (docs/merge-queue.md "Events and effects"). Times are epoch milliseconds UTC.
 */
import type { MergeMethodSetting } from "../config/index.js";

/**
 * One failed batch a sub-batch descends from, in a batch's metadata for CI (batch-metadata.ts;
 * docs/merge-queue.md "Batch metadata for CI"): its check's pull request and the pull requests it checked.
 */
export interface FailedBatchMetadata {
  /** The failed batch's draft pull request (null when it was checked in place or never created). */
  draft_pr_number: number | null;
  /** The same number, under the name the compatible service moved to. */
  batch_pr_number: number | null;
  checked_pull_requests: number[];
}

/** The metadata of one check attempt for CI (batch-metadata.ts builds it). */
export interface BatchMetadata {
  /** The commit the speculative branch is built on (the base, or the check ahead with fast-forward). */
  checking_base_sha: string;
  base_ref: string;
  /** The base branch's tip as the queue knows it. */
  base_sha: string;
  batch_id: string;
  batch_name: string;
  queue_rule: string;
  /** Every pull request merged into the branch, in order: those of the batches ahead first. */
  pull_requests: {
    number: number;
    title: string;
    author: string;
    head_sha: string;
    scopes: string[];
    /** Part of a batch ahead (checked with this one, merged before it). */
    batch_ahead: boolean;
  }[];
  scopes: string[];
  all_scopes: boolean;
  /** The failed batches this one is bisecting, oldest first (empty for a batch as embarked). */
  previous_failed_batches: FailedBatchMetadata[];
}

/** A pull request to merge into a check branch or into the base, with the head SHA expected. */
export interface PullHead {
  number: number;
  headSha: string;
}

/**
 * Create (or force-move) `draftBranch` at `baseSha`, merge `pulls` in order (batches ahead, then
 * the batch's own), and open a draft pull request to `baseRef`. Results: speculative_check_created
 * or speculative_check_failed with the same `checkId`.
 */
export interface CreateSpeculativeCheckEffect {
  kind: "create_speculative_check";
  checkId: string;
  batchId: string;
  baseRef: string;
  baseSha: string;
  draftBranch: string;
  pulls: PullHead[];
  /** The batch's own pull requests (the tail of `pulls`). */
  ownPullNumbers: number[];
  /** Pull requests of the batches ahead included in the check. */
  aheadPullNumbers: number[];
  title: string;
  body: string;
  botAccount: string | null;
  /** The batch's metadata for CI (batch-metadata.ts); absent in effects stored before it existed. */
  metadata?: BatchMetadata;
  /**
   * The queue rule's merge_method (null: the repository's default), so that the forge can build a
   * check branch the landing accepts (GitHub: a linear one where the base requires linear history
   * or the batch lands by rebase; docs/github.md "Speculative branches"). Absent in effects stored
   * before it existed.
   */
  mergeMethod?: MergeMethodSetting | null;
}

/**
 * Check one pull request in place: update it with its base (`updateMethod`) when it is behind
 * `baseSha`, then let its own CI run. Results: speculative_check_created (with the new head SHA)
 * or speculative_check_failed.
 */
export interface StartInPlaceCheckEffect {
  kind: "start_in_place_check";
  checkId: string;
  batchId: string;
  baseRef: string;
  baseSha: string;
  pull: PullHead;
  updateMethod: "merge" | "rebase";
  botAccount: string | null;
}

/** Stop a check: close the draft (if any) and delete its branch. In place: nothing to close. */
export interface CancelSpeculativeCheckEffect {
  kind: "cancel_speculative_check";
  checkId: string;
  batchId: string;
  inPlace: boolean;
  draftBranch: string | null;
  draftNumber: number | null;
  reason: string;
}

/**
 * Merge a tested batch: move `baseRef` once, from `expectedBaseSha`, to a commit whose tree is
 * the tree of `checkSha` (the tested check), with one commit per pull request by `method`. Refuse
 * (merge_failed "base_moved") when the base is not at `expectedBaseSha`. `checkBaseSha` is the
 * base the check was built on. When `exactTree` is true the queue merged exactly the rest of the
 * checked pull requests since, so the new base tree must be the tree of `checkSha`; it is false
 * only where the configuration accepts untested combinations (reset_on_external_merge: never,
 * parallel or isolated modes, partitions). Results: merge_completed or merge_failed.
 */
export interface MergeBatchEffect {
  kind: "merge_batch";
  batchId: string;
  baseRef: string;
  pulls: PullHead[];
  /** null: the repository's default method, resolved by the forge (docs/configuration.md `merge_method`). */
  method: MergeMethodSetting | null;
  expectedBaseSha: string;
  checkBaseSha: string;
  checkSha: string;
  exactTree: boolean;
  /** The check's pull request (the draft, or the pull request in place). */
  checkPullRequest: number;
  inPlace: boolean;
  botAccount: string | null;
}

/**
 * Run the failed jobs of a check again on the same commit (docs/merge-queue.md "Verdicts from test
 * results": every failing test is known flaky). `number` is the check's pull request (the draft,
 * or the pull request in place), `draftBranch` the draft's branch (null in place). A resume finds
 * the jobs run again (a run ended after the failed run it replaces, `replacedEndedAt` by job,
 * else after `requestedAt`, both epoch ms) and does nothing. Result on failure:
 * check_rerun_failed; none otherwise (the jobs' new results come as check results).
 */
export interface RerunChecksEffect {
  kind: "rerun_checks";
  checkId: string;
  batchId: string;
  number: number;
  headSha: string;
  draftBranch: string | null;
  /** The failed checks (CI jobs) to run again. */
  checks: string[];
  requestedAt: number;
  /** When the failed run of each job ended (the forge's clock, epoch ms); absent in effects stored before it was kept. */
  replacedEndedAt?: Record<string, number>;
}

/** Close a pull request (a draft after its batch merged) and delete `deleteBranch` if not null. */
export interface ClosePullRequestEffect {
  kind: "close_pull_request";
  number: number;
  deleteBranch: string | null;
  reason: string;
}

/** Post a comment on a pull request (merge_queue.status_comments). */
export interface CommentEffect {
  kind: "comment";
  number: number;
  body: string;
}

/** Yardmaster's summary check run on a pull request's head; conclusion null = in progress. */
export interface PostSummaryCheckEffect {
  kind: "post_summary_check";
  number: number;
  headSha: string;
  conclusion: "success" | "failure" | "cancelled" | "neutral" | null;
  title: string;
  summary: string;
  /**
   * The first post of this stay in the queue (on entering it): the forge may create the run without
   * looking for an earlier one (docs/github.md "Request budget"; a run of an earlier stay is then
   * superseded by the new one, as a re-run is).
   */
  first?: true;
}

/** Add or remove labels (queued_label, checking_label, dequeued_label). */
export interface LabelsEffect {
  kind: "add_labels" | "remove_labels";
  number: number;
  labels: string[];
}

/** Deliver timer_fired `{key}` at `dueAt` (durable: a restart loses none). Same key = replace. */
export interface ScheduleTimerEffect {
  kind: "schedule_timer";
  key: string;
  dueAt: number;
}

/** Drop a scheduled timer (no longer needed). */
export interface CancelTimerEffect {
  kind: "cancel_timer";
  key: string;
}

/**
 * An activity log event: `type` and `metadata` exactly as events.proto; the envelope data the
 * engine knows (pull request, base ref, trigger). The runner adds id, received_at, repository
 * and the outcome. Times inside metadata are RFC 3339 strings (UTC).
 */
export interface LogEffect {
  kind: "log";
  type: string;
  pullRequest: number | null;
  baseRef: string | null;
  trigger: string;
  metadata: Record<string, unknown>;
}

/** Every effect. */
export type EngineEffect =
  | CreateSpeculativeCheckEffect
  | StartInPlaceCheckEffect
  | CancelSpeculativeCheckEffect
  | MergeBatchEffect
  | RerunChecksEffect
  | ClosePullRequestEffect
  | CommentEffect
  | PostSummaryCheckEffect
  | LabelsEffect
  | ScheduleTimerEffect
  | CancelTimerEffect
  | LogEffect;

/** Trigger of events the engine starts by itself. */
export const INTERNAL_TRIGGER = "merge queue internal";
