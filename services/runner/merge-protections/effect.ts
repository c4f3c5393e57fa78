/**
 * The merge protections report of one pull request (docs/merge-protections.md "The check"):
 * decided in a round (report.ts), stored in `queue_effects` with the engine's effects, performed
 * after the commit by the effects round: the check run `Yardmaster Merge Protections` on the head
 * (or, with `reporting_method: deployments` on a forge that has deployments, a deployment of that
 * name), and with `post_comment` a comment when the protections start failing. Its
 * `action.post_check` event (trigger `Merge protections`) is written in the transaction that
 * deletes the effect. Resumes are safe: the check run and the deployment are set, not added, and
 * the comment carries its key in a hidden marker looked for first.
 */
import { internalEventRow } from "../../activity-log/index.js";
import { isForgeError } from "../../forge/index.js";
import { appendToOutbox, type EventRow } from "../../store/index.js";
import { effectMarker } from "../effect-executor.js";
import { type EffectPerformer, isRetryable } from "../effect-journal.js";
import type { RunnerContext } from "../runner-context.js";

/** The name of the check run (and deployment environment) of merge protections. */
export const PROTECTIONS_CHECK_NAME = "Yardmaster Merge Protections";
/** The trigger of the events merge protections write. */
export const PROTECTIONS_TRIGGER = "Merge protections";

/** One report to post. */
export interface ProtectionsReportEffect {
  kind: "protections_report";
  /** `<repository>#<number>#protections#<seq>`: unique per report decided. */
  key: string;
  number: number;
  baseRef: string;
  headSha: string;
  conclusion: "success" | "failure" | "pending";
  title: string;
  summary: string;
  method: "check-runs" | "deployments";
  /** Whether to comment (post_comment, and the protections just started failing). */
  comment: boolean;
}

/** Whether a stored effect is a merge protections report. */
export function isProtectionsReport(e: { kind: string }): e is ProtectionsReportEffect {
  return e.kind === "protections_report";
}

/** The comment posted when the protections start failing. */
export function protectionsComment(effect: ProtectionsReportEffect): string {
  return `## ${PROTECTIONS_CHECK_NAME}\n\nThis pull request will not be merged until its merge protections succeed: ${effect.title.toLowerCase()}.\n\n${effect.summary}`;
}

/**
 * The effect journal's performer of merge protections reports (effect-journal.ts). A refusal of
 * the forge (not transient) is logged and becomes the event's `error`: the next report replaces
 * this one. The `action.post_check` event goes to the outbox in the transaction that deletes the
 * effect.
 */
export function protectionsPerformer(
  ctx: Pick<RunnerContext, "forge" | "now" | "log" | "eventsWritten">,
  repository: string,
): EffectPerformer<ProtectionsReportEffect, string | null> {
  return {
    async perform(effect, attempt) {
      try {
        await post(ctx, repository, effect, attempt.resumed);
        return null;
      } catch (e) {
        if (isRetryable(e) || !isForgeError(e)) throw e;
        ctx.log.warn({ repository, number: effect.number, err: e.message }, "the merge protections report was refused");
        return e.message;
      }
    },
    async record(tx, effect, error) {
      await appendToOutbox(tx, [reportEvent(ctx, repository, effect, error)]);
    },
    committed: () => ctx.eventsWritten(),
  };
}

/** The `action.post_check` event of a report (`error`: the forge's refusal, or null). */
function reportEvent(
  ctx: Pick<RunnerContext, "now">,
  repository: string,
  effect: ProtectionsReportEffect,
  error: string | null,
): EventRow {
  return internalEventRow({
    type: "action.post_check",
    repository,
    pullRequest: effect.number,
    baseRef: effect.baseRef,
    trigger: PROTECTIONS_TRIGGER,
    receivedAt: new Date(ctx.now()),
    metadata: {
      conclusion: effect.conclusion === "pending" ? null : effect.conclusion,
      title: effect.title,
      summary: effect.summary,
      ...(error === null ? {} : { error }),
    },
  });
}

async function post(
  ctx: Pick<RunnerContext, "forge">,
  repository: string,
  effect: ProtectionsReportEffect,
  resumed: boolean,
): Promise<void> {
  const forge = ctx.forge;
  const completed = effect.conclusion !== "pending";
  if (effect.method === "deployments" && forge.upsertDeployment) {
    await forge.upsertDeployment(repository, {
      environment: PROTECTIONS_CHECK_NAME,
      sha: effect.headSha,
      state: effect.conclusion,
      description: effect.title,
    });
  } else {
    await forge.upsertCheckRun(repository, {
      name: PROTECTIONS_CHECK_NAME,
      headSha: effect.headSha,
      status: completed ? "completed" : "in_progress",
      conclusion: completed ? effect.conclusion : null,
      title: effect.title,
      summary: effect.summary,
    });
  }
  if (!effect.comment) return;
  const marker = effectMarker(effect.key);
  if (resumed && (await forge.findOwnComment(repository, effect.number, marker)) !== null) return;
  await forge.comment(repository, effect.number, `${protectionsComment(effect)}\n\n${marker}`);
}
