/**
 * Configuration texts loaded with bounded work (docs/configuration.md "Limits"). Parsing and
 * validating 1 MiB of YAML takes about a second of CPU: run on the server's event loop, it held
 * every other request (health checks included) that long. A text (with the text its `extends`
 * names) over `inlineMaxBytes` is loaded in the worker pool; a smaller one inline, where it costs
 * less than the trip to a thread (4 KiB: 9 in 10 real files, a few milliseconds). A text stopped
 * by the pool's time or memory limit loads as one error naming the limit, marked `transient`
 * (it depends on the machine's load: the queue does not keep it as the file's verdict).
 */
import { byteLength, MAX_CONFIGURATION_BYTES, type LoadOptions, type LoadResult } from "../config/index.js";
import { runLoadTask, type ExtendedText, type LoadOutcome, type LoadTask } from "./load-task.js";
import { WorkLimitError, type RunOptions, type WorkerPool } from "./worker-pool.js";

/** Texts (with the text they extend) up to this many bytes of UTF-8 load inline. */
export const INLINE_CONFIGURATION_BYTES = 4 * 1024;

/** A load's result; `transient` when a time or memory limit stopped it (the same text may load later). */
export type PooledLoadResult = LoadResult & { transient?: true };

/**
 * Loads a text as `loadConfiguration` does (same options, same results), in `pool` when large
 * (as `run.caller`'s task).
 * @throws PoolBusyError when the pool is busy (the caller over its share, or waiting too long)
 */
export async function loadConfigurationIn(
  pool: WorkerPool,
  text: string,
  options: LoadOptions = {},
  inlineMaxBytes = INLINE_CONFIGURATION_BYTES,
  run: RunOptions = {},
): Promise<PooledLoadResult> {
  const own = byteLength(text);
  let extended: ExtendedText | undefined;
  let extendedBytes = 0;
  for (;;) {
    const task: LoadTask = {
      text,
      repositoryName: options.repositoryName,
      canExtend: options.loadExtended !== undefined,
      extended,
    };
    // A text over the size limit is refused before it is parsed: it costs nothing to load.
    const cost =
      (own <= MAX_CONFIGURATION_BYTES ? own : 0) + (extendedBytes <= MAX_CONFIGURATION_BYTES ? extendedBytes : 0);
    let outcome: LoadOutcome;
    try {
      outcome =
        cost <= inlineMaxBytes ? await runLoadTask(task) : await pool.run<LoadOutcome>("loadConfiguration", task, run);
    } catch (e) {
      if (!(e instanceof WorkLimitError)) throw e;
      return {
        ok: false,
        errors: [{ path: [], line: null, column: null, message: `parsing and validating the file ${e.message}` }],
        deprecations: [],
        transient: true,
      };
    }
    if (outcome.kind === "loaded") return outcome.result;
    // One level of extends: the second run has the text it asked for.
    if (extended !== undefined)
      throw new Error(`the load asked for repository "${outcome.name}" after "${extended.name}" was read`);
    try {
      const read = await options.loadExtended!(outcome.name);
      extended = { name: outcome.name, text: read };
      extendedBytes = read === null ? 0 : byteLength(read);
    } catch (e) {
      extended = { name: outcome.name, error: (e as Error).message };
    }
  }
}
