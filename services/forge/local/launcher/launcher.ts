/**
 * Starts processes (git commands, CI scripts) from a small helper process (launcher-child.cjs)
 * instead of from this one. Starting a process blocks its parent for a time that grows with the
 * parent's memory (fork copies the page tables): in the server, which holds the embedded
 * ClickHouse engine, about 25 ms per process against about 6 ms from the helper, and the local
 * forge starts thousands of them. The helper is started on first use and again if it dies (the
 * requests in flight are told, as if their processes had been killed); it keeps this process
 * alive only while requests are in flight, and exits when this process does.
 * Rules: docs/local-forge.md "Running git" and "CI runner".
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { HelperReply, HelperRequest, NewRequest } from "./protocol.js";

/** Who hears the replies to one request. */
export interface ReplyListener {
  /** Each reply to the request, in the order the helper sent them. */
  onReply(reply: HelperReply): void;
  /** The helper died or did not take the request: no more replies will come. */
  onLost(why: string): void;
}

/** One request in flight. */
export interface Conversation {
  readonly id: number;
  /** Sends a follow-up request about this one (`release`). */
  send(request: Omit<Extract<HelperRequest, { kind: "release" }>, "id">): void;
  /** Stops listening: later replies are dropped and this process may exit. Idempotent. */
  end(): void;
}

const CHILD_PATH = fileURLToPath(new URL("./launcher-child.cjs", import.meta.url));

let helper: ChildProcess | null = null;
let nextId = 1;
const listeners = new Map<number, ReplyListener>();

/** The running helper, started when there is none. */
function runningHelper(): ChildProcess {
  if (helper !== null) return helper;
  const child = fork(CHILD_PATH, [], {
    serialization: "advanced",
    stdio: ["ignore", "ignore", "inherit", "ipc"],
    execArgv: [],
  });
  child.on("message", (reply: HelperReply) => listeners.get(reply.id)?.onReply(reply));
  const lost = (why: string) => {
    if (helper !== child) return;
    helper = null;
    // An error event may leave the helper running: it must neither linger nor hold this process.
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    child.unref();
    child.channel?.unref();
    const orphans = [...listeners.values()];
    listeners.clear();
    for (const listener of orphans) listener.onLost(`the process launcher ${why}`);
  };
  child.on("exit", (code, signal) => lost(`exited (${signal ?? `code ${code}`})`));
  child.on("error", (error) => lost(`failed: ${error.message}`));
  helper = child;
  return child;
}

/** Keeps this process alive while requests are in flight, and only then. */
function holdWhileBusy(child: ChildProcess): void {
  if (listeners.size > 0) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

/**
 * Sends a request to the helper (starting it if needed); its replies go to `listener` until
 * {@link Conversation.end}. Never throws: a request the helper does not take reaches `onLost`.
 */
export function converse(request: NewRequest, listener: ReplyListener): Conversation {
  const child = runningHelper();
  const id = nextId++;
  listeners.set(id, listener);
  holdWhileBusy(child);
  const end = () => {
    if (listeners.get(id) !== listener) return;
    listeners.delete(id);
    holdWhileBusy(child);
  };
  const refused = (error: Error | null) => {
    if (error === null || listeners.get(id) !== listener) return;
    end();
    listener.onLost(`the process launcher did not take the request: ${error.message}`);
  };
  child.send({ ...request, id }, refused);
  return {
    id,
    send: (followUp) => {
      if (listeners.get(id) === listener && child.connected) child.send({ ...followUp, id }, () => {});
    },
    end,
  };
}
