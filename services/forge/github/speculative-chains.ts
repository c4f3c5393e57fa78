/**
 * The speculative branches this process built, kept so that a batch's branch is built on the
 * branch of the batch ahead of it (docs/github.md "Speculative branches", "Request budget"). A
 * batch's pull requests are the pull requests of the batches ahead followed by its own, on the same
 * base SHA (docs/domain.md §3.4); the tree of the batch ahead is the merge of the first part, so
 * only the batch's own pull requests need merging on top of it: one `POST {r}/merges` a pull
 * request of the batch instead of one per pull request ahead too.
 *
 * Why the tree is the same as a build from the base: an entry is keyed by everything its tree
 * depends on (the base SHA, each merged pull request's number and head SHA in order, the build's
 * shape), and Git objects never change. For a merge build the start is the last `[skip ci]` merge
 * of the temporary branch (tree: the merge of the base and the heads ahead); its ancestors are the
 * base, the heads ahead and the temporary merges, none of which a later pull request's head
 * descends from but the base and the heads, so the next merge has the same merge bases and the same
 * tree as on a branch built from the base. For a linear build the start is the replayed tip, and
 * the replay of the next pull request's commits is the one a build from the base makes next.
 *
 * Kept in memory only (a restart builds from the base: more requests, the same trees), an hour at
 * most (the commits are unreferenced once the temporary branch is deleted, and GitHub removes
 * unreferenced objects only much later), 10,000 entries.
 */
import type { Sha } from "../types.js";
import { TtlCache } from "./ttl-cache.js";

/** How long a built branch may be built upon, ms. */
export const CHAIN_TTL_MS = 3_600_000;

/** A pull request as a speculative branch merges it. */
export interface ChainPull {
  number: number;
  headSha: Sha;
}

/** Where a branch built on an earlier one starts. */
export interface ChainStart {
  /** How many of the requested pull requests the start holds (a prefix). */
  count: number;
  /** The commit to build on: a merge build's last temporary merge, a linear build's tip. */
  sha: Sha;
  tree: Sha;
  /** The heads the start merged (a merge build: parents of the tested commit), in order. */
  merged: Sha[];
}

/** The shapes of builds whose results are interchangeable (speculative-branch.ts `BuildShape`). */
export interface ChainShape {
  linear: boolean;
  signed: boolean;
}

const keyOf = (repo: string, baseSha: Sha, shape: ChainShape, pulls: readonly ChainPull[]) =>
  `${repo.toLowerCase()} ${baseSha} ${shape.linear ? "L" : "M"}${shape.signed ? "S" : ""} ${pulls
    .map((p) => `${p.number}@${p.headSha}`)
    .join(",")}`;

/** The builds of one forge adapter (all repositories). */
export class SpeculativeChains {
  private readonly built: TtlCache<string, Omit<ChainStart, "count">>;

  /** @param now the clock, epoch ms */
  constructor(now: () => number = Date.now, maxEntries = 10_000) {
    this.built = new TtlCache(CHAIN_TTL_MS, maxEntries, now);
  }

  /** Records the build of `pulls` (every one of them) on `baseSha`. */
  remember(
    repo: string,
    baseSha: Sha,
    shape: ChainShape,
    pulls: readonly ChainPull[],
    start: Omit<ChainStart, "count">,
  ) {
    if (pulls.length > 0) this.built.set(keyOf(repo, baseSha, shape, pulls), start);
  }

  /**
   * The longest build of a strict prefix of `pulls` on `baseSha` with `shape` (never the whole
   * list: a batch checked again gets a commit of its own), or null.
   */
  longestPrefix(repo: string, baseSha: Sha, shape: ChainShape, pulls: readonly ChainPull[]): ChainStart | null {
    for (let count = pulls.length - 1; count > 0; count--) {
      const hit = this.built.get(keyOf(repo, baseSha, shape, pulls.slice(0, count)));
      if (hit) return { count, ...hit };
    }
    return null;
  }

  /** Forgets a start that GitHub no longer has. */
  forget(repo: string, baseSha: Sha, shape: ChainShape, pulls: readonly ChainPull[]): void {
    this.built.delete(keyOf(repo, baseSha, shape, pulls));
  }
}
