/** Runs the real `yardmaster` CLI (bin/yardmaster.js) as a user would, capturing its output. */
import { execFile } from "node:child_process";
import { expect } from "vitest";
import { BIN, ROOT } from "./server-process.js";

/** How a CLI run ended: its exit status (1 when it was killed by a signal), the signal, its output. */
export interface CliResult {
  code: number;
  /** The signal that ended the process (e.g. "SIGKILL"), or null when it exited. */
  signal: string | null;
  stdout: string;
  stderr: string;
}

/** Runs `yardmaster <args>` with `env` from the repository's root; never rejects. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd: ROOT, env, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        const signal = err && "signal" in err && typeof err.signal === "string" ? err.signal : null;
        resolve({ code: err ? (typeof err.code === "number" ? err.code : 1) : 0, signal, stdout, stderr });
      },
    );
  });
}

/**
 * Runs `yardmaster <args>` with `env` and expects it to succeed (exit 0; its stderr is the
 * assertion's message). Returns its standard output, trimmed.
 */
export async function cliStdout(env: NodeJS.ProcessEnv, args: string[]): Promise<string> {
  const res = await runCli(args, env);
  expect(res.code, res.stderr).toBe(0);
  return res.stdout.trim();
}
