/**
 * Starts git commands from a small helper process (git-launcher-child.cjs) instead of from this
 * one. Starting a process blocks its parent for a time that grows with the parent's memory: in the
 * server, which holds the embedded ClickHouse engine, about 25 ms per git command against about
 * 6 ms from the helper, and the local forge runs thousands of them. The helper is started on first
 * use and again if it dies (its commands in flight fail, as a killed git would); it keeps this
 * process alive only while commands are in flight, and exits when this process does.
 * Rules: docs/local-forge.md "Running git".
 */
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";

/** One command for the helper: what `execFile("git", args, ...)` takes. */
export interface LaunchRequest {
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
  input?: string | Buffer;
  /** Largest stdout accepted, in bytes. */
  maxBuffer: number;
}

/** What the command printed and how it ended. */
export interface LaunchResult {
  stdout: Buffer;
  stderr: Buffer;
  /** Exit code; null when git could not start, was killed, or printed more than maxBuffer. */
  exitCode: number | null;
  /** The failure as Node reported it; null on exit code 0. */
  message: string | null;
}

interface Pending {
  resolve(result: LaunchResult): void;
}

interface Response {
  id: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  exitCode: number | null;
  message: string | null;
}

const CHILD_PATH = fileURLToPath(new URL("./git-launcher-child.cjs", import.meta.url));

let helper: ChildProcess | null = null;
let nextId = 1;
const pending = new Map<number, Pending>();

const toBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** The running helper, started when there is none. */
function runningHelper(): ChildProcess {
  if (helper !== null) return helper;
  const child = fork(CHILD_PATH, [], { serialization: "advanced", stdio: ["ignore", "ignore", "inherit", "ipc"], execArgv: [] });
  child.on("message", (response: Response) => {
    const waiting = pending.get(response.id);
    if (waiting === undefined) return;
    pending.delete(response.id);
    holdWhileBusy(child);
    waiting.resolve({ stdout: toBuffer(response.stdout), stderr: toBuffer(response.stderr), exitCode: response.exitCode, message: response.message });
  });
  const lost = (why: string) => {
    if (helper === child) helper = null;
    for (const [id, waiting] of pending) {
      pending.delete(id);
      waiting.resolve({ stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: null, message: `the git launcher ${why}` });
    }
  };
  child.on("exit", (code, signal) => lost(`exited (${signal ?? `code ${code}`})`));
  child.on("error", (error) => lost(`failed: ${error.message}`));
  helper = child;
  return child;
}

/** Keeps this process alive while the helper has commands in flight, and only then. */
function holdWhileBusy(child: ChildProcess): void {
  if (pending.size > 0) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

/**
 * Runs `git <args>` in the helper process.
 * @returns stdout and stderr bytes and the exit code; never rejects: a helper that could not be
 *   started or died reports exitCode null and a message
 */
export function launchGit(request: LaunchRequest): Promise<LaunchResult> {
  return new Promise((resolve) => {
    const child = runningHelper();
    const id = nextId++;
    pending.set(id, { resolve });
    holdWhileBusy(child);
    const input = typeof request.input === "string" ? Buffer.from(request.input, "utf8") : request.input;
    child.send({ id, args: request.args, env: request.env, cwd: request.cwd, input, maxBuffer: request.maxBuffer }, (error) => {
      if (error === null || !pending.has(id)) return;
      pending.delete(id);
      holdWhileBusy(child);
      resolve({ stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: null, message: `the git launcher did not take the command: ${error.message}` });
    });
  });
}
