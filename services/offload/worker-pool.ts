/**
 * A pool of worker threads for work too costly for the event loop (piscina, a Node.js project):
 * - at most `maxThreads` at once, lowered in CPU priority (nice 5) so request handling goes first;
 * - at most `maxQueue` tasks waiting: beyond, RESOURCE_EXHAUSTED ("retry shortly");
 * - each task within `timeoutMs` of running (counted from when its thread takes it: the thread
 *   says so on a message port, task.ts) and a heap of `maxHeapMb`: a task over either stops its thread
 *   (piscina terminates it; another starts on demand) and rejects with {@link WorkLimitError}.
 * No thread starts before the first task; idle threads stop after 30 s.
 */
import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { DomainError } from "../contracts/index.js";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
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
}

/** Defaults of {@link WorkerPoolOptions}. */
export const POOL_DEFAULTS = {
  maxThreads: Math.max(1, Math.min(4, availableParallelism() - 1)),
  maxQueue: 16,
  timeoutMs: 10_000,
  maxHeapMb: 512,
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
   * Runs `worker.ts`'s export `name` with `input` in a thread; the buffers of `transfer` move to
   * the thread instead of being copied (they are unusable here afterwards).
   * @throws WorkLimitError past the time or memory limit; DomainError resource_exhausted when
   *   `maxQueue` tasks already wait; the task's own error
   */
  run<T>(name: string, input: unknown, transfer?: readonly ArrayBuffer[]): Promise<T>;
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
  let piscina: Piscina | null = null;
  // Tasks running or waiting. Counted here: piscina leaves tasks with an abort signal (all of
  // ours, for the time limit) out of its own maxQueue.
  let inFlight = 0;
  const threads = () => {
    if (piscina !== null) return piscina;
    piscina = new Piscina({
      ...workerEntry(),
      // The export a thread loads when it starts; each task names its own.
      name: "loadConfiguration",
      minThreads: 0,
      maxThreads: o.maxThreads,
      idleTimeout: 30_000,
      niceIncrement: 5,
      resourceLimits: { maxOldGenerationSizeMb: o.maxHeapMb },
    });
    // A thread's failure reaches the task it ran (run() rejects); unheard, the pool's own
    // "error" event would end the process.
    piscina.on("error", () => {});
    return piscina;
  };
  return {
    options: o,
    async run<T>(name: string, input: unknown, transfer: readonly ArrayBuffer[] = []): Promise<T> {
      if (inFlight >= o.maxThreads + o.maxQueue) {
        throw new DomainError(
          "resource_exhausted",
          "the server is busy with other large requests: retry in a few seconds",
        );
      }
      inFlight++;
      const { port1: started, port2 } = new MessageChannel();
      const controller = new AbortController();
      let timer: NodeJS.Timeout | undefined;
      started.once("message", () => (timer = setTimeout(() => controller.abort(), o.timeoutMs)));
      try {
        const task: Task = { input, started: port2 };
        return await threads().run(task, { name, signal: controller.signal, transferList: [port2, ...transfer] });
      } catch (e) {
        const err = e as Error & { code?: string };
        if (err.name === "AbortError")
          throw new WorkLimitError("time", `took more than ${o.timeoutMs / 1000} s (the time limit)`);
        if (err.code === "ERR_WORKER_OUT_OF_MEMORY")
          throw new WorkLimitError("memory", `needed more than ${o.maxHeapMb} MiB of memory (the memory limit)`);
        throw e;
      } finally {
        inFlight--;
        clearTimeout(timer);
        started.close();
      }
    },
    async close() {
      const p = piscina;
      piscina = null;
      await p?.destroy();
    },
  };
}
