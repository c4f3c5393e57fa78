/**
 * A ClickHouse reachable by URL for end-to-end tests: `yardmaster clickhouse-http` (the HTTP
 * interface over the embedded engine, services/activity-log/clickhouse-http-server.ts) in its own
 * process, with its own data directory. It can be stopped and started again on the same port and
 * directory, to test what happens while ClickHouse is unreachable.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { BIN, ROOT, waitForLine } from "./server-process.js";

export interface ClickHouseHttpProcess {
  url: string;
  /** Kills the process (the data directory stays). */
  stop(): Promise<void>;
  /** Starts it again on the same port and directory. */
  start(): Promise<void>;
  /** Sends a signal to the running process: SIGSTOP freezes it (connections are
   * accepted, nothing answers), SIGCONT thaws it. */
  signal(signal: "SIGSTOP" | "SIGCONT"): void;
  /** Stops it and removes its data directory. */
  destroy(): Promise<void>;
}

export async function startClickHouseHttp(): Promise<ClickHouseHttpProcess> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "ym-chhttp-"));
  let child: ChildProcess | undefined;
  let port = 0;
  const start = async () => {
    child = spawn(process.execPath, [BIN, "clickhouse-http", "--data-dir", dataDir, "--port", String(port)], {
      cwd: ROOT,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout!.on("data", (d) => (out += d));
    child.stderr!.on("data", (d) => (out += d));
    const m = await waitForLine(child, /on http:\/\/127\.0\.0\.1:(\d+)/, () => out);
    port = Number(m[1]);
  };
  const stop = async () => {
    if (!child || child.exitCode !== null) return;
    const exited = new Promise((r) => child!.once("exit", r));
    child.kill("SIGKILL");
    await exited;
  };
  await start();
  return {
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    stop,
    start,
    signal: (signal) => void child?.kill(signal),
    async destroy() {
      await stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
