/**
 * Runs one check's script: `bash -c <run>` in its own process group (`detached`), started by the
 * process launcher's helper (../launcher/launcher.ts) so that the server is not blocked while the
 * process is forked; stdout and stderr merged into one bounded capture, a timeout and an
 * AbortSignal that end the **whole process group** (SIGTERM, then SIGKILL after a grace period).
 * When the script exits, whatever it left running in its group is killed too.
 * docs/local-forge.md "CI runner".
 */
import { converse } from "../launcher/launcher.js";
import type { HelperReply } from "../launcher/protocol.js";
import { OutputTail } from "./output-tail.js";

/** Input of {@link runCommand}. */
export interface CommandInput {
  /** Bash script. */
  run: string;
  /** Working directory. */
  cwd: string;
  /** The whole environment of the process. */
  env: Record<string, string>;
  /** Time limit in milliseconds. */
  timeoutMs: number;
  /** Bytes of output kept (the last ones). */
  outputLimitBytes: number;
  /** Milliseconds between SIGTERM and SIGKILL when ending the group. */
  killGraceMs: number;
  signal?: AbortSignal;
}

/** How the command ended. */
export interface CommandOutcome {
  /**
   * exited: on its own; timed_out / cancelled: ended by us; spawn_failed: never started; lost:
   * the launcher's helper process died while it ran (its process group was killed).
   */
  ending: "exited" | "timed_out" | "cancelled" | "spawn_failed" | "lost";
  /** Exit code when the shell exited normally; null when killed by a signal or not started. */
  exitCode: number | null;
  /** The signal that ended the shell, if any (e.g. "SIGTERM"). */
  signal: string | null;
  /** Captured stdout + stderr (bounded), with Yardmaster's notes appended. */
  output: string;
}

/** How long to wait for the output pipes to close after the shell exited (ms). */
const CLOSE_WAIT_MS = 2_000;

/**
 * Runs `input.run` with bash and resolves when it has ended and its output is collected. Never
 * rejects: a failure to start is the `spawn_failed` ending, a launcher that died the `lost` ending
 * (its process group is killed).
 */
export function runCommand(input: CommandInput): Promise<CommandOutcome> {
  const tail = new OutputTail(input.outputLimitBytes);
  if (input.signal?.aborted) return Promise.resolve({ ending: "cancelled", exitCode: null, signal: null, output: "" });
  return new Promise((resolve) => {
    let pid: number | null = null;
    let endedBy: "timed_out" | "cancelled" | null = null;
    let killTimer: NodeJS.Timeout | undefined;
    let closeTimer: NodeJS.Timeout | undefined;
    /** Set when the script exited: finishes once its pipes close (or CLOSE_WAIT_MS later). */
    let afterExit: (() => void) | null = null;
    let settled = false;

    const killGroup = (signal: NodeJS.Signals) => {
      if (pid === null) return;
      try {
        process.kill(-pid, signal);
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    /** SIGTERM to the group now, SIGKILL after the grace period (replacing any earlier grace timer). */
    const terminate = () => {
      killGroup("SIGTERM");
      clearTimeout(killTimer);
      killTimer = setTimeout(() => killGroup("SIGKILL"), input.killGraceMs);
    };
    const end = (why: "timed_out" | "cancelled") => {
      if (endedBy !== null || settled) return;
      endedBy = why;
      terminate();
    };
    const timer = setTimeout(() => end("timed_out"), input.timeoutMs);
    const onAbort = () => end("cancelled");
    input.signal?.addEventListener("abort", onAbort, { once: true });

    const finish = (outcome: Omit<CommandOutcome, "output">, note?: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      clearTimeout(closeTimer);
      input.signal?.removeEventListener("abort", onAbort);
      conversation.end();
      if (note !== undefined) tail.push(note);
      resolve({ ...outcome, output: tail.text() });
    };

    const onReply = (reply: HelperReply) => {
      switch (reply.kind) {
        case "started":
          pid = reply.pid;
          // Ended (timed out or cancelled) before the launcher said it started: end it now, with
          // its own grace period (the one started by `end` had no process group to kill).
          if (endedBy !== null) terminate();
          return;
        case "output":
          tail.push(Buffer.from(reply.chunk.buffer, reply.chunk.byteOffset, reply.chunk.byteLength));
          return;
        case "error":
          finish(
            { ending: "spawn_failed", exitCode: null, signal: null },
            `[yardmaster: could not start bash: ${reply.message}]\n`,
          );
          return;
        case "exit": {
          // Processes the script left behind would hold the pipes open: end the group now.
          killGroup("SIGKILL");
          const outcome = { ending: endedBy ?? ("exited" as const), exitCode: reply.code, signal: reply.signal };
          const note =
            endedBy === "timed_out"
              ? `\n[yardmaster: timed out after ${input.timeoutMs / 1000} s; process group killed]\n`
              : endedBy === "cancelled"
                ? "\n[yardmaster: cancelled; process group killed]\n"
                : undefined;
          afterExit = () => finish(outcome, note);
          closeTimer = setTimeout(() => {
            conversation.send({ kind: "release" });
            afterExit?.();
          }, CLOSE_WAIT_MS);
          return;
        }
        case "closed":
          afterExit?.();
          return;
        case "done":
          return; // only `exec` requests are answered with done
      }
    };

    // The outer bash only redirects stderr into stdout and execs the script's bash (same PID,
    // same group), so both streams share one pipe and keep their real interleaving.
    const conversation = converse(
      {
        kind: "spawn",
        file: "bash",
        args: ["-c", 'exec bash -c "$1" 2>&1', "yardmaster-ci", input.run],
        cwd: input.cwd,
        env: input.env,
      },
      {
        onReply,
        onLost: (why) => {
          killGroup("SIGKILL");
          finish({ ending: "lost", exitCode: null, signal: null }, `\n[yardmaster: ${why}; process group killed]\n`);
        },
      },
    );
  });
}
