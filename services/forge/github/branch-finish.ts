/**
 * The last step of a speculative branch's build (speculative-branch.ts; docs/github.md
 * "Speculative branches", "Batch metadata notes", "Request budget"): the final branch pointed at
 * the tested commit, the temporary branch deleted and, when asked, the batch's notes refs created
 * at a notes commit for the tested commit, all in one `updateRefs` mutation (ref-updates.ts),
 * atomic. Where GitHub refuses it (nothing written: e.g. the temporary branch is gone, or a notes
 * ref exists from an earlier attempt), the REST path does the same in several requests: the branch
 * created or force-moved, the temporary branch deleted, the notes added (batch-notes.ts).
 *
 * Notes that cannot be written are left out, logged, and never fail the branch (the draft pull
 * request's body carries the same metadata, docs/merge-queue.md "Batch metadata for CI"); a
 * transient failure or a rate limit is passed on, so the whole build is tried again.
 */
import type { Sha } from "../types.js";
import { addGithubNotes, checkNotesRefs, firstNotesCommit } from "./batch-notes.js";
import type { GithubLogger, GithubOctokit } from "./client.js";
import { toForgeError } from "./errors.js";
import { DELETED_OID, isRefusedUpdate, type RepositoryIdOf, updateRefs } from "./ref-updates.js";
import { forceBranch, removeBranch } from "./refs.js";
import type { RepoParams } from "./repo-name.js";

/** Git notes to attach to the tested commit (ForgePort.addNotes' refs and text). */
export interface BranchNotes {
  refs: readonly string[];
  text: string;
}

/** Runs `write`; a failure other than a transient one or a rate limit is logged and ignored. */
async function leaveOutOnRefusal(log: GithubLogger, what: string, write: () => Promise<void>): Promise<void> {
  try {
    await write();
  } catch (e) {
    const err = toForgeError(e, what, Date.now());
    if (err.kind === "transient" || err.kind === "rate_limited") throw err;
    log.warn({ err }, `GitHub refused ${what}: the batch metadata is left out of the notes`);
  }
}

/**
 * Points `branch` at `tip`, deletes `temp`, and attaches `notes` to `tip`.
 * @throws the Octokit (or GraphQL) error of the branch's writes; of the notes' only when transient
 */
export async function finishBranch(
  gh: GithubOctokit,
  params: RepoParams,
  refs: { branch: string; temp: string; tip: Sha },
  options: { repositoryId?: RepositoryIdOf; notes?: BranchNotes; log: GithubLogger },
): Promise<void> {
  const { repositoryId, notes, log } = options;
  const what = `the notes of ${refs.tip}`;
  if (repositoryId) {
    const written: { notes: Sha | null } = { notes: null };
    if (notes && notes.refs.length > 0)
      await leaveOutOnRefusal(log, what, async () => {
        checkNotesRefs(notes.refs);
        written.notes = await firstNotesCommit(gh, params, refs.tip, notes.text);
      });
    const notesSha = written.notes;
    try {
      await updateRefs(gh, await repositoryId(), [
        { name: `refs/heads/${refs.branch}`, afterOid: refs.tip, force: true },
        { name: `refs/heads/${refs.temp}`, afterOid: DELETED_OID, force: true },
        ...(notesSha === null || !notes ? [] : notes.refs.map((name) => ({ name, afterOid: notesSha }))),
      ]);
      // Notes whose commit could not be written are left out (logged above).
      return;
    } catch (e) {
      if (!isRefusedUpdate(e)) throw e;
    }
  }
  await forceBranch(gh, params, refs.branch, refs.tip);
  await removeBranch(gh, params, refs.temp);
  if (notes && notes.refs.length > 0)
    await leaveOutOnRefusal(log, what, () =>
      // With REST alone: the refusal is most likely a notes ref that exists already.
      addGithubNotes(gh, params, { refs: notes.refs, sha: refs.tip, text: notes.text }),
    );
}
