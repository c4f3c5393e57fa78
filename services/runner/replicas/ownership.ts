/**
 * Which repositories this process works (docs/deployment.md "Several replicas"): the runner asks
 * before it works a repository, and hands the work of a repository that another replica works to
 * that replica instead. One process alone works every repository ({@link SOLE_REPLICA}).
 */

/** What the runner's scheduling needs to know about the replicas (membership.ts implements it). */
export interface RepositoryOwnership {
  /** Whether this process works `repository` now. */
  owns(repository: string): boolean;
  /** Tells the replica working `repository` that it has work now (a notification); never throws. */
  handOver(repository: string): void;
  /**
   * Calls `fn` with a repository this process works when another process handed its work over, and
   * with null when the replicas changed or notifications may have been missed (anything may have
   * work: sweep).
   */
  onWork(fn: (repository: string | null) => void): void;
}

/** A process alone: it works every repository. */
export const SOLE_REPLICA: RepositoryOwnership = {
  owns: () => true,
  handOver: () => {},
  onWork: () => {},
};
