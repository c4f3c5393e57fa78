/**
 * The messages between the process launcher (launcher.ts) and its helper process
 * (launcher-child.cjs), over Node's IPC channel with `serialization: "advanced"` (Buffers arrive
 * as Uint8Array). Every request carries an `id`; every reply names the request it answers.
 * docs/local-forge.md "Running git" and "CI runner".
 */

/** Run a command to completion with `execFile` (git): one `done` reply. */
export interface ExecRequest {
  kind: "exec";
  id: number;
  file: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd?: string;
  input?: Buffer;
  /** Largest stdout accepted, in bytes. */
  maxBuffer: number;
}

/**
 * Start a command in its own process group (`detached`), stdin closed, stdout and stderr piped:
 * replies `started` (or `error`), `output` chunks, `exit`, then `closed` once its pipes are
 * closed. The launcher ends the group itself with `process.kill(-pid, signal)`.
 */
export interface SpawnRequest {
  kind: "spawn";
  id: number;
  file: string;
  args: readonly string[];
  env: Record<string, string>;
  cwd: string;
}

/** Stop reading a spawned command's pipes (they are held open by something it left behind). */
export interface ReleaseRequest {
  kind: "release";
  id: number;
}

/** A message to the helper. */
export type HelperRequest = ExecRequest | SpawnRequest | ReleaseRequest;

/** An `exec` request ended. exitCode null: could not start, was killed, or printed more than maxBuffer. */
export interface DoneReply {
  kind: "done";
  id: number;
  stdout: Uint8Array;
  stderr: Uint8Array;
  exitCode: number | null;
  /** The failure as Node reported it; null on exit code 0. */
  message: string | null;
}

/** A spawned command started; `pid` is also its process group id. */
export interface StartedReply {
  kind: "started";
  id: number;
  pid: number;
}

/** Bytes a spawned command wrote to stdout or stderr, in the order read. */
export interface OutputReply {
  kind: "output";
  id: number;
  chunk: Uint8Array;
}

/** A spawned command exited (code) or was killed (signal). */
export interface ExitReply {
  kind: "exit";
  id: number;
  code: number | null;
  signal: string | null;
}

/** A spawned command's pipes are closed: nothing more comes for this id. */
export interface ClosedReply {
  kind: "closed";
  id: number;
}

/** A spawned command could not be started (or Node reported an error on it). */
export interface ErrorReply {
  kind: "error";
  id: number;
  message: string;
}

/** A message from the helper. */
export type HelperReply = DoneReply | StartedReply | OutputReply | ExitReply | ClosedReply | ErrorReply;

/** Distributes `T` over a union, dropping `id` from each member. */
type WithoutId<T> = T extends unknown ? Omit<T, "id"> : never;

/** A request before the launcher gives it an id. */
export type NewRequest = WithoutId<ExecRequest | SpawnRequest>;
