/**
 * Which replica works a repository: rendezvous (highest random weight) hashing, Thaler and
 * Ravishankar's (https://en.wikipedia.org/wiki/Rendezvous_hashing). Every replica ranks the live
 * replicas by a hash of (replica id, repository) and the highest wins, so replicas that see the same
 * live set agree without talking; when a replica leaves only its repositories move (each to the
 * replica ranked next for it), and a replica that joins takes about 1/n of every other's.
 */

/** 32-bit FNV-1a of `text` (UTF-16 code units), http://www.isthe.com/chongo/tech/comp/fnv/. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** MurmurHash3's finalizer: spreads every input bit over the output (FNV-1a alone ranks close keys alike). */
function mix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The weight of `replica` for `repository` (uniform in 0 .. 2^32-1). */
export function rendezvousWeight(replica: string, repository: string): number {
  return mix(fnv1a(`${replica}\u0000${repository}`));
}

/**
 * The replica (one of `replicas`, ids) that works `repository`: the highest weight, ties to the
 * smallest id. null when `replicas` is empty.
 */
export function ownerOf(repository: string, replicas: readonly string[]): string | null {
  let best: string | null = null;
  let bestWeight = -1;
  for (const id of replicas) {
    const w = rendezvousWeight(id, repository);
    if (w > bestWeight || (w === bestWeight && best !== null && id < best)) {
      best = id;
      bestWeight = w;
    }
  }
  return best;
}
