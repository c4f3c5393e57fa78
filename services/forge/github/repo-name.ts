/**
 * `owner/name` as the port carries it, split into the `owner` and `repo` path parameters of the
 * GitHub REST API. GitHub's naming rules (docs/local-forge.md "Storage" uses the same): owner 1-39
 * letters, digits or `-`; name 1-100 letters, digits, `.`, `_`, `-`, not `.` or `..`.
 */
import { ForgeError, type RepoName } from "../types.js";

/** The path parameters of one repository (a type alias, so Octokit's parameter maps accept it). */
export type RepoParams = {
  owner: string;
  repo: string;
};

const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;

/**
 * Splits a repository full name.
 * @throws ForgeError invalid naming the malformed part ("repository: ...")
 */
export function repoParams(name: RepoName): RepoParams {
  const parts = name.split("/");
  if (parts.length !== 2) throw new ForgeError("invalid", `repository: "${name}" is not of the form owner/name`);
  const [owner, repo] = parts;
  if (!OWNER.test(owner)) throw new ForgeError("invalid", `repository: owner "${owner}" is not a GitHub account name`);
  if (!NAME.test(repo) || repo === "." || repo === "..")
    throw new ForgeError("invalid", `repository: name "${repo}" is not a GitHub repository name`);
  return { owner, repo };
}
