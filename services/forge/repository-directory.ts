/**
 * The repositories a forge knows, for `GET /v1/repos` and the dashboard (docs/dashboard.md
 * "Repositories"); part of the port (types.ts).
 */
import type { RepoName } from "../config/index.js";

/** A repository the forge knows: its name as the forge spells it and its default branch. */
export interface ForgeRepository {
  fullName: RepoName;
  defaultBranch: string;
}

/**
 * The repositories a forge knows (docs/dashboard.md "Repositories"): the local forge's
 * repositories, or those the GitHub App is installed on. Throws {@link ForgeError} and nothing else.
 */
export interface RepositoryDirectory {
  /** Every repository, sorted by name (case-insensitively). */
  list(): Promise<ForgeRepository[]>;
  /** The repository named `fullName` (compared case-insensitively), or null. */
  find(fullName: RepoName): Promise<ForgeRepository | null>;
}
