/**
 * The configuration a runner carries over pushes proven not to change it (docs/github.md "Request
 * budget"; the proof is the forge's: `branch_pushed.configUnchanged`): per repository, the default
 * branch's commit whose configuration this runner last stored (read, or carried over such a push),
 * the stored text's SHA-256, and when it was last read (epoch ms). Kept per runner, in memory, like
 * the label echoes (label-echoes.ts): a runner that did not see the chain of pushes reads the file
 * again.
 */

/** How long a configuration read stays current through pushes proven not to change it, in ms (an hour). */
export const CONFIG_PROOF_MAX_AGE_MS = 3_600_000;

/** The most repositories remembered; the oldest noted is forgotten first. */
const MAX_REPOSITORIES = 10_000;

/** What one runner knows of the configurations it stored. */
export class ConfigProofs {
  private readonly storedAt = new Map<string, { sha: string; textSha: string; readAt: number }>();

  /**
   * Whether the configuration stored for `repository` (its text's SHA-256 `textSha`) is still
   * current after a push from `before` that the forge proved left the configuration file alone:
   * only when this runner stored that text at `before` (no push was missed in between) within
   * {@link CONFIG_PROOF_MAX_AGE_MS} of its last read.
   */
  current(repository: string, before: string | null, textSha: string, nowMs: number): boolean {
    const known = this.storedAt.get(repository);
    return (
      before !== null &&
      known?.sha === before &&
      known.textSha === textSha &&
      nowMs - known.readAt <= CONFIG_PROOF_MAX_AGE_MS
    );
  }

  /**
   * Records that the stored configuration of `repository` (text SHA-256 `textSha`) is that of
   * commit `sha` (or of a later tip): after reading it following a push to `sha` (`read`), or after
   * a push to `sha` proven to leave it unchanged (the last read's time is kept).
   */
  note(repository: string, sha: string, textSha: string, nowMs: number, read: boolean): void {
    const readAt = read ? nowMs : (this.storedAt.get(repository)?.readAt ?? nowMs);
    this.storedAt.delete(repository);
    this.storedAt.set(repository, { sha, textSha, readAt });
    if (this.storedAt.size > MAX_REPOSITORIES) this.storedAt.delete(this.storedAt.keys().next().value!);
  }
}
