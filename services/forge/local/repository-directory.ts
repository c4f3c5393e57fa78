/**
 * The local forge's repositories as a {@link RepositoryDirectory} (docs/dashboard.md
 * "Repositories"): read from `local_forge_repositories`, whatever process created them.
 */
import { localForgeStore, type Pool } from "../../store/index.js";
import type { RepositoryDirectory } from "../types.js";
import { asForgeError } from "./core.js";

/** The directory of the local forge's repositories in `db`. */
export function localRepositoryDirectory(db: Pool): RepositoryDirectory {
  return {
    list: () =>
      asForgeError("listing the repositories", async () =>
        (await localForgeStore.listLocalRepositories(db)).map((r) => ({
          fullName: r.fullName,
          defaultBranch: r.defaultBranch,
        })),
      ),
    find: (fullName) =>
      asForgeError(`reading repository ${fullName}`, async () => {
        const r = await localForgeStore.findLocalRepository(db, fullName);
        return r ? { fullName: r.fullName, defaultBranch: r.defaultBranch } : null;
      }),
  };
}
