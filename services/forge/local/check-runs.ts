/**
 * Writing a check run from outside the local CI: Yardmaster's own summary check
 * (ForgePort.upsertCheckRun, app "yardmaster") and any external CI (ForgeService.PostCheckRun).
 * The newest run of that name by that app on that commit is updated, or a run is created; every
 * write emits `checks_changed`. docs/local-forge.md "Check runs".
 */
import { ForgeError, type CheckState, type RepoName, type Sha } from "../types.js";
import { localForgeStore as store } from "../../store/index.js";
import { resolveCommit } from "./git/index.js";
import { asForgeError, readRepository, type ForgeCore } from "./core.js";
import { LocalForgeError, withField } from "./errors.js";
import { inRepository } from "./write-context.js";

/** A check run to write. */
export interface CheckRunWrite {
  /** The commit (a full SHA). */
  sha: Sha;
  name: string;
  app: string;
  state: CheckState;
  description: string;
  detailsUrl: string | null;
  output: string;
}

/**
 * Creates or updates the newest run of (`sha`, `name`, `app`). A pending run keeps (or gets) its
 * start time; a final state sets the completion time.
 * @throws LocalForgeError not_found (field sha) when the commit is not in the repository; invalid
 *   (field name) for a blank name; ForgeError not_found for an unknown repository
 */
export async function writeCheckRun(core: ForgeCore, repo: RepoName, input: CheckRunWrite): Promise<void> {
  const name = input.name.trim();
  if (name === "") throw new LocalForgeError("invalid", "a check run needs a name", { field: "name" });
  await inRepository(core, repo, { what: `writing check run ${name}`, lock: false }, async (ctx) => {
    const sha = await withField("sha", () => resolveCommit(ctx.git, input.sha));
    if (sha !== input.sha.toLowerCase())
      throw new LocalForgeError("invalid", `"${input.sha}" is not a full commit SHA`, { field: "sha" });
    const existing = await store.findNewestCheckRun(ctx.client, ctx.repo.id, sha, name, input.app);
    const done = input.state !== "pending";
    const startedAt = existing?.startedAt ?? ctx.now;
    const completedAt = done ? ctx.now : null;
    if (existing === null) {
      await store.insertCheckRun(ctx.client, {
        repositoryId: ctx.repo.id,
        sha,
        name,
        state: input.state,
        description: input.description,
        detailsUrl: input.detailsUrl,
        app: input.app,
        output: input.output,
        ciJobId: null,
        startedAt,
        completedAt,
        now: ctx.now,
      });
    } else {
      await store.updateCheckRun(ctx.client, existing.id, {
        state: input.state,
        description: input.description,
        detailsUrl: input.detailsUrl,
        output: input.output,
        startedAt,
        completedAt,
        now: ctx.now,
      });
    }
    ctx.emit({ kind: "checks_changed", repo: ctx.repo.fullName, sha });
  });
}

/**
 * Check run `id` of a repository, with its whole stored output (ForgeService.GetCheckRunLog).
 * @throws ForgeError not_found for an unknown repository or check run
 */
export async function readCheckRun(core: ForgeCore, repo: RepoName, id: number): Promise<store.CheckRunRow> {
  const repository = await readRepository(core, repo);
  const row = await asForgeError(`reading check run ${id}`, () => store.findCheckRun(core.db, repository.id, id));
  if (!row) throw new ForgeError("not_found", `${repository.fullName} has no check run ${id}`);
  return row;
}
