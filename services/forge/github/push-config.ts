/**
 * Whether a `push` delivery proves the configuration file unchanged by the push (docs/github.md
 * "Request budget"), so the runner need not read it again after a move of the default branch.
 * GitHub's push payload (https://docs.github.com/en/webhooks/webhook-events-and-payloads#push)
 * lists in `commits` "all commits that are included in the compare between the before commit and
 * the after commit", at most 2,048 ("The array includes a maximum of 2048 commits"), each with the
 * paths it `added`, `modified` and `removed`. The proof holds only when that list is complete: the
 * push moved an existing branch forward (neither created, deleted nor forced: the old tip is an
 * ancestor of the new one, so every change between them is in a listed commit), the list has fewer
 * than 2,048 commits and ends at `after`, and every commit carries its three lists (GitHub Actions'
 * copy of the payload lacks them). Then none of {@link CONFIG_PATHS} may be among the paths.
 */
import { z } from "zod";
import { CONFIG_PATHS } from "./contents.js";

/** GitHub's cap on a push payload's `commits`: a list this long may be cut. */
export const PUSH_COMMITS_CAP = 2048;

const paths = z.array(z.string()).nullish();
/** The fields of a push payload this proof reads (checked with zod by the webhook mapping). */
export const pushCommitsFields = {
  created: z.boolean().nullish(),
  // A list GitHub sent in another shape proves nothing, and never fails the event.
  commits: z
    .array(z.object({ id: z.string(), added: paths, modified: paths, removed: paths }))
    .nullish()
    .catch(null),
};

/** What {@link pushLeavesConfig} reads of a push payload. */
export interface PushCommitsPayload {
  after: string;
  forced?: boolean | null;
  created?: boolean | null;
  deleted?: boolean | null;
  commits?: { id: string; added?: string[] | null; modified?: string[] | null; removed?: string[] | null }[] | null;
}

/**
 * True only when the payload proves that no configuration file (`.yardmaster.yml`,
 * `.github/yardmaster.yml`) differs between `before` and `after` (see the file header); false when
 * it does not prove it (a file touched, or a list that may be incomplete).
 */
export function pushLeavesConfig(p: PushCommitsPayload, beforeKnown: boolean): boolean {
  if (!beforeKnown || p.forced === true || p.created === true || p.deleted === true) return false;
  const commits = p.commits ?? [];
  if (commits.length === 0 || commits.length >= PUSH_COMMITS_CAP || commits.at(-1)!.id !== p.after) return false;
  for (const c of commits) {
    if (!c.added || !c.modified || !c.removed) return false;
    for (const path of [...c.added, ...c.modified, ...c.removed]) if (CONFIG_PATHS.includes(path)) return false;
  }
  return true;
}
