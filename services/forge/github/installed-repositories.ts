/**
 * The repositories the GitHub App is installed on, as a {@link RepositoryDirectory}
 * (docs/github.md "Repositories"): `GET /app/installations` with the App's JWT, then
 * `GET /installation/repositories` with each installation's token (both paginated, 100 a page).
 * The list is kept {@link DIRECTORY_TTL_MS}: installations change rarely, and the dashboard asks
 * every few seconds. A failure is a ForgeError (errors.ts), and the list last read is kept.
 */
import { createAppAuth } from "@octokit/auth-app";
import { ForgeError, type ForgeRepository, type RepositoryDirectory } from "../types.js";
import { GithubOctokit, normalizePrivateKey, octokitOptions, type GithubAppOptions } from "./client.js";
import { toForgeError } from "./errors.js";

/** How long the list is kept before GitHub is asked again, in milliseconds. */
export const DIRECTORY_TTL_MS = 5 * 60_000;

/**
 * The directory of the App's repositories.
 * @throws ForgeError invalid when the app id is not a positive integer
 */
export function createGithubRepositoryDirectory(opts: GithubAppOptions): RepositoryDirectory {
  const appId = Number(opts.appId);
  if (!Number.isSafeInteger(appId) || appId <= 0)
    throw new ForgeError("invalid", `GITHUB_APP_ID: "${opts.appId}" is not a positive integer`);
  const now = opts.now ?? Date.now;
  const common = octokitOptions(opts, `yardmaster-app-${appId}-directory`);
  const app = new GithubOctokit({
    ...common,
    authStrategy: createAppAuth,
    auth: { appId, privateKey: normalizePrivateKey(opts.privateKey) },
  });
  let cached: { at: number; list: ForgeRepository[] } | null = null;

  async function read(): Promise<ForgeRepository[]> {
    const installations = await app.paginate("GET /app/installations", { per_page: 100 });
    const out: ForgeRepository[] = [];
    for (const installation of installations) {
      const client = (await app.auth({
        type: "installation",
        installationId: installation.id,
        factory: (auth: Record<string, unknown>) => new GithubOctokit({ ...common, authStrategy: createAppAuth, auth }),
      })) as GithubOctokit;
      const repos = await client.paginate("GET /installation/repositories", { per_page: 100 });
      for (const r of repos) out.push({ fullName: r.full_name, defaultBranch: r.default_branch });
    }
    const seen = new Set<string>();
    return out
      .filter((r) => !seen.has(r.fullName.toLowerCase()) && seen.add(r.fullName.toLowerCase()))
      .sort((a, b) => a.fullName.toLowerCase().localeCompare(b.fullName.toLowerCase()));
  }

  async function list(): Promise<ForgeRepository[]> {
    if (cached && now() - cached.at < DIRECTORY_TTL_MS) return cached.list;
    try {
      cached = { at: now(), list: await read() };
      return cached.list;
    } catch (e) {
      throw toForgeError(e, "listing the repositories the GitHub App is installed on", now());
    }
  }

  return {
    list,
    find: async (fullName) => (await list()).find((r) => r.fullName.toLowerCase() === fullName.toLowerCase()) ?? null,
  };
}
