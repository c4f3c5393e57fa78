/**
 * The envelope of a task sent to a worker thread: its input, and a message port on which the
 * thread says it has started it, so that the pool counts the time limit from then, not from when
 * the task was queued (worker-pool.ts).
 */
import type { MessagePort } from "node:worker_threads";

/** What a thread receives for one task. */
export interface Task<I = unknown> {
  input: I;
  started: MessagePort;
}

/** `fn` as a task function: it tells the pool it started, then runs on the input. */
export function taskFunction<I, O>(fn: (input: I) => O): (task: Task<I>) => O {
  return (task) => {
    task.started.postMessage(0);
    task.started.close();
    return fn(task.input);
  };
}
