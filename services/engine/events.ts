/**
 * The events the engine consumes: facts the runner observed on the forge, CI results, timers and
 * user requests (docs/merge-queue.md "Events and effects"). Each is validated with zod before anything
 * changes; a bad event throws {@link EngineInputError} naming the field, and the state is untouched.
 * Conditions are never evaluated here: the runner sends their results (queue rule, priority,
 * merge conditions as true / false / "pending").
 */
import { z } from "zod";
import { CHECK_STATES } from "../config/index.js";
import type { ConfigurationInput } from "./config.js";
import { riskSignalsSchema } from "./risk.js";
import { checkRerunFailedSchema, testFactsSchema } from "./test-facts.js";

/** A bad event: `path` names the field ("pull.headSha"), `message` says what is wrong. */
export class EngineInputError extends Error {
  override readonly name = "EngineInputError";
  /** Answered as a refusal of the request in the queue's present state (docs/errors.md). */
  readonly errorKind: "failed_precondition" | "not_found" = "failed_precondition";
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(path ? `${path}: ${message}` : message);
  }
}

const number = z.number().int().nonnegative();
/** Hex commit SHA (SHA-1 or SHA-256, abbreviated forms refused below 7). */
const sha = z.string().regex(/^[0-9a-f]{7,64}$/, "must be a hexadecimal commit SHA");
const queueCheck = z.object({
  name: z.string(),
  description: z.string(),
  url: z.string().nullable(),
  state: z.enum(CHECK_STATES),
  avatar_url: z.string().nullable(),
});
const hostLabel = z.object({ id: z.number().int(), name: z.string(), color: z.string(), default: z.boolean() });
const truth = z.union([z.literal(true), z.literal(false), z.literal("pending")]);
/** An evaluated conditions tree as events.proto `ConditionEvaluation` JSON (kept for the leave event). */
const evaluation = z.record(z.string(), z.unknown());
/** Who paused or unpaused (optional; the pause endpoints log it, the engine does not need it). */
const actor = z
  .object({ type: z.enum(["application", "user"]), id: z.union([z.number().int(), z.string()]), name: z.string() })
  .optional();

/** What the runner resolved for a pull request entering the queue. */
const queuedPull = z.object({
  number,
  title: z.string(),
  url: z.string(),
  author: z.object({ id: z.number().int(), login: z.string().min(1) }),
  labels: z.array(z.string()),
  /** The hosting platform's labels (id, colour), shown by the status view; default none known. */
  hostLabels: z.array(hostLabel).default([]),
  headSha: sha,
  /** Base branch name. */
  baseRef: z.string().min(1).max(255),
  /** Tip of the base branch when the runner looked (initialises a new train). */
  baseSha: sha,
  /** The queue rule it enters (the first whose queue_conditions match, or the one named by the command). */
  queueRule: z.string().min(1),
  /** 1-10000, from the first matching priority rule (2000 when none). */
  priority: z.number().int().min(1).max(10000),
  priorityRuleName: z.string().nullable(),
  /** allow_checks_interruption of the matching priority rule. */
  allowChecksInterruption: z.boolean(),
  /** Scopes it touches (files source or manual); [] when scopes are not configured. */
  scopes: z.array(z.string()),
  /** Touches barrier files: it is checked alone, after everything ahead. */
  allScopes: z.boolean().default(false),
  /** Partitions whose conditions it matches (docs/domain.md §1.5); [] without partitions. */
  partitions: z.array(z.string()).default([]),
  /** `Depends-On` predecessors. */
  dependsOn: z.array(number).default([]),
  /** Why merge protections hold it (docs/merge-protections.md "The queue"); null when they do not. */
  protectionsHold: z.string().max(1000).nullable().default(null),
  /** Its own signals of failure risk (risk.ts, docs/merge-queue.md "Risk-aware batching"); null when none are known. */
  risk: riskSignalsSchema.nullable().default(null),
});

const schemas = {
  configuration_changed: z.object({
    type: z.literal("configuration_changed"),
    config: z.custom<ConfigurationInput>(
      (v) =>
        typeof v === "object" &&
        v !== null &&
        Array.isArray((v as ConfigurationInput).queue_rules) &&
        typeof (v as ConfigurationInput).merge_queue === "object",
      "must hold queue_rules (array) and merge_queue (object)",
    ),
  }),
  pull_request_queued: z.object({
    type: z.literal("pull_request_queued"),
    pull: queuedPull,
    trigger: z.string().min(1),
  }),
  pull_request_updated: z.object({ type: z.literal("pull_request_updated"), number, headSha: sha }),
  pull_request_closed: z.object({ type: z.literal("pull_request_closed"), number }),
  pull_request_base_changed: z.object({
    type: z.literal("pull_request_base_changed"),
    number,
    baseRef: z.string().min(1).max(255),
  }),
  pull_request_merged_externally: z.object({ type: z.literal("pull_request_merged_externally"), number }),
  queue_conditions_evaluated: z.object({
    type: z.literal("queue_conditions_evaluated"),
    number,
    result: truth,
    /** The pull request's labels as read with the conditions, to keep the status view current. */
    labels: z.array(z.string()).optional(),
    hostLabels: z.array(hostLabel).optional(),
    /** The queue conditions as evaluated, shown by the leave event (`conditions_evaluation`). */
    evaluation: evaluation.optional(),
  }),
  speculative_check_created: z.object({
    type: z.literal("speculative_check_created"),
    checkId: z.string().min(1),
    pullRequestNumber: number,
    headSha: sha,
  }),
  speculative_check_failed: z.object({
    type: z.literal("speculative_check_failed"),
    checkId: z.string().min(1),
    /** protection: the platform would refuse to land the batch (INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS). */
    reason: z.enum(["conflict_with_base", "conflict_with_pull_ahead", "branch_update_failed", "protection", "error"]),
    pullRequest: number.nullable(),
    message: z.string(),
  }),
  speculative_check_closed: z.object({ type: z.literal("speculative_check_closed"), checkId: z.string().min(1) }),
  speculative_check_edited: z.object({
    type: z.literal("speculative_check_edited"),
    checkId: z.string().min(1),
    headSha: sha,
  }),
  check_results: z.object({
    type: z.literal("check_results"),
    checkId: z.string().min(1),
    conditions: truth,
    checks: z.array(queueCheck),
    /** Per member (pull request number as a string): the merge conditions as evaluated, for the leave event. */
    evaluations: z.record(z.string(), evaluation).optional(),
    /**
     * With conditions false: they are false only because of time-based conditions (`schedule`,
     * `current-time`...), and all hold from this instant (epoch ms, UTC). The check then waits for
     * it (`waiting_schedule`) instead of failing.
     */
    scheduleOpensAt: z.number().int().nonnegative().nullable().optional(),
    /**
     * With scheduleOpensAt: the members (pull request number as a string) whose own merge
     * conditions are false only because of time, each with the instant they hold (epoch ms, UTC).
     * Members not named here could merge now (they give way: docs/merge-queue.md rule 5). Absent:
     * every member waits until scheduleOpensAt.
     */
    scheduleBlocked: z
      .record(z.string().regex(/^[1-9][0-9]*$/), z.number().int().nonnegative())
      .nullable()
      .optional(),
    /**
     * What holds the check with scheduleOpensAt: "schedule" (default: the merge conditions' time leaves,
     * `waiting_schedule`) or "freeze" (a scheduled freeze holds some members, `frozen`; docs/scheduled-freeze.md).
     * A freeze hold may also come for a check that passed and has not begun to merge; conditions true then releases it.
     */
    holdKind: z.enum(["schedule", "freeze"]).optional(),
    /** With a freeze hold: an open-ended freeze holds it, so scheduleOpensAt is only when the runner looks again (no merge estimate). */
    holdOpenEnded: z.boolean().optional(),
    tests: testFactsSchema.optional(),
  }),
  check_rerun_failed: checkRerunFailedSchema,
  merge_completed: z.object({ type: z.literal("merge_completed"), batchId: z.string().min(1), newBaseSha: sha }),
  merge_failed: z.object({
    type: z.literal("merge_failed"),
    batchId: z.string().min(1),
    /**
     * conflict: a pull request does not apply; base_moved: the base is not where the batch was
     * checked; head_moved: a pull request's head moved after its check (the forge refused it:
     * PULL_REQUEST_UPDATED); protection: the platform's branch protection, rules or merge settings
     * refused the merge (INCOMPATIBILITY_WITH_BRANCH_PROTECTIONS, the platform's message kept);
     * stale_check: the platform accepts only a check built on the base's current tip (GitHub's
     * "require branches to be up to date"), so the batch is checked again; error: anything else.
     */
    reason: z.enum(["conflict", "base_moved", "head_moved", "protection", "stale_check", "error"]),
    /** The pull request that failed to merge, when known. */
    pullRequest: number.nullable(),
    /** The base tip the runner found (required to act on "base_moved"). */
    currentBaseSha: sha.nullable(),
    message: z.string(),
  }),
  base_branch_moved: z.object({ type: z.literal("base_branch_moved"), branch: z.string().min(1), sha }),
  base_branch_deleted: z.object({ type: z.literal("base_branch_deleted"), branch: z.string().min(1) }),
  timer_fired: z.object({ type: z.literal("timer_fired"), key: z.string().min(1) }),
  pause: z.object({
    type: z.literal("pause"),
    reason: z.string().min(1).max(255),
    actor,
    /** When the pause endpoint paused the queue (epoch ms, UTC): the engine's pause keeps the API's own time. */
    pausedAt: z.number().int().nonnegative().optional(),
  }),
  unpause: z.object({ type: z.literal("unpause"), actor }),
  /** Pull requests that gave way to a scheduled freeze which no longer holds them (it ended early, was deleted or changed). */
  freeze_released: z.object({ type: z.literal("freeze_released"), numbers: z.array(number).max(10_000) }),
  dequeue_requested: z.object({
    type: z.literal("dequeue_requested"),
    number,
    trigger: z.string().min(1),
    source: z.enum(["api", "command"]),
  }),
  /** The merge protections' verdict on a queued pull request: `hold` says why they hold it, null when they do not. */
  merge_protections_evaluated: z.object({
    type: z.literal("merge_protections_evaluated"),
    number,
    hold: z.string().max(1000).nullable(),
  }),
  /** New scopes for a queued pull request (sent by CI: docs/merge-queue.md "Scopes from CI"). */
  pull_request_scopes_changed: z.object({
    type: z.literal("pull_request_scopes_changed"),
    number,
    scopes: z.array(z.string().min(1).max(255)).max(100),
    allScopes: z.boolean(),
  }),
  /** The merge_queue product was disabled: every queued pull request leaves (PR_DEQUEUED). */
  merge_queue_disabled: z.object({ type: z.literal("merge_queue_disabled"), trigger: z.string().min(1) }),
} as const;

type Schemas = typeof schemas;
/** Event type names. */
export type EngineEventType = keyof Schemas;

/**
 * One event. Fields per type:
 * - configuration_changed `{config}`: sections of the effective configuration (config.ts).
 * - pull_request_queued `{pull, trigger}`: entering (or re-queueing; same rule and priority = no-op).
 * - pull_request_updated `{number, headSha}`: a push to the head outside the queue.
 * - pull_request_closed `{number}`; pull_request_merged_externally `{number}` (PR_MANUALLY_MERGED).
 * - pull_request_base_changed `{number, baseRef}`: the pull request now targets another branch (BASE_BRANCH_CHANGED).
 * - queue_conditions_evaluated `{number, result, labels?, hostLabels?, evaluation?}`: false dequeues
 *   (PR_DEQUEUED), "pending" keeps; labels given refresh the ones shown; the evaluated tree is
 *   kept for the leave event's `conditions_evaluation`.
 * - speculative_check_created `{checkId, pullRequestNumber, headSha}`: the draft (or the updated
 *   pull request, in place) exists; CI runs on `headSha`.
 * - speculative_check_failed `{checkId, reason, pullRequest, message}`: creation failed.
 * - speculative_check_closed `{checkId}`: someone closed the draft (BATCH_PULL_REQUEST_CLOSED).
 * - speculative_check_edited `{checkId, headSha}`: commits the queue did not make reached the draft's
 *   branch, which now points at `headSha` (DRAFT_PULL_REQUEST_CHANGED unless allow_queue_branch_edit).
 * - check_results `{checkId, conditions, checks, evaluations?, scheduleOpensAt?, scheduleBlocked?, holdKind?, holdOpenEnded?, tests?}`:
 *   merge_conditions evaluated on the check's pull request (`evaluations`: each member's evaluated
 *   tree, kept for its leave event; `scheduleOpensAt`: false only until then, because of
 *   time-based conditions or a scheduled freeze (`holdKind`; `holdOpenEnded`: one without an
 *   end); `scheduleBlocked`: which members that holds for, and until when; `tests`, check_rerun_failed: test-facts.ts).
 * - merge_completed `{batchId, newBaseSha}` / merge_failed `{batchId, reason, pullRequest, currentBaseSha, message}`.
 * - base_branch_moved `{branch, sha}`: a push to a base branch (the queue's own or external).
 * - base_branch_deleted `{branch}`: the base branch is gone (BASE_BRANCH_MISSING).
 * - timer_fired `{key}`; pause `{reason, actor?, pausedAt?}` (again: a new reason; `pausedAt` the
 *   pause endpoint's own time, else now); unpause `{actor?}`.
 * - freeze_released `{numbers}`: those that gave way to a scheduled freeze may embark again now
 *   (docs/scheduled-freeze.md); others named are ignored.
 * - dequeue_requested `{number, trigger, source}`: API or `@yardmaster dequeue`.
 * - merge_protections_evaluated `{number, hold}`: merge protections hold it (`hold`, why) or not
 *   (null); a held pull request is not embarked, and its batch, if any, stops
 *   (docs/merge-protections.md "The queue").
 * - pull_request_scopes_changed `{number, scopes, allScopes}`: its scopes changed; a batch holding
 *   it stops (BATCH_SCOPES_CHANGED) and it is embarked again with them.
 * - merge_queue_disabled `{trigger}`: every queued pull request leaves (PR_DEQUEUED).
 */
export type EngineEvent = { [K in EngineEventType]: z.output<Schemas[K]> }[EngineEventType];
/** An event as callers may write it (fields with defaults may be left out). */
export type EngineEventInput = { [K in EngineEventType]: z.input<Schemas[K]> }[EngineEventType];
/** The event of one type. */
export type EventOf<K extends EngineEventType> = z.output<Schemas[K]>;
/** Input form of `pull_request_queued.pull` (defaults may be left out). */
export type QueuedPullInput = z.input<typeof queuedPull>;

/**
 * Validates an event and fills its defaults.
 * @throws EngineInputError naming the first bad field (e.g. "pull.headSha: must be a hexadecimal commit SHA").
 */
export function parseEvent(input: unknown): EngineEvent {
  if (typeof input !== "object" || input === null) throw new EngineInputError("", "an event must be an object");
  const type = (input as { type?: unknown }).type;
  if (typeof type !== "string" || !(type in schemas)) {
    throw new EngineInputError(
      "type",
      `unknown event type ${JSON.stringify(type)}; expected one of ${Object.keys(schemas).join(", ")}`,
    );
  }
  const result = schemas[type as EngineEventType].safeParse(input);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    throw new EngineInputError(issue.path.join("."), issue.message);
  }
  return result.data as EngineEvent;
}
