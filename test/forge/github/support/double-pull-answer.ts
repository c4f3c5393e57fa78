/**
 * A pull request as the GitHub test double answers it: its head and base, its diff entries against
 * the merge base (renames detected) and the counts its JSON carries, with `mergeable` and
 * `mergeable_state` worked out from a real conflict check
 * (https://docs.github.com/en/rest/pulls/pulls#get-a-pull-request).
 */
import {
  commitsAhead,
  hasConflict,
  mergeBase,
  readCommit,
  readRef,
  runGit,
} from "../../../../services/forge/local/git/index.js";
import type { Answer } from "./double-answers.js";
import { pullJson } from "./double-json.js";
import { once } from "./double-memo.js";
import { headIn, type RefMap } from "./double-refs.js";
import type { DoublePull, DoubleRepo } from "./double-state.js";

/** Head and base facts of a pull request, with the counts its JSON carries (`refs`: the refs read once for many). */
export async function pullFacts(repo: DoubleRepo, p: DoublePull, refs?: RefMap) {
  const head = (refs && headIn(refs, p)) || (await repo.headSha(p));
  const base = (refs?.get(`refs/heads/${p.base}`) ?? (await readRef(repo.git, `refs/heads/${p.base}`)))!;
  const files = await diffEntries(
    repo,
    p.mergedAt ? (await readCommit(repo.git, p.mergeCommitSha!)).parents[0] : base,
    head,
  );
  const commits =
    p.state === "open"
      ? await once(`ahead ${repo.git.gitDir} ${base} ${head}`, () => commitsAhead(repo.git, base, head))
      : 1;
  return {
    head,
    base,
    counts: {
      additions: files.reduce((s, f) => s + f.additions, 0),
      deletions: files.reduce((s, f) => s + f.deletions, 0),
      changedFiles: files.length,
      commits,
    },
  };
}

/** Fields of a full pull request that `pull-request-simple` (list items) does not carry. */
export const NOT_IN_LISTS = [
  "merged",
  "mergeable",
  "mergeable_state",
  "merged_by",
  "comments",
  "review_comments",
  "maintainer_can_modify",
  "commits",
  "additions",
  "deletions",
  "changed_files",
  "rebaseable",
];

/** The pull request's JSON answer (`status` 200 unless told), its mergeability checked when GitHub would. */
export async function pullAnswer(repo: DoubleRepo, p: DoublePull, status = 200, refs?: RefMap): Promise<Answer> {
  const f = await pullFacts(repo, p, refs);
  if (p.state === "open" && p.mergeable !== null) {
    const conflicting = await once(`conflict ${repo.git.gitDir} ${f.base} ${f.head}`, () =>
      hasConflict(repo.git, f.base, f.head),
    );
    p.mergeableState = conflicting ? "dirty" : "clean";
    p.mergeable = !conflicting;
  } else if (p.state === "open") {
    p.mergeableState = "unknown";
  }
  return { status, body: pullJson(repo, p, f.head, f.base, f.counts) };
}

/** GitHub's diff entries of `head` against its merge base with `base` (renames detected). */
export function diffEntries(repo: DoubleRepo, base: string, head: string) {
  return once(`diff ${repo.git.gitDir} ${base} ${head}`, () => computeDiffEntries(repo, base, head));
}

async function computeDiffEntries(repo: DoubleRepo, base: string, head: string) {
  const from = (await mergeBase(repo.git, base, head)) ?? base;
  const [status, numstat] = await Promise.all([
    runGit(repo.git.gitDir, ["diff-tree", "-r", "-M", "--name-status", "--no-commit-id", from, head]),
    runGit(repo.git.gitDir, ["diff-tree", "-r", "-M", "--numstat", "--no-commit-id", from, head]),
  ]);
  const counts = numstat.stdout
    .toString("utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split("\t").map((x) => Number(x) || 0));
  return status.stdout
    .toString("utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line, i) => {
      const [code, a, b] = line.split("\t");
      const st = code.startsWith("R") ? "renamed" : code === "A" ? "added" : code === "D" ? "removed" : "modified";
      const filename = st === "renamed" ? b : a;
      const [additions = 0, deletions = 0] = counts[i] ?? [];
      return {
        sha: head,
        filename,
        status: st,
        additions,
        deletions,
        changes: additions + deletions,
        blob_url: `https://github.com/${repo.fullName}/blob/${head}/${filename}`,
        raw_url: `https://github.com/${repo.fullName}/raw/${head}/${filename}`,
        contents_url: `https://api.github.com/repos/${repo.fullName}/contents/${filename}?ref=${head}`,
        ...(st === "renamed" ? { previous_filename: a } : {}),
      };
    });
}
