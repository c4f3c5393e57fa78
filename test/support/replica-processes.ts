/**
 * Replicas of `yardmaster serve` (docs/deployment.md "Several replicas") as real processes: each
 * `node bin/yardmaster.js serve --only queue,simulator` with FORGE=github on one PostgreSQL, a data
 * directory of its own and a free loopback port, its banner giving the port. Used by
 * test/e2e/replicas-*.test.ts and `npm run bench:scale`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { waitForLine } from "./server-process.js";

const UP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The project directory: this file is test/support/, or dist/test/support/ compiled. */
const PROJECT = path.basename(UP) === "dist" ? path.dirname(UP) : UP;

/** What every replica of a deployment shares. */
export interface ReplicaSetting {
  databaseUrl: string;
  /** The GitHub API root (the double's URL). */
  githubApiUrl: string;
  appId: number;
  privateKey: string;
  webhookSecret: string;
  adminKey: string;
  /** More variables (e.g. YARDMASTER_FAILPOINTS, LOG_LEVEL); they win over the defaults. */
  env?: NodeJS.ProcessEnv;
  /** Arguments for node before the script (e.g. a preloaded probe). */
  nodeArgs?: string[];
}

/** A running replica. */
export interface ReplicaProcess {
  name: string;
  url: string;
  child: ChildProcess;
  /** Everything it wrote to stdout and stderr. */
  output(): string;
  /** Its exit code (null when killed by a signal); resolves when it exited. */
  exited: Promise<number | null>;
  /** The repositories its `/metrics` says it works (`yardmaster_runner_repository_worked`). */
  worked(): Promise<string[]>;
  /** The live replicas its `/metrics` says it sees (`yardmaster_runner_replicas`). */
  sees(): Promise<number>;
  /** Sends SIGTERM once (a second would end it at once, as a second Ctrl-C does). */
  terminate(): void;
  /** SIGTERM (once), and its exit code once it exited (it is killed after 30 s). */
  stop(): Promise<number | null>;
  /** Kills it if it still runs and removes its data directory. */
  cleanup(): Promise<void>;
}

/**
 * Starts one replica named `name` (YARDMASTER_REPLICA_NAME).
 * @throws Error with its output when it exits or prints no banner within 60 s
 */
export async function startReplica(name: string, s: ReplicaSetting): Promise<ReplicaProcess> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "ym-replica-"));
  const { DATABASE_URL: _d, CLICKHOUSE_URL: _c, ...inherited } = process.env;
  const env = {
    ...inherited,
    PORT: "0",
    HOST: "127.0.0.1",
    YARDMASTER_DATA_DIR: dataDir,
    DATABASE_URL: s.databaseUrl,
    YARDMASTER_ADMIN_KEY: s.adminKey,
    YARDMASTER_REPLICA_NAME: name,
    FORGE: "github",
    GITHUB_API_URL: s.githubApiUrl,
    GITHUB_APP_ID: String(s.appId),
    GITHUB_PRIVATE_KEY: s.privateKey,
    GITHUB_WEBHOOK_SECRET: s.webhookSecret,
    // The double has no secondary rate limit: writes are not spaced a second apart.
    GITHUB_SPACE_WRITES: "false",
    LOG_LEVEL: "warn",
    LOG_FORMAT: "json",
    ...s.env,
  };
  const args = [
    ...(s.nodeArgs ?? []),
    path.join(PROJECT, "bin", "yardmaster.js"),
    "serve",
    "--only",
    "queue,simulator",
  ];
  const child = spawn(process.execPath, args, { cwd: PROJECT, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let terminated = false;
  const terminate = () => {
    if (terminated || child.exitCode !== null || child.signalCode !== null) return;
    terminated = true;
    child.kill("SIGTERM");
  };
  try {
    const port = Number((await waitForLine(child, /listening on http:\/\/127\.0\.0\.1:(\d+)/, () => out))[1]);
    const url = `http://127.0.0.1:${port}`;
    return {
      name,
      url,
      child,
      output: () => out,
      exited,
      async sees() {
        const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
        return Number(/^yardmaster_runner_replicas\{[^}]*\} (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
      },
      async worked() {
        const text = await (await fetch(`${url}/metrics`, { signal: AbortSignal.timeout(5000) })).text();
        return [...text.matchAll(/^yardmaster_runner_repository_worked\{[^}]*repository="([^"]+)"[^}]*\} 1$/gm)]
          .map((m) => m[1])
          .sort();
      },
      terminate,
      async stop() {
        terminate();
        const timer = setTimeout(() => child.kill("SIGKILL"), 30_000);
        const code = await exited;
        clearTimeout(timer);
        return code;
      },
      async cleanup() {
        if (child.exitCode === null && child.signalCode === null) {
          child.kill("SIGKILL");
          await exited;
        }
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    child.kill("SIGKILL");
    await rm(dataDir, { recursive: true, force: true });
    throw e;
  }
}
