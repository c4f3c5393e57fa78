/**
 * The GitHub side of {@link WorkflowActionsPort} (docs/workflow-automation.md, docs/github.md
 * "Operations"):
 * - assignees: `POST` / `DELETE .../issues/{n}/assignees`;
 * - review requests: `POST .../pulls/{n}/requested_reviewers` (teams by slug, `org/` dropped);
 * - review: `POST .../pulls/{n}/reviews` with `event`;
 * - dismissal: `GET .../pulls/{n}/reviews` (every page), `PUT .../reviews/{id}/dismissals`;
 * - draft: the GraphQL mutations `convertPullRequestToDraft` / `markPullRequestReadyForReview`
 *   (REST has none);
 * - squash: `GET .../compare/{base}...{head}` for the merge base, `POST .../git/commits` with the
 *   head's tree, `PATCH .../git/refs/heads/{head}` forced;
 * - cherry-pick: per commit, a commit with the tip's tree on the picked commit's parent, merged
 *   with the picked commit by `POST .../merges` (GitHub's three-way merge), then re-parented on
 *   the tip: the technique of GitHub's own web cherry-pick tools. A commit GitHub refuses to merge
 *   (409) is a `conflict` error, or with `allowConflicts` committed with conflict markers merged
 *   here (conflicted-pick.ts);
 * - pull request: `POST .../pulls`; workflow: `POST .../actions/workflows/{id}/dispatches`.
 */
import { ForgeError, type Sha, type WorkflowActionsPort } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { conflictedPick } from "./conflicted-pick.js";
import { githubStatus } from "./errors.js";
import { forceBranch, removeBranch } from "./refs.js";
import type { RepoParams } from "./repo-name.js";

/** Runs one operation in a repository with its client (forge.ts's `inRepo`). */
type InRepo = <T>(repo: string, operation: string, fn: (gh: GithubOctokit, p: RepoParams) => Promise<T>) => Promise<T>;

/** GraphQL: converts a pull request to a draft (REST has no such call). */
export const DRAFT_MUTATION = `mutation($id: ID!) { convertPullRequestToDraft(input: {pullRequestId: $id}) { clientMutationId } }`;
/** GraphQL: marks a draft pull request ready for review (REST has no such call). */
export const READY_MUTATION = `mutation($id: ID!) { markPullRequestReadyForReview(input: {pullRequestId: $id}) { clientMutationId } }`;

/**
 * Cherry-picks `commits` onto `onto` in a temporary branch; returns the new tip and the paths that
 * conflicted (committed with markers when `allowConflicts`, else a `conflict` error).
 */
async function cherryPickOnGithub(
  gh: GithubOctokit,
  p: RepoParams,
  pick: { onto: Sha; commits: Sha[]; temp: string; allowConflicts: boolean },
): Promise<{ tip: Sha; conflicts: string[] }> {
  const { commits, temp } = pick;
  let tip = pick.onto;
  const conflicts = new Set<string>();
  for (const sha of commits) {
    const { data: commit } = await gh.rest.git.getCommit({ ...p, commit_sha: sha });
    const { data: tipCommit } = await gh.rest.git.getCommit({ ...p, commit_sha: tip });
    const parent = commit.parents[0]?.sha;
    if (parent === undefined) throw new ForgeError("invalid", `commit ${sha} has no parent to cherry-pick from`);
    const { data: sibling } = await gh.rest.git.createCommit({
      ...p,
      message: "yardmaster: cherry-pick base",
      tree: tipCommit.tree.sha,
      parents: [parent],
    });
    await forceBranch(gh, p, temp, sibling.sha);
    let mergedTree: string;
    try {
      const res = await gh.rest.repos.merge({ ...p, base: temp, head: sha, commit_message: "yardmaster: cherry-pick" });
      mergedTree = res.status === 201 ? res.data.commit.tree.sha : tipCommit.tree.sha;
    } catch (e) {
      if (githubStatus(e) !== 409) throw e;
      if (!pick.allowConflicts) throw new ForgeError("conflict", `commit ${sha} does not apply onto ${tip}`);
      const conflicted = await conflictedPick(gh, p, { parent, sha, tip, tipTree: tipCommit.tree.sha });
      mergedTree = conflicted.tree;
      for (const path of conflicted.paths) conflicts.add(path);
    }
    if (mergedTree === tipCommit.tree.sha) continue;
    const { data: picked } = await gh.rest.git.createCommit({
      ...p,
      message: `${commit.message.trimEnd()}\n\n(cherry picked from commit ${sha})\n`,
      tree: mergedTree,
      parents: [tip],
      author: { name: commit.author.name, email: commit.author.email, date: commit.author.date },
    });
    tip = picked.sha;
  }
  return { tip, conflicts: [...conflicts].sort() };
}

/** Builds the workflow actions of the GitHub adapter. */
export function githubWorkflowActions(inRepo: InRepo): WorkflowActionsPort {
  return {
    setAssignees: (repo, number, input) =>
      inRepo(repo, `assigning #${number}`, async (gh, p) => {
        if (input.add.length > 0)
          await gh.rest.issues.addAssignees({ ...p, issue_number: number, assignees: input.add });
        if (input.remove.length > 0)
          await gh.rest.issues.removeAssignees({ ...p, issue_number: number, assignees: input.remove });
      }),
    requestReviews: (repo, number, input) =>
      inRepo(repo, `requesting reviews on #${number}`, async (gh, p) => {
        const teams = input.teams.map((t) => t.replace(/^@?[^/]+\//, "").replace(/^@/, ""));
        await gh.rest.pulls.requestReviewers({
          ...p,
          pull_number: number,
          reviewers: input.users,
          team_reviewers: teams,
        });
      }),
    submitReview: (repo, number, input) =>
      inRepo(repo, `reviewing #${number}`, async (gh, p) => {
        await gh.rest.pulls.createReview({
          ...p,
          pull_number: number,
          event: input.event,
          body: input.body || undefined,
        });
      }),
    dismissReviews: (repo, number, input) =>
      inRepo(repo, `dismissing reviews of #${number}`, async (gh, p) => {
        const reviews = await gh.paginate(gh.rest.pulls.listReviews, { ...p, pull_number: number, per_page: 100 });
        const users = new Set<string>();
        for (const r of reviews) {
          if (!(input.states as string[]).includes(r.state)) continue;
          await gh.rest.pulls.dismissReview({ ...p, pull_number: number, review_id: r.id, message: input.message });
          if (r.user) users.add(r.user.login);
        }
        return [...users].sort();
      }),
    setDraft: (repo, number, draft) =>
      inRepo(repo, `${draft ? "converting" : "marking ready"} #${number}`, async (gh, p) => {
        const { data } = await gh.rest.pulls.get({ ...p, pull_number: number });
        if (data.draft === draft) return;
        await gh.graphql(draft ? DRAFT_MUTATION : READY_MUTATION, { id: data.node_id });
      }),
    squashPullRequest: (repo, number, input) =>
      inRepo(repo, `squashing #${number}`, async (gh, p) => {
        const { data: pull } = await gh.rest.pulls.get({ ...p, pull_number: number });
        if (pull.head.repo?.full_name !== repo) throw new ForgeError("invalid", `the head of #${number} is in a fork`);
        const { data: cmp } = await gh.rest.repos.compareCommits({ ...p, base: pull.base.sha, head: pull.head.sha });
        if (cmp.ahead_by <= 1) return pull.head.sha;
        const { data: head } = await gh.rest.git.getCommit({ ...p, commit_sha: pull.head.sha });
        const { data: squashed } = await gh.rest.git.createCommit({
          ...p,
          message: input.message,
          tree: head.tree.sha,
          parents: [cmp.merge_base_commit.sha],
        });
        await gh.rest.git.updateRef({ ...p, ref: `heads/${pull.head.ref}`, sha: squashed.sha, force: true });
        return squashed.sha;
      }),
    cherryPick: (repo, input) =>
      inRepo(repo, `cherry-picking onto ${input.onto}`, async (gh, p) => {
        const { data: ref } = await gh.rest.git.getRef({ ...p, ref: `heads/${input.onto}` });
        const temp = `${input.branch}-yardmaster-tmp`;
        try {
          const { tip, conflicts } = await cherryPickOnGithub(gh, p, {
            onto: ref.object.sha,
            commits: input.commits,
            temp,
            allowConflicts: input.allowConflicts,
          });
          await forceBranch(gh, p, input.branch, tip);
          return { sha: tip, conflicts };
        } finally {
          await removeBranch(gh, p, temp).catch(() => {});
        }
      }),
    createPullRequest: (repo, input) =>
      inRepo(repo, `opening a pull request from ${input.head}`, async (gh, p) => {
        const { data } = await gh.rest.pulls.create({ ...p, ...input });
        return data.number;
      }),
    dispatchWorkflow: (repo, input) =>
      inRepo(repo, `dispatching ${input.workflow}`, async (gh, p) => {
        const inputs = Object.fromEntries(Object.entries(input.inputs).map(([k, v]) => [k, String(v)]));
        await gh.rest.actions.createWorkflowDispatch({ ...p, workflow_id: input.workflow, ref: input.ref, inputs });
      }),
  };
}
