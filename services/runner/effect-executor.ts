/**
 * Performs the engine's forge effects through the forge port and reports their results as engine
 * events (docs/merge-queue.md "Events and effects"). Effects are resumed after a crash, so each is safe to
 * perform twice (docs/reliability.md "Crashes: every effect exactly once"): a check branch is
 * force-moved and its draft reused, a resumed merge first reads whether its pull requests are
 * merged (merge-effect.ts), a comment carries its effect's idempotency key in a hidden marker and a
 * resume looks for it before posting, closing a closed pull request or deleting a missing branch is
 * no error, labels and the summary check run are set, not added, and a re-run of failed jobs looks
 * whether they run again already (rerun-effect.ts).
 *
 * Errors: a transient or rate-limited forge error is thrown to the effect journal, which retries the
 * effect later (rate limits: after the time the platform gave). Any other forge error becomes the
 * effect's failure event (speculative_check_failed, merge_failed) or, for effects without a
 * result (comments, labels, the summary check), is logged and dropped.
 */
import type { Logger } from "pino";
import { isForgeError, MergeRefusedError, type ForgePort } from "../forge/index.js";
import type { EngineEffect } from "../engine/index.js";
import type { EngineEventInput } from "../engine/index.js";
import { addToInbox } from "../store/index.js";
import { type EffectPerformer, isRetryable } from "./effect-journal.js";
import type { RunnerInput } from "./inputs.js";
import { batchMetadataYaml, batchNoteRefs, bodyWithMetadata } from "./batch-notes.js";
import type { LabelEchoes } from "./label-echoes.js";
import { conflictingPull, performMerge } from "./merge-effect.js";
import { performRerun } from "./rerun-effect.js";

/** The name of Yardmaster's own summary check run on pull requests. */
export const SUMMARY_CHECK_NAME = "Yardmaster";

/**
 * What performEffect needs: the forge port, the repository ("owner/name") the effects belong to,
 * and a logger for dropped effects.
 */
export interface ExecutorDeps {
  forge: ForgePort;
  repository: string;
  logger: Logger;
  /** The effect's idempotency key (its queue_effects id; effect-journal.ts); comments carry it. */
  idempotencyKey?: string;
  /** Told the status labels the queue changes, whose events need no reading (label-echoes.ts). */
  labelEchoes?: LabelEchoes;
}

/**
 * The hidden marker a comment effect carries (an HTML comment: GitHub and the local forge's views
 * do not show it), found again when resumed (docs/reliability.md).
 */
export function effectMarker(key: string): string {
  return `<!-- yardmaster:effect ${key} -->`;
}

/**
 * The effect journal's performer of the engine's effects (effect-journal.ts): performs one with
 * its idempotency key; its result events go to the inbox in the transaction that deletes it.
 */
export function enginePerformer(
  deps: Omit<ExecutorDeps, "idempotencyKey">,
): EffectPerformer<EngineEffect, EngineEventInput[]> {
  return {
    perform: (effect, attempt) => performEffect({ ...deps, idempotencyKey: attempt.key }, effect, attempt.resumed),
    record: (tx, _effect, results) =>
      addToInbox(
        tx,
        deps.repository,
        results.map((event) => ({ kind: "engine", event }) satisfies RunnerInput),
      ),
  };
}

/**
 * Performs one effect; returns the engine events reporting its result (possibly none).
 * @param resumed true when an earlier attempt may have been performed already
 * @throws ForgeError transient / rate_limited (to retry)
 */
export async function performEffect(
  deps: ExecutorDeps,
  effect: EngineEffect,
  resumed: boolean,
): Promise<EngineEventInput[]> {
  const { forge, repository: repo } = deps;
  switch (effect.kind) {
    case "create_speculative_check": {
      let sha: string;
      try {
        sha = await forge.createSpeculativeBranch(repo, effect.draftBranch, effect.baseSha, effect.pulls, {
          base: effect.baseRef,
          method: effect.mergeMethod ?? null,
          notes: batchNotesOf(deps, effect),
        });
      } catch (e) {
        if (isRetryable(e)) throw e;
        const pull = conflictingPull(e);
        let reason: "conflict_with_base" | "conflict_with_pull_ahead" | "protection" | "error" =
          e instanceof MergeRefusedError && e.refusal === "protection" ? "protection" : "error";
        if (isForgeError(e, "conflict") && pull !== null) {
          const alone = await forge.getPullRequest(repo, pull).catch(() => null);
          reason = alone?.conflict ? "conflict_with_base" : "conflict_with_pull_ahead";
        }
        return [
          {
            type: "speculative_check_failed",
            checkId: effect.checkId,
            reason,
            pullRequest: pull,
            message: (e as Error).message,
          },
        ];
      }
      try {
        // The draft of this branch exists when an earlier attempt opened it (a resume), or when
        // opening is refused because one is open: looked for then only (a request on GitHub).
        const find = () => forge.findOpenPullRequest(repo, effect.draftBranch, effect.baseRef);
        const body = bodyWithMetadata(effect.body, effect.metadata);
        const draft = { head: effect.draftBranch, base: effect.baseRef, title: effect.title, body };
        let existing = resumed ? await find() : null;
        let number = existing;
        if (number === null) {
          try {
            number = await forge.openDraftPullRequest(repo, draft);
          } catch (e) {
            if (isRetryable(e) || (existing = await find()) === null) throw e;
            number = existing;
          }
        }
        if (existing !== null) await forge.updatePullRequest(repo, number, { title: effect.title, body });
        return [
          { type: "speculative_check_created", checkId: effect.checkId, pullRequestNumber: number, headSha: sha },
        ];
      } catch (e) {
        if (isRetryable(e)) throw e;
        return [
          {
            type: "speculative_check_failed",
            checkId: effect.checkId,
            reason: "error",
            pullRequest: null,
            message: (e as Error).message,
          },
        ];
      }
    }
    case "start_in_place_check": {
      try {
        const pr = await forge.getPullRequest(repo, effect.pull.number);
        // Behind its base: bring it up to date (update_method), so its own CI checks base + it.
        const head =
          pr.commitsBehind > 0
            ? await forge.updatePullRequestWithBase(repo, effect.pull.number, effect.updateMethod)
            : pr.headSha;
        return [
          {
            type: "speculative_check_created",
            checkId: effect.checkId,
            pullRequestNumber: effect.pull.number,
            headSha: head,
          },
        ];
      } catch (e) {
        if (isRetryable(e)) throw e;
        const reason = isForgeError(e, "conflict") ? "conflict_with_base" : "branch_update_failed";
        return [
          {
            type: "speculative_check_failed",
            checkId: effect.checkId,
            reason,
            pullRequest: effect.pull.number,
            message: (e as Error).message,
          },
        ];
      }
    }
    case "cancel_speculative_check": {
      if (effect.inPlace) return [];
      if (effect.draftNumber !== null) await ignoreGone(() => forge.closePullRequest(repo, effect.draftNumber!));
      if (effect.draftBranch) await ignoreGone(() => forge.deleteBranch(repo, effect.draftBranch!));
      return [];
    }
    case "merge_batch":
      return performMerge(forge, repo, effect, resumed, isRetryable);
    case "rerun_checks":
      return performRerun(forge, repo, effect, isRetryable);
    case "close_pull_request":
      await ignoreGone(() => forge.closePullRequest(repo, effect.number));
      if (effect.deleteBranch) await ignoreGone(() => forge.deleteBranch(repo, effect.deleteBranch!));
      return [];
    case "comment": {
      const key = deps.idempotencyKey;
      if (key === undefined) {
        await dropUnlessRetryable(deps, effect, () => forge.comment(repo, effect.number, effect.body));
        return [];
      }
      const marker = effectMarker(key);
      await dropUnlessRetryable(deps, effect, async () => {
        if (resumed && (await forge.findOwnComment(repo, effect.number, marker)) !== null) return;
        await forge.comment(repo, effect.number, `${effect.body}\n\n${marker}`);
      });
      return [];
    }
    case "post_summary_check":
      await dropUnlessRetryable(deps, effect, () =>
        forge.upsertCheckRun(repo, {
          name: SUMMARY_CHECK_NAME,
          headSha: effect.headSha,
          status: effect.conclusion === null ? "in_progress" : "completed",
          conclusion: effect.conclusion,
          title: effect.title,
          summary: effect.summary,
          // After a crash the run may exist already: a resume looks it up first.
          ...(effect.first && !resumed ? { fresh: true } : {}),
        }),
      );
      return [];
    case "add_labels":
      deps.labelEchoes?.expect(repo, effect.number, effect.labels, true);
      await dropUnlessRetryable(deps, effect, () => forge.addLabels(repo, effect.number, effect.labels));
      return [];
    case "remove_labels":
      deps.labelEchoes?.expect(repo, effect.number, effect.labels, false);
      await dropUnlessRetryable(deps, effect, () => forge.removeLabels(repo, effect.number, effect.labels));
      return [];
    case "schedule_timer":
    case "cancel_timer":
    case "log":
      // Recorded in the transaction that decided them (runner.ts), never performed here.
      return [];
  }
}

/**
 * The batch's metadata as git notes for the branch's new tip (batch-notes.ts), written by the forge
 * with the branch, before CI can run on the draft (ForgePort.createSpeculativeBranch `notes`); none
 * for a forge that cannot hold notes. Notes the forge refuses are left out: CI then falls back to
 * the draft's body.
 */
function batchNotesOf(
  deps: ExecutorDeps,
  effect: Extract<EngineEffect, { kind: "create_speculative_check" }>,
): { refs: string[]; text: string } | undefined {
  if (effect.metadata === undefined || !deps.forge.addNotes) return undefined;
  return { refs: batchNoteRefs(effect.draftBranch), text: batchMetadataYaml(effect.metadata) };
}

async function ignoreGone(fn: () => Promise<unknown>): Promise<void> {
  try {
    await fn();
  } catch (e) {
    if (isRetryable(e)) throw e;
    if (!isForgeError(e, "not_found") && !isForgeError(e, "invalid")) throw e;
  }
}

async function dropUnlessRetryable(
  deps: ExecutorDeps,
  effect: EngineEffect,
  fn: () => Promise<unknown>,
): Promise<void> {
  try {
    await fn();
  } catch (e) {
    if (isRetryable(e)) throw e;
    deps.logger.warn(
      { err: e, effect: effect.kind, repository: deps.repository },
      "forge effect failed and was dropped",
    );
  }
}
