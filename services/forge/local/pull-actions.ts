/**
 * Writes to pull requests inside a repository write (write-context.ts), shared by the port (the
 * queue acting as the bot) and the ForgeService (people acting through the CLI): open, edit,
 * close, comment, review, label. Each emits the event a GitHub webhook would map to
 * (docs/local-forge.md "Writes and events"). GitHub's refusals are kept: no pull request without commits
 * between base and head, one open pull request per head and base, no approving one's own.
 */
import { localForgeStore as store } from "../../store/index.js";
import { commitsAhead, findBranchSha, validateBranchName } from "./git/index.js";
import { readPull, pullUrl } from "./core.js";
import { requestChecks, type CiSignals } from "./ci-requests.js";
import { LocalForgeError, withField } from "./errors.js";
import type { WriteContext } from "./write-context.js";

/** Color of a label created on first use (GitHub's default for labels made by the API). */
export const NEW_LABEL_COLOR = "ededed";

/** Input of {@link openPull}. */
export interface OpenPullInput {
  head: string;
  base: string;
  title: string;
  body: string;
  author: store.LocalUserRow;
  draft: boolean;
}

/**
 * Opens a pull request; queues its CI.
 * @returns its number
 * @throws LocalForgeError invalid (field head/base/title) for a bad or equal branch, a duplicate,
 *   no commits between; not_found when a branch does not exist
 */
export async function openPull(ctx: WriteContext, signals: CiSignals, input: OpenPullInput): Promise<number> {
  await withField("head", () => validateBranchName(input.head));
  await withField("base", () => validateBranchName(input.base));
  if (input.head === input.base)
    throw new LocalForgeError("invalid", `head and base are both "${input.head}"`, { field: "head" });
  const headSha = await findBranchSha(ctx.git, input.head);
  if (headSha === null)
    throw new LocalForgeError("not_found", `no branch "${input.head}" in ${ctx.repo.fullName}`, { field: "head" });
  const baseSha = await findBranchSha(ctx.git, input.base);
  if (baseSha === null)
    throw new LocalForgeError("not_found", `no branch "${input.base}" in ${ctx.repo.fullName}`, { field: "base" });
  const title = input.title.trim();
  if (title === "") throw new LocalForgeError("invalid", "a pull request needs a title", { field: "title" });
  const duplicate = (await store.openPullsWithHead(ctx.client, ctx.repo.id, input.head)).find(
    (p) => p.baseBranch === input.base,
  );
  if (duplicate !== undefined) {
    throw new LocalForgeError(
      "invalid",
      `pull request #${duplicate.number} from ${input.head} into ${input.base} is already open`,
      { field: "head", rpc: "already_exists" },
    );
  }
  if ((await commitsAhead(ctx.git, baseSha, headSha)) === 0) {
    throw new LocalForgeError("invalid", `no commits between ${input.base} and ${input.head}`, {
      field: "head",
      rpc: "failed_precondition",
    });
  }
  const number = await store.takePullRequestNumber(ctx.client, ctx.repo.id);
  await store.insertPullRequest(ctx.client, {
    repositoryId: ctx.repo.id,
    number,
    title,
    body: input.body,
    authorId: input.author.id,
    headBranch: input.head,
    baseBranch: input.base,
    headSha,
    draft: input.draft,
    now: ctx.now,
  });
  ctx.emit({ kind: "pull_request_opened", repo: ctx.repo.fullName, number });
  await requestChecks(ctx, signals, { sha: headSha, branch: input.head, reason: `pull request #${number} opened` });
  return number;
}

/**
 * Edits the title, body and/or base branch (retargeting, as on GitHub); one
 * `pull_request_edited` when something changed. A new base needs an open pull request; CI is not
 * started (the head did not move). The snapshot then diffs against the new base's tip.
 * @throws ForgeError not_found for an unknown pull request; LocalForgeError invalid for an empty
 *   title (field title), a bad base name or a base equal to the head (field base), a closed pull
 *   request (failed_precondition), no commits between the new base and the head (failed_precondition,
 *   field base), another open pull request from the head into that base (already_exists, field
 *   base); not_found (field base) for a base branch that does not exist
 */
export async function editPull(
  ctx: WriteContext,
  number: number,
  input: { title?: string; body?: string; base?: string },
): Promise<void> {
  const pull = await readPull(ctx.client, ctx.repo, number);
  const title = input.title?.trim();
  if (title === "") throw new LocalForgeError("invalid", "a pull request needs a title", { field: "title" });
  if (input.base !== undefined && input.base !== pull.baseBranch) await checkNewBase(ctx, pull, input.base);
  if (await store.editPullRequest(ctx.client, pull.id, { title, body: input.body, base: input.base, now: ctx.now })) {
    ctx.emit({ kind: "pull_request_edited", repo: ctx.repo.fullName, number });
  }
}

/** GitHub's refusals of a new base for `pull` (see {@link editPull}). */
async function checkNewBase(ctx: WriteContext, pull: store.PullRequestRow, base: string): Promise<void> {
  if (pull.state !== "open") {
    throw new LocalForgeError(
      "invalid",
      `pull request #${pull.number} is ${pull.state}; only an open one can change its base`,
      { rpc: "failed_precondition" },
    );
  }
  await withField("base", () => validateBranchName(base));
  if (base === pull.headBranch)
    throw new LocalForgeError("invalid", `head and base are both "${base}"`, { field: "base" });
  const baseSha = await findBranchSha(ctx.git, base);
  if (baseSha === null)
    throw new LocalForgeError("not_found", `no branch "${base}" in ${ctx.repo.fullName}`, { field: "base" });
  const duplicate = (await store.openPullsWithHead(ctx.client, ctx.repo.id, pull.headBranch)).find(
    (p) => p.baseBranch === base && p.id !== pull.id,
  );
  if (duplicate !== undefined) {
    throw new LocalForgeError(
      "invalid",
      `pull request #${duplicate.number} from ${pull.headBranch} into ${base} is already open`,
      {
        field: "base",
        rpc: "already_exists",
      },
    );
  }
  if ((await commitsAhead(ctx.git, baseSha, pull.headSha)) === 0) {
    throw new LocalForgeError("invalid", `no commits between ${base} and ${pull.headBranch}`, {
      field: "base",
      rpc: "failed_precondition",
    });
  }
}

/**
 * Closes an open pull request without merging (`pull_request_closed`, merged false); closing a
 * closed one does nothing.
 * @throws ForgeError not_found; LocalForgeError invalid (failed_precondition) when it was merged
 */
export async function closePull(ctx: WriteContext, number: number): Promise<void> {
  const pull = await readPull(ctx.client, ctx.repo, number);
  if (pull.state === "merged")
    throw new LocalForgeError("invalid", `pull request #${number} is merged`, { rpc: "failed_precondition" });
  if (pull.state === "closed") return;
  const baseSha = (await findBranchSha(ctx.git, pull.baseBranch)) ?? pull.headSha;
  await store.closePullRequestRow(ctx.client, pull.id, { baseSha, now: ctx.now });
  ctx.emit({ kind: "pull_request_closed", repo: ctx.repo.fullName, number, merged: false, mergeCommitSha: null });
}

/**
 * Comments on a pull request (open or not, as GitHub allows); `comment_created`.
 * @returns the comment id
 * @throws ForgeError not_found; LocalForgeError invalid (field body) for a blank body
 */
export async function commentPull(
  ctx: WriteContext,
  number: number,
  body: string,
  author: store.LocalUserRow,
): Promise<number> {
  if (body.trim() === "") throw new LocalForgeError("invalid", "a comment needs a body", { field: "body" });
  const pull = await readPull(ctx.client, ctx.repo, number);
  const id = await store.insertComment(ctx.client, { pullRequestId: pull.id, authorId: author.id, body, now: ctx.now });
  await store.touchPullRequest(ctx.client, pull.id, ctx.now);
  ctx.emit({
    kind: "comment_created",
    repo: ctx.repo.fullName,
    number,
    commentId: id,
    body,
    author: { login: author.login, id: author.id, type: author.kind, avatarUrl: null },
    url: pullUrl(ctx.core, ctx.repo.fullName, number, id),
  });
  return id;
}

/** Review verdicts as the RPC names them, and the state each records. */
export const REVIEW_EVENTS = {
  APPROVE: "APPROVED",
  REQUEST_CHANGES: "CHANGES_REQUESTED",
  COMMENT: "COMMENTED",
} as const;

/**
 * Submits a review of the head as it is now; `pull_request_reviewed`.
 * @throws ForgeError not_found; LocalForgeError invalid when the pull request is not open
 *   (failed_precondition), when authors approve or request changes on their own pull request, or
 *   when REQUEST_CHANGES or COMMENT has no body (field body)
 */
export async function reviewPull(
  ctx: WriteContext,
  number: number,
  input: { event: keyof typeof REVIEW_EVENTS; body: string; author: store.LocalUserRow },
): Promise<void> {
  const pull = await readPull(ctx.client, ctx.repo, number);
  if (pull.state !== "open")
    throw new LocalForgeError("invalid", `pull request #${number} is ${pull.state}`, { rpc: "failed_precondition" });
  if (input.event !== "COMMENT" && pull.author.id === input.author.id) {
    const verb = input.event === "APPROVE" ? "approve" : "request changes on";
    throw new LocalForgeError("invalid", `${input.author.login} cannot ${verb} their own pull request`, {
      field: "author",
    });
  }
  if (input.event !== "APPROVE" && input.body.trim() === "") {
    throw new LocalForgeError(
      "invalid",
      `a ${input.event === "COMMENT" ? "comment" : "request for changes"} needs a body`,
      { field: "body" },
    );
  }
  await store.insertReview(ctx.client, {
    pullRequestId: pull.id,
    authorId: input.author.id,
    state: REVIEW_EVENTS[input.event],
    body: input.body,
    commitSha: pull.headSha,
    now: ctx.now,
  });
  await store.dropReviewRequest(ctx.client, pull.id, input.author.id);
  await store.touchPullRequest(ctx.client, pull.id, ctx.now);
  ctx.emit({ kind: "pull_request_reviewed", repo: ctx.repo.fullName, number });
}

/**
 * Adds and removes labels (created on first use); one `pull_request_labeled` per label that
 * actually changed, adds first. Removing a label that is not there does nothing.
 * @returns the labels now on the pull request, by name
 * @throws ForgeError not_found; LocalForgeError invalid (field add/remove) for a blank or too long name
 */
export async function labelPull(
  ctx: WriteContext,
  number: number,
  add: readonly string[],
  remove: readonly string[],
): Promise<string[]> {
  const check = (field: string) => (name: string) => {
    const trimmed = name.trim();
    if (trimmed === "" || trimmed.length > 50)
      throw new LocalForgeError("invalid", `label "${name}" must be 1-50 characters`, { field });
    return trimmed;
  };
  const adding = add.map(check("add"));
  const removing = remove.map(check("remove"));
  const pull = await readPull(ctx.client, ctx.repo, number);
  let changed = false;
  for (const name of adding) {
    const label = await store.ensureLabel(ctx.client, ctx.repo.id, name, NEW_LABEL_COLOR);
    if (!(await store.attachLabel(ctx.client, pull.id, label.id, ctx.now))) continue;
    changed = true;
    ctx.emit({ kind: "pull_request_labeled", repo: ctx.repo.fullName, number });
  }
  for (const name of removing) {
    if (!(await store.detachLabel(ctx.client, pull.id, name))) continue;
    changed = true;
    ctx.emit({ kind: "pull_request_labeled", repo: ctx.repo.fullName, number });
  }
  if (changed) await store.touchPullRequest(ctx.client, pull.id, ctx.now);
  return (await store.labelsOfPullRequest(ctx.client, pull.id)).map((l) => l.name);
}
