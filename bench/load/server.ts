/**
 * The server process of `npm run bench:load`: `node bin/yardmaster.js serve` (what `npm start`
 * runs) on the embedded defaults — embedded PostgreSQL and embedded ClickHouse in a fresh data
 * directory, the local forge — on a free loopback port. Its banner gives the port; the admin key is
 * read from the data directory.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { chmod, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const UP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
/** The project directory: this file is bench/load/server.ts, or dist/bench/load/server.js compiled. */
const PROJECT = path.basename(UP) === "dist" ? path.dirname(UP) : UP;

/** What loop-probe.ts measured over a window: event loop delay in ms, CPU in cores (1 = one core busy). */
export interface LoopProbe {
  p50: number;
  p99: number;
  max: number;
  cpu: number;
}

/** A running bench server: its URL, admin key and data directory; `stop` ends it and removes the directory. */
export interface BenchServer {
  url: string;
  port: number;
  adminKey: string;
  dataDir: string;
  child: ChildProcess;
  /** Everything the process wrote (warnings and errors at LOG_LEVEL=warn). */
  output(): string;
  /**
   * The server's event loop delay (p50, p99, max in ms) and CPU use (cores) since the previous
   * call, from the preloaded loop-probe.ts.
   */
  probe(): Promise<LoopProbe>;
  stop(): Promise<void>;
}

/**
 * Starts the server; `nodeArgs` go to node before the script (e.g. `--cpu-prof` for a profile).
 * @throws Error with the process output when it exits or prints no banner within 120 s
 */
export async function startBenchServer(nodeArgs: string[] = []): Promise<BenchServer> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "ym-bench-load-"));
  // As root the embedded PostgreSQL runs as its own user, which must reach its directory inside.
  await chmod(dataDir, 0o755);
  const { DATABASE_URL: _d, CLICKHOUSE_URL: _c, ...inherited } = process.env;
  const probeModule = path.join(
    path.dirname(fileURLToPath(import.meta.url)),
    `loop-probe${path.extname(fileURLToPath(import.meta.url))}`,
  );
  // Run with tsx (the probe is TypeScript), tsx's loader is needed to preload it.
  const loader = probeModule.endsWith(".ts") ? ["--import", "tsx"] : [];
  const child = spawn(
    process.execPath,
    [
      ...nodeArgs,
      ...loader,
      "--import",
      pathToFileURL(probeModule).href,
      path.join(PROJECT, "bin", "yardmaster.js"),
      "serve",
    ],
    {
      cwd: PROJECT,
      env: { ...inherited, PORT: "0", HOST: "127.0.0.1", YARDMASTER_DATA_DIR: dataDir, LOG_LEVEL: "warn" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  let out = "";
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const banner = await new Promise<RegExpMatchArray>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no banner within 120 s:\n${out}`)), 120_000);
    const look = () => {
      const port = /listening on http:\/\/127\.0\.0\.1:(\d+)/.exec(out);
      if (!port || !/Admin key/.test(out)) return;
      clearTimeout(timer);
      // The banner masks the key (docs/auth.md "The admin key"): it is read from the data directory.
      readFile(path.join(dataDir, "admin-key"), "utf8").then(
        (key) => resolve([port[1], key.trim()] as unknown as RegExpMatchArray),
        reject,
      );
    };
    child.stdout!.on("data", look);
    child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${out}`)));
  });
  const port = Number(banner[0]);
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    adminKey: banner[1],
    dataDir,
    child,
    output: () => out,
    async probe() {
      const seen = out.length;
      child.kill("SIGUSR2");
      for (let i = 0; i < 100; i++) {
        const m = /loop-probe (\{.*\})\n/.exec(out.slice(seen));
        if (m) return JSON.parse(m[1]) as LoopProbe;
        await new Promise((r) => setTimeout(r, 20));
      }
      throw new Error("the server did not answer the loop probe");
    },
    async stop() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once("exit", r));
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
