/**
 * One configuration load as a task that crosses a thread boundary (structured clone): the text,
 * and the text of the repository its `extends` names once the calling thread has read it. A
 * worker cannot call the caller's `loadExtended` (a forge read), so a task that needs the other
 * text answers with the name it needs; the caller reads it and runs the task again with it.
 * Used alike by the worker (load-worker.ts) and inline (configuration-pool.ts).
 */
import { loadConfiguration, type LoadResult } from "../config/index.js";

/** What another repository's configuration read gave: its text (null: none), or the read's error message. */
export type ExtendedText = { name: string; text: string | null } | { name: string; error: string };

/** A load to run: the text, this repository's name, whether `extends` may be read, and what was read. */
export interface LoadTask {
  text: string;
  repositoryName?: string;
  /** Whether the caller reads other repositories (it passed a `loadExtended`). */
  canExtend: boolean;
  extended?: ExtendedText;
}

/** The loaded result, or the name of the repository whose configuration the text extends. */
export type LoadOutcome = { kind: "loaded"; result: LoadResult } | { kind: "needs-extended"; name: string };

/** Runs a load task (see the module comment). Never throws for bad input. */
export async function runLoadTask(task: LoadTask): Promise<LoadOutcome> {
  let wanted: string | null = null;
  const loadExtended = async (name: string): Promise<string | null> => {
    const read = task.extended;
    if (read === undefined || read.name !== name) {
      wanted = name;
      return null;
    }
    if ("error" in read) throw new Error(read.error);
    return read.text;
  };
  const result = await loadConfiguration(task.text, {
    repositoryName: task.repositoryName,
    loadExtended: task.canExtend ? loadExtended : undefined,
  });
  return wanted === null ? { kind: "loaded", result } : { kind: "needs-extended", name: wanted };
}
