/**
 * What a batch's landing asks of a forge (services/forge/types.ts ForgePort.createSpeculativeBranch
 * and ForgePort.mergePullRequests): the merge methods, how to build the batch's speculative branch,
 * and the tested batch to merge (docs/github.md "Speculative branches").
 */
import type { Sha } from "../config/index.js";

/**
 * How a pull request is merged into its base (docs/local-forge.md "Merge methods", docs/github.md
 * §6); a batch may also use "merge-batch" (see ForgePort.mergePullRequests).
 */
export type MergeMethod = "merge" | "squash" | "rebase" | "fast-forward";

/** How ForgePort.createSpeculativeBranch should build the branch for the batch's landing. */
export interface SpeculativeBranchOptions {
  /** The base branch the batch is for (its protection decides, e.g. linear history). */
  base?: string;
  /** The queue rule's merge method (null: the repository's default). */
  method?: MergeMethod | "merge-batch" | null;
  /**
   * Git notes to attach to the branch's new tip, as ForgePort.addNotes would (the batch's
   * metadata for CI: docs/merge-queue.md "Batch metadata for CI"), written with the branch (GitHub:
   * in the same request, docs/github.md "Request budget"). Notes the forge refuses are left out
   * (logged): the branch is built all the same; a transient failure fails the whole call.
   */
  notes?: { refs: string[]; text: string };
}

/** A tested batch to merge (ForgePort.mergePullRequests). */
export interface BatchMergeRequest {
  base: string;
  expectedBaseSha: Sha;
  /** null: the repository's default method, the first it allows (the local forge's: merge). */
  method: MergeMethod | "merge-batch" | null;
  pulls: { number: number; headSha: Sha; commitTitle?: string; commitMessage?: string }[];
  /** The tested commit (the check branch's tip, or the pull request's head in place). */
  checkSha?: Sha;
  /** The pull request the batch was checked on (its draft, or the pull request itself in place). */
  checkPullRequest?: number;
  /** Whether the batch was checked in place, on its one pull request. */
  inPlace?: boolean;
}
