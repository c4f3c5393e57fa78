/**
 * Inflating a gzip request body as a task for a worker thread (docs/api.md "Uploads"): a body of
 * 20 MiB may inflate to 200 MiB, which the server's event loop must neither wait for nor hold (nor
 * collect: the result is moved back, not copied). The output stops at `max` bytes: past it the task
 * answers `too_large`, so a gzip bomb costs at most that.
 */
import { gunzipSync } from "node:zlib";
import { move } from "piscina";

/** What crosses to the thread. */
export interface InflateTask {
  bytes: Uint8Array;
  /** Largest output, bytes. */
  max: number;
}

/** The inflated bytes (moved to the caller), or why there are none. */
export type InflateResult = Uint8Array | { reason: "too_large" } | { reason: "invalid"; message: string };

/** Inflates the gzip data, within `max` bytes. */
export function inflateGzip(task: InflateTask): InflateResult {
  try {
    const out = gunzipSync(task.bytes, { maxOutputLength: task.max });
    // A buffer of its own (a view of a shared one cannot be moved), moved rather than copied back.
    const own = out.byteOffset === 0 && out.byteLength === out.buffer.byteLength ? out : Uint8Array.from(out);
    return move(own) as Uint8Array;
  } catch (e) {
    if ((e as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") return { reason: "too_large" };
    return { reason: "invalid", message: (e as Error).message };
  }
}
