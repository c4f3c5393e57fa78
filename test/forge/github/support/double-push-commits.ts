/**
 * The `commits` of a `push` delivery in the test double, as GitHub describes them
 * (https://docs.github.com/en/webhooks/webhook-events-and-payloads#push): "all commits that are
 * included in the compare between the before commit and the after commit", oldest first, at most
 * {@link PUSH_PAYLOAD_COMMITS} (GitHub: "The array includes a maximum of 2048 commits"), each with
 * the paths it `added`, `modified` and `removed`. A commit's paths are its changes against its first
 * parent (a root commit: every path added); renames are a removal and an addition.
 */
import { runGit } from "../../../../services/forge/local/git/index.js";
import type { BareRepo } from "../../../../services/forge/local/git/index.js";

/** GitHub's cap on a push payload's `commits`. */
export const PUSH_PAYLOAD_COMMITS = 2048;

/** One entry of a push payload's `commits`. */
export interface PushedCommit {
  id: string;
  tree_id: string;
  distinct: boolean;
  message: string;
  added: string[];
  modified: string[];
  removed: string[];
}

const text = async (git: BareRepo, args: string[]) => (await runGit(git.gitDir, args)).stdout.toString("utf8");

/** The commits of a push from `before` to `after` (an empty list for a created or deleted branch). */
export async function pushedCommits(
  git: BareRepo,
  before: string | null,
  after: string | null,
): Promise<PushedCommit[]> {
  if (before === null || after === null) return [];
  const lines = (await text(git, ["rev-list", "--reverse", "--topo-order", "--parents", `${before}..${after}`, "--"]))
    .split("\n")
    .filter(Boolean)
    .slice(0, PUSH_PAYLOAD_COMMITS);
  const out: PushedCommit[] = [];
  for (const line of lines) {
    const [id, parent] = line.split(" ");
    const diff = parent
      ? await text(git, ["diff", "-z", "--name-status", "--no-renames", "-r", parent, id, "--"])
      : await text(git, ["diff-tree", "-z", "--name-status", "--no-renames", "-r", "--root", "--no-commit-id", id]);
    const [treeId, ...message] = (await text(git, ["log", "-1", "--format=%T%n%B", id])).split("\n");
    const commit: PushedCommit = {
      id,
      tree_id: treeId,
      distinct: true,
      message: message.join("\n").trim(),
      added: [],
      modified: [],
      removed: [],
    };
    const fields = diff.split("\0").filter(Boolean);
    for (let i = 0; i + 1 < fields.length; i += 2) {
      const [status, path] = [fields[i], fields[i + 1]];
      if (status.startsWith("A")) commit.added.push(path);
      else if (status.startsWith("D")) commit.removed.push(path);
      else commit.modified.push(path);
    }
    out.push(commit);
  }
  return out;
}
