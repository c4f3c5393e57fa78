/**
 * The answers of the reads that two kept facts of a base branch share (docs/github.md "Request
 * budget"): the port's branch protection (branch-protection.ts: the injected conditions) and the
 * landing rules (landing-rules.ts) both read the branch's classic protection
 * (`GET .../branches/{b}/protection`) and its rules (`GET .../rules/branches/{b}`), and the landing
 * rules and the default branch both read the repository (`GET /repos/{o}/{r}`). Each answer is kept
 * {@link BRANCH_READS_TTL_MS} (as long as either fact), so a fact read again within that time costs
 * no second request; a refusal of a landing drops the branch's and the repository's answers with
 * the landing rules, so the rules are read again from GitHub.
 */
import type { RepoName } from "../types.js";
import type { GithubOctokit } from "./client.js";
import { githubStatus } from "./errors.js";
import type { RepoParams } from "./repo-name.js";
import { TtlCache } from "./ttl-cache.js";

/** How long a shared answer is kept, ms: the time the facts built from it are kept. */
export const BRANCH_READS_TTL_MS = 5 * 60_000;

/** The repository's answer, as GitHub gives it (the fields read: default branch, node id, merge methods). */
export type RepositoryAnswer = {
  default_branch: string;
  node_id: string;
  allow_merge_commit?: boolean;
  allow_squash_merge?: boolean;
  allow_rebase_merge?: boolean;
};

/** A branch's protection answers: classic (null when unprotected, 404; "unreadable" on a 403) and its rule items. */
export interface BranchAnswers {
  classic: Record<string, unknown> | null | "unreadable";
  items: Record<string, unknown>[];
}

/** Reads a branch's classic protection and rule items (two requests, or more pages of rules). */
export async function readBranchAnswers(gh: GithubOctokit, params: RepoParams, branch: string): Promise<BranchAnswers> {
  const classic = async (): Promise<BranchAnswers["classic"]> => {
    try {
      return (await gh.rest.repos.getBranchProtection({ ...params, branch })).data as Record<string, unknown>;
    } catch (e) {
      const status = githubStatus(e);
      if (status === 404) return null;
      if (status === 403) return "unreadable";
      throw e;
    }
  };
  const [c, items] = await Promise.all([
    classic(),
    gh.paginate(gh.rest.repos.getBranchRules, { ...params, branch, per_page: 100 }) as Promise<
      Record<string, unknown>[]
    >,
  ]);
  return { classic: c, items };
}

/** The shared answers of one adapter (all repositories). */
export class BranchReads {
  private readonly repos: TtlCache<string, Promise<RepositoryAnswer>>;
  private readonly branches: TtlCache<string, Promise<BranchAnswers>>;

  /** @param now the clock, epoch ms */
  constructor(now: () => number) {
    this.repos = new TtlCache(BRANCH_READS_TTL_MS, 10_000, now);
    this.branches = new TtlCache(BRANCH_READS_TTL_MS, 10_000, now);
  }

  /** The repository's answer, read at most once in {@link BRANCH_READS_TTL_MS}. */
  repository(gh: GithubOctokit, repo: RepoName, params: RepoParams): Promise<RepositoryAnswer> {
    return kept(this.repos, repo.toLowerCase(), async () => (await gh.rest.repos.get(params)).data as RepositoryAnswer);
  }

  /** The branch's protection answers, read at most once in {@link BRANCH_READS_TTL_MS}. */
  branch(gh: GithubOctokit, repo: RepoName, params: RepoParams, branch: string): Promise<BranchAnswers> {
    return kept(this.branches, `${repo.toLowerCase()}#${branch}`, () => readBranchAnswers(gh, params, branch));
  }

  /** Drops the answers of `branch` and of its repository (after GitHub refused a landing). */
  forget(repo: RepoName, branch: string): void {
    this.repos.delete(repo.toLowerCase());
    this.branches.delete(`${repo.toLowerCase()}#${branch}`);
  }
}

/** The kept promise of `key`, or a new read kept (a failed read is forgotten at once). */
function kept<T>(cache: TtlCache<string, Promise<T>>, key: string, read: () => Promise<T>): Promise<T> {
  const known = cache.get(key);
  if (known !== undefined) return known;
  const p = read();
  cache.set(key, p);
  p.catch(() => cache.delete(key));
  return p;
}
