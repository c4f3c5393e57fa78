/**
 * Git notes pushed to GitHub (ForgePort.addNotes; docs/github.md "Batch metadata notes"): GitHub
 * has no notes API, but a notes ref is an ordinary ref to a commit whose tree names each annotated
 * commit by its full SHA, so the Git data API writes it: for each ref, the current notes commit
 * and tree are read (`GET .../git/ref/notes/...`, `GET .../git/commits/{sha}`), a tree with the
 * note's blob at `<sha>` on top of that one is created (`POST .../git/trees`), then a commit
 * (`POST .../git/commits`, parent the previous notes commit), and the ref is force-moved to it
 * (`PATCH .../git/refs/notes/...`); refs that do not exist yet are created at one first notes
 * commit, without reading anything, all in one `updateRefs` mutation (ref-updates.ts; where GitHub
 * refuses it, e.g. a ref exists already, each ref is written with REST as above). `git fetch
 * +refs/notes/...` then finds it, and `git notes show` reads it (a flat notes tree).
 */
import type { Sha } from "../types.js";
import { ForgeError } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubMessage, githubStatus } from "./errors.js";
import { isRefusedUpdate, type RepositoryIdOf, updateRefs } from "./ref-updates.js";
import type { RepoParams } from "./repo-name.js";

/** The message of the notes commits: git's own for `git notes add`. */
const NOTES_MESSAGE = "Notes added by 'git notes add'";

/** A notes commit holding `content` for `sha` on top of `parent` (null: a first notes commit). */
async function notesCommit(
  gh: GithubOctokit,
  params: RepoParams,
  note: { sha: Sha; content: string },
  parent: { sha: Sha; tree: Sha } | null,
): Promise<Sha> {
  const tree = await gh.rest.git.createTree({
    ...params,
    ...(parent === null ? {} : { base_tree: parent.tree }),
    tree: [{ path: note.sha, mode: "100644", type: "blob", content: note.content }],
  });
  const commit = await gh.rest.git.createCommit({
    ...params,
    message: NOTES_MESSAGE,
    tree: tree.data.sha,
    parents: parent === null ? [] : [parent.sha],
  });
  return commit.data.sha;
}

/**
 * Refuses a ref outside `refs/notes/` (or with `..` or blanks).
 * @throws ForgeError invalid naming the ref
 */
export function checkNotesRefs(refs: readonly string[]): void {
  for (const ref of refs)
    if (!ref.startsWith("refs/notes/") || /\.\.|\s/.test(ref))
      throw new ForgeError("invalid", `${ref} is not a notes ref (refs/notes/...)`);
}

/** The note of commit `sha`: `text` ending with a newline, as `git notes add` stores it. */
function noteOf(sha: Sha, text: string): { sha: Sha; content: string } {
  return { sha, content: text.endsWith("\n") ? text : `${text}\n` };
}

/**
 * A first notes commit (no parent) holding `text` as the note of `sha`: a tree and a commit, for
 * refs about to be created at it (branch-finish.ts writes them with the branch).
 * @throws the Octokit error
 */
export function firstNotesCommit(gh: GithubOctokit, params: RepoParams, sha: Sha, text: string): Promise<Sha> {
  return notesCommit(gh, params, noteOf(sha, text), null);
}

/**
 * Attaches `text` to commit `sha` under each notes ref of `refs` (`refs/notes/...`). The refs are
 * first created at a notes commit holding this note alone, written once for all the refs, in one
 * `updateRefs` mutation when `repositoryId` is given (the usual case: the refs are named after a new
 * check branch, so nothing needs reading: docs/github.md "Request budget"). Where GitHub refuses it
 * (a ref exists: the mutation does not force, so nothing is written), or without `repositoryId`,
 * each ref is created with REST, and one that already exists (422 "Reference already exists") is
 * extended: its commit and tree read, the note added on top, the ref force-moved.
 * @throws ForgeError invalid for a ref outside refs/notes/; the Octokit error otherwise
 */
export async function addGithubNotes(
  gh: GithubOctokit,
  params: RepoParams,
  input: { refs: readonly string[]; sha: Sha; text: string },
  repositoryId?: RepositoryIdOf,
): Promise<void> {
  checkNotesRefs(input.refs);
  const note = noteOf(input.sha, input.text);
  let first: Sha | null = null;
  if (repositoryId && input.refs.length > 0) {
    first = await notesCommit(gh, params, note, null);
    try {
      await updateRefs(
        gh,
        await repositoryId(),
        input.refs.map((name) => ({ name, afterOid: first! })),
      );
      return;
    } catch (e) {
      if (!isRefusedUpdate(e)) throw e;
    }
  }
  for (const ref of input.refs) {
    first ??= await notesCommit(gh, params, note, null);
    try {
      await gh.rest.git.createRef({ ...params, ref, sha: first });
      continue;
    } catch (e) {
      if (githubStatus(e) !== 422 || !/already exists/i.test(githubMessage(e))) throw e;
    }
    const short = ref.slice("refs/".length);
    const parent = (await gh.rest.git.getRef({ ...params, ref: short })).data.object.sha;
    const tree = (await gh.rest.git.getCommit({ ...params, commit_sha: parent })).data.tree.sha;
    const sha = await notesCommit(gh, params, note, { sha: parent, tree });
    await gh.rest.git.updateRef({ ...params, ref: short, sha, force: true });
  }
}
