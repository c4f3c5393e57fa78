/**
 * Git notes (`git notes`, https://git-scm.com/docs/git-notes): a text attached to a commit under a
 * notes ref (`refs/notes/...`), itself a history of commits whose trees name the annotated commits.
 * The queue attaches a batch's metadata to its speculative branch's head this way, so that CI can
 * read it with plain git (docs/local-forge.md "Batch metadata notes"). The notes commits are
 * Yardmaster's, dated by the caller.
 */
import { ForgeError, type Sha } from "../../types.js";
import { withGitFailure } from "./errors.js";
import { isFullSha } from "./full-sha.js";
import { gitText } from "./git-command.js";
import { YARDMASTER_IDENTITY, datedIdentity, identityEnvironment } from "./identity.js";
import type { BareRepo } from "./bare-repo.js";
import { resolveCommit, validateRefName } from "./refs.js";

/**
 * Attaches `text` to commit `sha` under notes ref `ref`, replacing the note it had there (other
 * commits' notes stay): `git notes --ref=<ref> add -f -F - <sha>`.
 * @throws ForgeError invalid for a ref outside refs/notes/ or a SHA that is not full; not_found for
 *   a commit that does not exist; transient when git fails otherwise
 */
export async function addNote(repo: BareRepo, ref: string, sha: Sha, text: string, date: Date): Promise<void> {
  if (!ref.startsWith("refs/notes/")) throw new ForgeError("invalid", `${ref} is not a notes ref (refs/notes/...)`);
  await validateRefName(ref);
  if (!isFullSha(sha)) throw new ForgeError("invalid", `${sha} is not a full commit SHA`);
  await resolveCommit(repo, sha);
  const me = datedIdentity(YARDMASTER_IDENTITY, date);
  await withGitFailure(`adding a note to ${sha} under ${ref} in ${repo.name}`, () =>
    gitText(repo.gitDir, ["notes", `--ref=${ref}`, "add", "-f", "-F", "-", sha], {
      input: text.endsWith("\n") ? text : `${text}\n`,
      env: identityEnvironment(me, me),
    }),
  );
}
