/**
 * The merge protections report of one pull request (docs/merge-protections.md "The check"):
 * decided in a round (report.ts), stored in `queue_effects` with the engine's effects, performed
 * after the commit by the effects round: the check run `Yardmaster Merge Protections` on the head
 * (or, with `reporting_method: deployments` on a forge that has deployments, a deployment of that
 * name), and with `post_comment` a comment when the protections start failing. Its
 * `action.post_check` event (trigger `Merge protections`) is written in the transaction that
 * deletes the effect. Replays are safe: the check run and the deployment are set, not added, and
 * the comment carries its key in a hidden marker looked for first.
 */
import type pg from "pg";
import { internalEventRow } from "../../activity-log/index.js";
import { FAILPOINT_NAMES, failpoint } from "../../failpoints/index.js";
import { ForgeError, isForgeError } from "../../forge/index.js";
import { appendToOutbox, deleteEffect, markEffectStarted, type EffectRow } from "../../store/index.js";
import { effectMarker, isRetryable } from "../effect-executor.js";
import { isReplay } from "../effect-journal.js";
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
 * Posts one stored report on `client` (outside a transaction, holding the repository's lock).
 * A refusal of the forge (not transient) is logged and the report dropped: the next one replaces it.
 * @throws ForgeError transient / rate_limited (the caller postpones the effect); the database's error
 */
export async function performProtectionsReport(
  ctx: RunnerContext,
  client: pg.ClientBase,
  repository: string,
  row: EffectRow<ProtectionsReportEffect>,
): Promise<void> {
  const effect = row.effect;
  if (row.startedAt === null) {
    try {
      await markEffectStarted(client, row.id);
    } catch (e) {
      throw new ForgeError("transient", `could not record the report as started: ${(e as Error).message}`, undefined, {
        cause: e,
      });
    }
  }
  await failpoint(FAILPOINT_NAMES.effectStarted(effect.kind));
  let error: string | null = null;
  try {
    await post(ctx, repository, effect, isReplay(row));
  } catch (e) {
    if (isRetryable(e) || !isForgeError(e)) throw e;
    error = e.message;
    ctx.log.warn({ repository, number: effect.number, err: e.message }, "the merge protections report was refused");
  }
  await failpoint(FAILPOINT_NAMES.effectPerformed(effect.kind));
  const event = internalEventRow({
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
  await client.query("BEGIN");
  try {
    await appendToOutbox(client, [event]);
    await deleteEffect(client, row.id);
    await client.query("COMMIT");
  } catch (e) {
    await client.query("ROLLBACK").catch(() => {});
    throw e;
  }
  ctx.eventsWritten();
}

async function post(
  ctx: RunnerContext,
  repository: string,
  effect: ProtectionsReportEffect,
  replay: boolean,
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
  if (replay && (await forge.findOwnComment(repository, effect.number, marker)) !== null) return;
  await forge.comment(repository, effect.number, `${protectionsComment(effect)}\n\n${marker}`);
}
