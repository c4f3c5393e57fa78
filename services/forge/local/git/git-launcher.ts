/**
 * Runs git commands through the process launcher (../launcher/launcher.ts), so that the process
 * using the local forge never starts git itself: starting a process from the server blocks it
 * about 25 ms, about 6 ms from the launcher's helper. Rules: docs/local-forge.md "Running git".
 */
import { converse } from "../launcher/launcher.js";

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

const toBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Runs `git <args>` in the launcher's helper process.
 * @returns stdout and stderr bytes and the exit code; never rejects: a helper that could not be
 *   started or died reports exitCode null and a message
 */
export function launchGit(request: LaunchRequest): Promise<LaunchResult> {
  return new Promise((resolve) => {
    const input = typeof request.input === "string" ? Buffer.from(request.input, "utf8") : request.input;
    const conversation = converse(
      {
        kind: "exec",
        file: "git",
        args: request.args,
        env: request.env,
        cwd: request.cwd,
        input,
        maxBuffer: request.maxBuffer,
      },
      {
        onReply: (reply) => {
          if (reply.kind !== "done") return;
          conversation.end();
          resolve({
            stdout: toBuffer(reply.stdout),
            stderr: toBuffer(reply.stderr),
            exitCode: reply.exitCode,
            message: reply.message,
          });
        },
        onLost: (why) => resolve({ stdout: Buffer.alloc(0), stderr: Buffer.alloc(0), exitCode: null, message: why }),
      },
    );
  });
}
