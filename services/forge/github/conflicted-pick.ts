/**
 * A cherry-pick that conflicts, on GitHub, committed with conflict markers (what `git
 * cherry-pick` leaves in the work tree, and what the local forge commits with `allowConflicts`:
 * docs/workflow-automation.md `backport` / `copy` `ignore_conflicts`). GitHub's merges API only
 * answers 409 for a conflict, so the three-way merge is done here, file by file, over the files
 * the picked commit changed (`GET .../compare/{parent}...{sha}`): each file's text at the
 * picked commit's parent (base), at the tip picked onto (ours) and at the picked commit (theirs),
 * read with `GET .../contents/{path}?ref=`, merged line by line by node-diff3 (markers
 * `<<<<<<< <tip>`, `=======`, `>>>>>>> <sha>`), then written as one tree on the tip's
 * (`POST .../git/trees` with `base_tree`). A file changed on one side only takes that side; a file
 * deleted on one side and changed on the other, or added on both with different texts, keeps the
 * tip's version (the picked one when the tip has none) and counts as a conflict, as git does; so
 * does a binary file or one over the 1 MB the contents API returns inline (the tip's version kept).
 */
import { merge } from "node-diff3";
import { ForgeError, type Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubStatus } from "./errors.js";
import type { RepoParams } from "./repo-name.js";

/** Most files GitHub's comparison lists (https://docs.github.com/rest/commits/commits#compare-two-commits). */
const MAX_COMPARE_FILES = 300;

/** A picked commit's tree with conflict markers, and the paths that conflicted (sorted). */
export interface ConflictedPick {
  tree: Sha;
  paths: string[];
}

/** One entry of `POST .../git/trees`: a text written, or a path deleted (`sha: null`). */
type TreeEntry = { path: string; mode: "100644"; type: "blob"; content: string } | DeletedEntry;
type DeletedEntry = { path: string; mode: "100644"; type: "blob"; sha: null };

/** A file that cannot be merged as text: binary (a NUL byte), or over the 1 MB the contents API inlines. */
const UNREADABLE = Symbol("unreadable");

/** The UTF-8 text of `path` at `ref`; null when the file does not exist there. */
async function textAt(
  gh: GithubOctokit,
  p: RepoParams,
  path: string,
  ref: Sha,
): Promise<string | null | typeof UNREADABLE> {
  try {
    const { data } = await gh.rest.repos.getContent({ ...p, path, ref });
    if (Array.isArray(data) || data.type !== "file" || !("content" in data)) return null;
    if (data.encoding !== "base64") return UNREADABLE;
    const bytes = Buffer.from(data.content, "base64");
    return bytes.includes(0) ? UNREADABLE : bytes.toString("utf8");
  } catch (e) {
    if (githubStatus(e) === 404) return null;
    throw e;
  }
}

/** The three-way merge of one file: its new text (null: deleted) and whether it conflicted. */
function mergeFile(
  base: string | null,
  ours: string | null,
  theirs: string | null,
  labels: { ours: string; theirs: string },
): { text: string | null; conflict: boolean } {
  if (ours === theirs || theirs === base) return { text: ours, conflict: false };
  if (ours === base) return { text: theirs, conflict: false };
  if (base === null || ours === null || theirs === null) return { text: ours ?? theirs, conflict: true };
  const r = merge(ours.split("\n"), base.split("\n"), theirs.split("\n"), {
    label: { a: labels.ours, b: labels.theirs },
  });
  return { text: r.result.join("\n"), conflict: r.conflict };
}

/**
 * Merges commit `sha` (whose first parent is `parent`) onto `tip` (tree `tipTree`) with conflict
 * markers where both changed the same lines; returns the tree and the paths that conflicted.
 * @throws ForgeError conflict when the commit changes 300 files or more (the comparison's limit);
 *   the GitHub client's errors (the caller maps them)
 */
export async function conflictedPick(
  gh: GithubOctokit,
  p: RepoParams,
  pick: { parent: Sha; sha: Sha; tip: Sha; tipTree: Sha },
): Promise<ConflictedPick> {
  const { data: cmp } = await gh.rest.repos.compareCommitsWithBasehead({
    ...p,
    basehead: `${pick.parent}...${pick.sha}`,
  });
  // A comparison lists at most 300 files: a larger commit cannot be merged file by file here.
  if ((cmp.files?.length ?? 0) >= MAX_COMPARE_FILES)
    throw new ForgeError(
      "conflict",
      `commit ${pick.sha} does not apply onto ${pick.tip} and changes too many files to mark`,
    );
  const labels = { ours: pick.tip.slice(0, 12), theirs: pick.sha.slice(0, 12) };
  const entries: TreeEntry[] = [];
  const paths: string[] = [];
  for (const file of cmp.files ?? []) {
    const from = file.status === "renamed" && file.previous_filename ? file.previous_filename : file.filename;
    const [base, ours, theirs] = await Promise.all([
      file.status === "added" ? null : textAt(gh, p, from, pick.parent),
      textAt(gh, p, from, pick.tip),
      file.status === "removed" ? null : textAt(gh, p, file.filename, pick.sha),
    ]);
    if (base === UNREADABLE || ours === UNREADABLE || theirs === UNREADABLE) {
      // The commit changed it and it cannot be merged as text: the tip's version stays, named a conflict.
      paths.push(file.filename);
      continue;
    }
    const merged = mergeFile(base, ours, theirs, labels);
    if (merged.conflict) paths.push(file.filename);
    if (from !== file.filename && ours !== null) entries.push({ path: from, mode: "100644", type: "blob", sha: null });
    if (merged.text === null) {
      if (ours !== null) entries.push({ path: file.filename, mode: "100644", type: "blob", sha: null });
    } else entries.push({ path: file.filename, mode: "100644", type: "blob", content: merged.text });
  }
  paths.sort();
  if (entries.length === 0) return { tree: pick.tipTree, paths };
  const { data: tree } = await gh.rest.git.createTree({ ...p, base_tree: pick.tipTree, tree: entries });
  return { tree: tree.sha, paths };
}
