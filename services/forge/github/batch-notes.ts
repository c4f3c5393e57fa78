/**
 * Git notes pushed to GitHub (ForgePort.addNotes; docs/github.md "Batch metadata notes"): GitHub
 * has no notes API, but a notes ref is an ordinary ref to a commit whose tree names each annotated
 * commit by its full SHA, so the Git data API writes it: for each ref, the current notes commit
 * and tree are read (`GET .../git/ref/notes/...`, `GET .../git/commits/{sha}`), a tree with the
 * note's blob at `<sha>` on top of that one is created (`POST .../git/trees`), then a commit
 * (`POST .../git/commits`, parent the previous notes commit), and the ref is created or
 * force-moved to it (`POST .../git/refs`, `PATCH .../git/refs/notes/...`). `git fetch
 * +refs/notes/...` then finds it, and `git notes show` reads it (a flat notes tree).
 */
import type { Sha } from "../types.js";
import { ForgeError } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubStatus } from "./errors.js";
import type { RepoParams } from "./repo-name.js";

/** The message of the notes commits: git's own for `git notes add`. */
const NOTES_MESSAGE = "Notes added by 'git notes add'";

/**
 * Attaches `text` to commit `sha` under each notes ref of `refs` (`refs/notes/...`).
 * @throws ForgeError invalid for a ref outside refs/notes/; the Octokit error otherwise
 */
export async function addGithubNotes(
  gh: GithubOctokit,
  params: RepoParams,
  input: { refs: readonly string[]; sha: Sha; text: string },
): Promise<void> {
  for (const ref of input.refs) {
    if (!ref.startsWith("refs/notes/") || /\.\.|\s/.test(ref))
      throw new ForgeError("invalid", `${ref} is not a notes ref (refs/notes/...)`);
    const short = ref.slice("refs/".length);
    let parent: Sha | null = null;
    let baseTree: Sha | undefined;
    try {
      parent = (await gh.rest.git.getRef({ ...params, ref: short })).data.object.sha;
      baseTree = (await gh.rest.git.getCommit({ ...params, commit_sha: parent })).data.tree.sha;
    } catch (e) {
      if (githubStatus(e) !== 404) throw e;
    }
    const content = input.text.endsWith("\n") ? input.text : `${input.text}\n`;
    const tree = await gh.rest.git.createTree({
      ...params,
      ...(baseTree === undefined ? {} : { base_tree: baseTree }),
      tree: [{ path: input.sha, mode: "100644", type: "blob", content }],
    });
    const commit = await gh.rest.git.createCommit({
      ...params,
      message: NOTES_MESSAGE,
      tree: tree.data.sha,
      parents: parent === null ? [] : [parent],
    });
    if (parent === null) await gh.rest.git.createRef({ ...params, ref, sha: commit.data.sha });
    else await gh.rest.git.updateRef({ ...params, ref: short, sha: commit.data.sha, force: true });
  }
}
