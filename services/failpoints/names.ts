/**
 * The failpoints placed in the code, by name (docs/reliability.md "Failpoints" describes each).
 * Code uses these constants; tests and `YARDMASTER_FAILPOINTS` use the strings.
 */
export const FAILPOINT_NAMES = {
  /** Local forge write: a git ref was moved (journalled), the write's transaction has not committed. */
  localRefMoved: "local-forge.after-ref-move",
  /** Local forge merge of a batch: the base ref was moved, the pull requests are not yet recorded merged. */
  localMergeBaseMoved: "local-forge.merge.after-base-move",
  /** Local forge write: everything written, COMMIT not yet sent (a callback here can drop the connection). */
  localBeforeCommit: "local-forge.before-commit",
  /** Local forge write: the transaction committed (or so COMMIT answered), its events not yet delivered. */
  localCommitted: "local-forge.after-commit",
  /** Runner: an effect of this kind is recorded as started (committed) and not yet performed. */
  effectStarted: (kind: string) => `runner.effect.${kind}.after-start`,
  /** Runner: the forge call of an effect of this kind returned; its result is not yet recorded. */
  effectPerformed: (kind: string) => `runner.effect.${kind}.after-perform`,
  /**
   * Runner: the forge calls of a pull request rule's action (`comment`, `label`, `backport`, ...)
   * returned; its event and outcome are not yet recorded.
   */
  ruleActionPerformed: (action: string) => `runner.effect.rule_action.${action}.after-perform`,
  /** Runner: a backport's or copy's pull request was opened on one target, its labels and assignees not yet set. */
  copyPullOpened: (action: string) => `runner.effect.rule_action.${action}.after-pull-request`,
  /** GitHub batch merge: one pull request merged, the next not yet. */
  githubBetweenPulls: "github.merge-batch.between-pulls",
  /** GitHub batch landed through its own pull request: that one merged, the batch's pull requests not yet closed. */
  githubThroughPullMerged: "github.land-through-pull.after-merge",
} as const;
