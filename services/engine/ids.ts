/**
 * Deterministic identifiers. The engine has no randomness: batch, check and session ids are
 * UUID-shaped strings derived from the repository name, a kind and a counter kept in the state,
 * so applying the same events again gives the same ids (docs/merge-queue.md "Identifiers and names").
 */

/** 32-bit FNV-1a of a string with a seed, used four times to fill 128 bits. */
function fnv1a(text: string, seed: number): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  // Final avalanche (murmur3 fmix32) so close counters give unrelated ids.
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b) >>> 0;
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35) >>> 0;
  h ^= h >>> 16;
  return h >>> 0;
}

const hex8 = (n: number): string => n.toString(16).padStart(8, "0");

/**
 * A UUID (RFC 9562 version 8, "custom") for `kind` number `n` of `repository`.
 * Example: `deterministicUuid("acme/app", "batch", 3)`. Same inputs, same id.
 */
export function deterministicUuid(repository: string, kind: string, n: number): string {
  const text = `${repository}\u0000${kind}\u0000${n}`;
  const h = [0, 1, 2, 3].map((seed) => hex8(fnv1a(text, seed * 0x9e3779b9))).join("");
  const variant = ((parseInt(h[16]!, 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** RFC 9562 textual UUID (any version), lower or upper case. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
