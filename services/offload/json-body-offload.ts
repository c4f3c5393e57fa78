/**
 * REST JSON bodies parsed with bounded event-loop time: `parseJsonBody` (gateway/json-body.ts)
 * decodes long strings natively, but a body of many small values is read by lossless-json one
 * character at a time (4 MiB of short strings: 110-140 ms). A body over `inlineMaxBytes` is
 * therefore parsed in the worker pool; a smaller one inline.
 */
import { parseJsonBody } from "./json-body.js";
import type { RunOptions, WorkerPool } from "./worker-pool.js";

/** Bodies up to this many characters are parsed inline (about 5 ms in the worst case). */
export const INLINE_JSON_CHARACTERS = 128 * 1024;

/**
 * The parsed body, as `parseJsonBody` gives it (in `pool` as `run.caller`'s task when large).
 * @throws SyntaxError as `parseJsonBody`; WorkLimitError or PoolBusyError from the pool
 */
export async function parseJsonBodyIn(
  pool: WorkerPool,
  text: string,
  inlineMaxCharacters = INLINE_JSON_CHARACTERS,
  run: RunOptions = {},
): Promise<unknown> {
  if (text.length <= inlineMaxCharacters) return parseJsonBody(text);
  try {
    return await pool.run("parseJsonBody", text, run);
  } catch (e) {
    // A thread's error arrives as a plain Error: the parse error is the caller's mistake.
    if (e instanceof Error && e.name === "SyntaxError") throw new SyntaxError(e.message);
    throw e;
  }
}
