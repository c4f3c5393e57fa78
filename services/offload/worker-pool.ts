/**
 * A pool of worker threads for work too costly for the event loop (piscina, a Node.js project):
 * - at most `maxThreads` tasks run at once, in threads lowered in CPU priority (`niceIncrement`)
 *   so that request handling goes first;
 * - at most `maxQueue` tasks wait, shared fairly among callers (fair-queue.ts): a caller over its
 *   share of a full pool is answered RESOURCE_EXHAUSTED ("retry shortly"), never another caller;
 *   a task that waited `maxWaitMs` is answered UNAVAILABLE;
 * - each task within `timeoutMs` of running (counted from when its thread takes it: the thread
 *   says so on a message port, task.ts) and a heap of `maxHeapMb`: a task over either stops its
 *   thread and rejects with {@link WorkLimitError}; the next task starts a new thread at once.
 * Tasks are handed to piscina only when a thread is free, so piscina never queues one: the order
 * is the fair queue's, and a thread stopped at a limit is replaced by the next task's start
 * (piscina, left with queued tasks and no thread, started none until a new task came: the tasks
 * behind a timed-out one waited for minutes).
 * No thread starts before the first task; idle threads stop after 30 s.
 */
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import { FairQueue } from "./fair-queue.js";
import type { PoolBusyError } from "./pool-busy.js";
import type { Task } from "./task.js";

/** Bounds of a {@link WorkerPool}; every field has a default ({@link POOL_DEFAULTS}). */
export interface WorkerPoolOptions {
  /** Threads at most (default: the cores but one, 1 to 4). */
  maxThreads?: number;
  /** Tasks waiting for a thread at most (default 16). */
  maxQueue?: number;
  /** Time one task may take, milliseconds (default 10,000). */
  timeoutMs?: number;
  /** Heap of one thread, MiB (default 512). */
  maxHeapMb?: number;
  /** How long a task may wait for a thread, milliseconds (default 15,000). */
  maxWaitMs?: number;
  /** How much lower the threads' CPU priority is than the process's (nice, default 5). */
  niceIncrement?: number;
}

/** Options of one task. */
export interface RunOptions {
  /** Who the task is for (an API credential, a repository): the fair queue's unit (default: one shared caller). */
  caller?: string;
  /** This task's time limit, milliseconds (default: the pool's `timeoutMs`). */
  timeoutMs?: number;
  /** Buffers that move to the thread instead of being copied (unusable here afterwards). */
  transfer?: readonly ArrayBuffer[];
}

/** Defaults of {@link WorkerPoolOptions}. */
export const POOL_DEFAULTS = {
  maxThreads: Math.max(1, Math.min(4, availableParallelism() - 1)),
  maxQueue: 16,
  timeoutMs: 10_000,
  maxHeapMb: 512,
  maxWaitMs: 15_000,
  niceIncrement: 5,
} as const;

/** A task stopped by the time or the memory limit; `message` names the limit. */
export class WorkLimitError extends Error {
  override readonly name = "WorkLimitError";
  constructor(
    readonly limit: "time" | "memory",
    message: string,
  ) {
    super(message);
  }
}

/** Runs the exports of worker.ts in threads (see the module comment). */
export interface WorkerPool {
  /**
   * Runs `worker.ts`'s export `name` with `input` in a thread, once the fair queue lets it.
   * @throws WorkLimitError past the time or memory limit; PoolBusyError resource_exhausted when
   *   the pool is full and the caller holds its share, unavailable when it waited `maxWaitMs`;
   *   the task's own error
   */
  run<T>(name: string, input: unknown, options?: RunOptions): Promise<T>;
  /** The refusal a task of `caller` would get now, or null (to refuse a request before reading its body). */
  refusalFor(caller: string): PoolBusyError | null;
  /** The bounds in force. */
  readonly options: Required<WorkerPoolOptions>;
  /** Stops the threads (a running task fails). */
  close(): Promise<void>;
}

/**
 * The threads' module and, when this code runs from its TypeScript sources, tsx's `require` hook
 * for them: on Node 20, tsx registers its ESM hooks in the main thread only, while piscina loads a
 * task module with `require` first (Node 20.19 and later `require` ES modules).
 */
function workerEntry(): { filename: string; execArgv: string[] } {
  const fromSource = import.meta.url.endsWith(".ts");
  const filename = fileURLToPath(new URL(`./worker.${fromSource ? "ts" : "js"}`, import.meta.url));
  if (!fromSource) return { filename, execArgv: [] };
  return { filename, execArgv: ["--require", createRequire(import.meta.url).resolve("tsx/cjs")] };
}

/** Creates a pool (no thread yet). */
export function createWorkerPool(options: WorkerPoolOptions = {}): WorkerPool {
  const o = { ...POOL_DEFAULTS, ...options };
  const queue = new FairQueue({ slots: o.maxThreads, capacity: o.maxThreads + o.maxQueue, maxWaitMs: o.maxWaitMs });
  let piscina: Piscina | null = null;
  const threads = () => {
    if (piscina !== null) return piscina;
    piscina = new Piscina({
      ...workerEntry(),
      // The export a thread loads when it starts; each task names its own.
      name: "loadConfiguration",
      minThreads: 0,
      maxThreads: o.maxThreads,
      idleTimeout: 30_000,
      niceIncrement: o.niceIncrement,
      resourceLimits: { maxOldGenerationSizeMb: o.maxHeapMb },
    });
    // A thread's failure reaches the task it ran (run() rejects); unheard, the pool's own
    // "error" event would end the process.
    piscina.on("error", () => {});
    return piscina;
  };
  return {
    options: o,
    refusalFor: (caller) => queue.refusalFor(caller),
    async run<T>(name: string, input: unknown, run: RunOptions = {}): Promise<T> {
      const release = await queue.admit(run.caller ?? "");
      const timeoutMs = run.timeoutMs ?? o.timeoutMs;
      const { port1: started, port2 } = new MessageChannel();
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      started.once("message", () => (timer = setTimeout(() => controller.abort(), timeoutMs)));
      try {
        const task: Task = { input, started: port2 };
        return await threads().run(task, {
          name,
          signal: controller.signal,
          transferList: [port2, ...(run.transfer ?? [])],
        });
      } catch (e) {
        const err = e as Error & { code?: string };
        if (err.name === "AbortError")
          throw new WorkLimitError("time", `took more than ${timeoutMs / 1000} s (the time limit)`);
        if (err.code === "ERR_WORKER_OUT_OF_MEMORY")
          throw new WorkLimitError("memory", `needed more than ${o.maxHeapMb} MiB of memory (the memory limit)`);
        throw e;
      } finally {
        clearTimeout(timer);
        started.close();
        // The next task starts now: on a new thread when this one was stopped at a limit.
        release();
      }
    },
    async close() {
      const p = piscina;
      piscina = null;
      await p?.destroy();
    },
  };
}
