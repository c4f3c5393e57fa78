/**
 * Files and the configuration file (ForgePort.readFile, readConfigFile, getDefaultBranch).
 * `GET /repos/{owner}/{repo}/contents/{path}?ref=` gives a file up to 1 MB inline (base64); a
 * larger one comes with encoding "none" and is read as a blob (`GET .../git/blobs/{sha}`, up to
 * 100 MB). A directory, a symlink or a submodule at the path reads as absent (null).
 * The configuration file is `.yardmaster.yml`, then `.github/yardmaster.yml`
 * (docs/configuration.md), read at the default branch; its blob SHA is returned with it.
 */
import type { Sha } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubStatus } from "./errors.js";
import type { RepoParams } from "./repo-name.js";

/** The configuration file names, in the order they are tried (docs/configuration.md). */
export const CONFIG_PATHS: readonly string[] = [".yardmaster.yml", ".github/yardmaster.yml"];

/** The repository's default branch name. */
export async function readDefaultBranch(gh: GithubOctokit, params: RepoParams): Promise<string> {
  const { data } = await gh.rest.repos.get(params);
  return data.default_branch;
}

/**
 * A text file (UTF-8) at `ref` (branch, tag or SHA); null when the path is not a file there.
 * @throws the Octokit error for anything but a 404 of the path
 */
export async function readTextFile(
  gh: GithubOctokit,
  params: RepoParams,
  ref: string,
  path: string,
): Promise<string | null> {
  return (await readBlob(gh, params, ref, path))?.text ?? null;
}

/** The file's text and blob SHA at `ref`; null when the path is not a file there. */
async function readBlob(
  gh: GithubOctokit,
  params: RepoParams,
  ref: string,
  path: string,
): Promise<{ text: string; sha: Sha } | null> {
  let data: unknown;
  try {
    ({ data } = await gh.rest.repos.getContent({ ...params, path, ref }));
  } catch (e) {
    if (githubStatus(e) === 404) return null;
    throw e;
  }
  if (Array.isArray(data) || typeof data !== "object" || data === null) return null;
  const file = data as { type: string; encoding?: string; content?: string; sha: string };
  if (file.type !== "file") return null;
  if (file.encoding === "base64" && typeof file.content === "string")
    return { text: Buffer.from(file.content, "base64").toString("utf8"), sha: file.sha };
  const { data: blob } = await gh.rest.git.getBlob({ ...params, file_sha: file.sha });
  return {
    text: blob.encoding === "base64" ? Buffer.from(blob.content, "base64").toString("utf8") : blob.content,
    sha: file.sha,
  };
}

/**
 * The configuration file on the default branch, read at the branch's name: a conditional request
 * (conditional-requests.ts) answered 304 while the file is unchanged, whatever else moved the
 * branch (docs/github.md "Request budget").
 * @returns its path, text and blob SHA; null when neither file exists
 */
export async function readConfig(
  gh: GithubOctokit,
  params: RepoParams,
  defaultBranch: () => Promise<string> = () => readDefaultBranch(gh, params),
): Promise<{ path: string; text: string; sha: Sha } | null> {
  const branch = await defaultBranch();
  for (const path of CONFIG_PATHS) {
    const file = await readBlob(gh, params, branch, path);
    if (file !== null) return { path, ...file };
  }
  return null;
}
