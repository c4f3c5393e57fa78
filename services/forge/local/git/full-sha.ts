/**
 * Full object names: the 40 lowercase hex digits git prints for a SHA-1 object. Answers about
 * revisions written this way are fixed (content-addressed objects), which the memos of this layer
 * rely on (commit-memo.ts, refs.ts); git's own output is checked against it too.
 */

const FULL_SHA = /^[0-9a-f]{40}$/;

/** Whether `text` is a full 40-hex object name (no abbreviation, no ref name, no suffix). */
export function isFullSha(text: string): boolean {
  return FULL_SHA.test(text);
}
