/**
 * Comments, labels and permissions (ForgePort.comment, addLabels, removeLabels, getPermission;
 * docs/github.md "Operations"). Pull requests are issues for comments and labels.
 * - comment: `POST .../issues/{n}/comments`;
 * - own comment containing a text: `GET .../issues/{n}/comments`, every page (100 a page), the
 *   oldest by the App's bot user whose body contains it;
 * - add labels: `POST .../issues/{n}/labels` (GitHub creates unknown labels);
 * - remove labels: `DELETE .../issues/{n}/labels/{name}`, one by one; a label the pull request
 *   does not carry (404) is not an error;
 * - permission: `GET .../collaborators/{username}/permission`: `role_name` (admin, maintain,
 *   write, triage, read), else the legacy `permission` (admin, write, read, none); an unknown user
 *   (404) has none. A custom role reads as its base permission.
 */
import { ForgeError, type Permission } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubStatus } from "./errors.js";
import type { RepoParams } from "./repo-name.js";

/** Posts a comment; returns its id. */
export async function postComment(
  gh: GithubOctokit,
  params: RepoParams,
  number: number,
  body: string,
): Promise<number> {
  if (body.trim() === "") throw new ForgeError("invalid", "body: a comment cannot be empty");
  const { data } = await gh.rest.issues.createComment({ ...params, issue_number: number, body });
  return data.id;
}

/**
 * The id of the oldest comment by `bot` on issue `number` whose body contains `text`; null when none.
 * @throws the Octokit error (404 for an unknown pull request)
 */
export async function findOwnComment(
  gh: GithubOctokit,
  params: RepoParams,
  number: number,
  text: string,
  bot: string,
): Promise<number | null> {
  const pages = gh.paginate.iterator(gh.rest.issues.listComments, { ...params, issue_number: number, per_page: 100 });
  for await (const { data } of pages) {
    const found = data.find((c) => c.user?.login === bot && (c.body ?? "").includes(text));
    if (found) return found.id;
  }
  return null;
}

/** Adds labels (none: no request); returns the pull request's labels as GitHub answered, with their ids. */
export async function addIssueLabels(
  gh: GithubOctokit,
  params: RepoParams,
  number: number,
  labels: readonly string[],
): Promise<{ name: string; id: number }[]> {
  if (labels.length === 0) return [];
  const { data } = await gh.rest.issues.addLabels({ ...params, issue_number: number, labels: [...labels] });
  return data.map((l) => ({ name: l.name, id: l.id }));
}

/** Removes labels; absent ones are skipped. */
export async function removeIssueLabels(
  gh: GithubOctokit,
  params: RepoParams,
  number: number,
  labels: readonly string[],
): Promise<void> {
  for (const name of labels) {
    try {
      await gh.rest.issues.removeLabel({ ...params, issue_number: number, name });
    } catch (e) {
      if (githubStatus(e) !== 404) throw e;
    }
  }
}

const ROLES: readonly Permission[] = ["none", "read", "triage", "write", "maintain", "admin"];

/** The port permission of GitHub's answer: `role_name` when it is a standard role, else `permission`. */
export function permissionOf(answer: { role_name?: string | null; permission?: string | null }): Permission {
  const role = answer.role_name?.toLowerCase();
  if (role && (ROLES as string[]).includes(role)) return role as Permission;
  const legacy = answer.permission?.toLowerCase();
  if (legacy && (ROLES as string[]).includes(legacy)) return legacy as Permission;
  return "none";
}

/** The permission of `login` on the repository. */
export async function userPermission(gh: GithubOctokit, params: RepoParams, login: string): Promise<Permission> {
  if (!/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})(\[bot\])?$/.test(login))
    throw new ForgeError("invalid", `login: "${login}" is not a GitHub login`);
  try {
    const { data } = await gh.rest.repos.getCollaboratorPermissionLevel({ ...params, username: login });
    return permissionOf(data);
  } catch (e) {
    if (githubStatus(e) === 404) return "none";
    throw e;
  }
}
