/**
 * The UTF-8 bytes of an answer's JSON text, carved from a shared slab (docs/rest-json.md "Cost of
 * the transcoder"). `Buffer.from(text)` takes Node's own pool only below 4 KiB; a merge queue
 * status or a page of events is larger, so each answer got an ArrayBuffer of its own: an
 * allocation outside V8's heap and its release by the garbage collector, per request. Here answers
 * up to {@link MAX_SLICE} bytes are written into one {@link SLAB_BYTES} ArrayBuffer after another,
 * as Node's pool does with smaller buffers: a slab is never written twice, so a slice handed to a
 * socket stays intact until it is sent, and a slab is freed when its last slice is.
 */

/** The size of one slab, bytes. */
export const SLAB_BYTES = 256 * 1024;
/** The largest answer carved from a slab, bytes; a larger one gets a buffer of its own. */
export const MAX_SLICE = 64 * 1024;

let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
let used = 0;

/**
 * The UTF-8 encoding of `text` (a lone surrogate becomes U+FFFD, as with `Buffer.from`), as a
 * slice of the current slab when it fits in {@link MAX_SLICE} bytes.
 */
export function utf8Bytes(text: string): Buffer {
  const length = Buffer.byteLength(text, "utf8");
  if (length > MAX_SLICE) return Buffer.from(text, "utf8");
  if (used + length > SLAB_BYTES) {
    slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
    used = 0;
  }
  const start = used;
  const written = slab.write(text, start, length, "utf8");
  // The next slice starts 8-byte aligned, as in Node's pool.
  used = (start + written + 7) & ~7;
  return slab.subarray(start, start + written);
}
