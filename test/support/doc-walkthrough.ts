/**
 * A docs page's "try it" section run as written: its code blocks read from the page, a work
 * directory with a `bin/yardmaster` that runs the checkout's CLI, a real server process, and bash
 * run in the walkthrough's repository directory with YARDMASTER_URL / YARDMASTER_ADMIN_KEY of that
 * server on the environment (`set -e`, as a reader pasting the block into a shell would see it fail).
 */
import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { BIN, ROOT, startServerProcess, type ServerProcess } from "./server-process.js";

/** One bash run: its exit code (null when killed by a signal) and what it printed. */
export interface BashRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A walkthrough's server, work directory and shell. */
export interface Walkthrough {
  server: ServerProcess;
  /** The repository directory the blocks run in (`<work>/<repository>`). */
  directory: string;
  /** Runs `script` with bash (`set -e`) in `directory`. */
  bash(script: string): Promise<BashRun>;
  /** Like `bash`, but throws with the output and the server's last log lines unless it exits 0. */
  run(script: string): Promise<string>;
  /** Stops the server and removes the work directory. */
  close(): Promise<void>;
}

/**
 * The code blocks of `lang` (`sh`, `yaml`) in the section of `docs/<page>` that starts at the
 * heading line `heading` (for example `## Try it on the local forge`), up to the next `## `
 * heading; after the heading `within`, when given (a `###` section under a `##`).
 * @throws Error naming the page and heading when the section is missing.
 */
export async function docBlocks(page: string, heading: string, lang: string, within?: string): Promise<string[]> {
  const text = await readFile(path.join(ROOT, "docs", page), "utf8");
  const from = within === undefined ? 0 : text.indexOf(within);
  const start = from === -1 ? -1 : text.indexOf(heading, from);
  if (start === -1) throw new Error(`docs/${page} has no section "${heading}"`);
  const end = text.indexOf("\n## ", start + heading.length);
  const section = text.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, "g"))].map((m) => m[1]!);
}

/**
 * Starts a walkthrough: a temporary work directory named after `name`, the repository directory
 * `repository` in it (with `.yardmaster.yml` = `config` when given), and a real server process.
 */
export async function startWalkthrough(options: {
  name: string;
  repository: string;
  config?: string;
}): Promise<Walkthrough> {
  const work = await mkdtemp(path.join(os.tmpdir(), `ym-${options.name}-`));
  const directory = path.join(work, options.repository);
  await mkdir(directory);
  if (options.config !== undefined) await writeFile(path.join(directory, ".yardmaster.yml"), options.config);
  const bin = path.join(work, "bin");
  await mkdir(bin);
  await writeFile(path.join(bin, "yardmaster"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(path.join(bin, "yardmaster"), 0o755);
  const server = await startServerProcess();
  const env: NodeJS.ProcessEnv = {
    ...server.cliEnv,
    YARDMASTER_URL: server.url,
    YARDMASTER_ADMIN_KEY: server.adminKey,
    PATH: `${bin}:${process.env.PATH}`,
    GIT_AUTHOR_NAME: "Walkthrough",
    GIT_AUTHOR_EMAIL: "walkthrough@example.com",
    GIT_COMMITTER_NAME: "Walkthrough",
    GIT_COMMITTER_EMAIL: "walkthrough@example.com",
  };
  const bash = (script: string): Promise<BashRun> =>
    new Promise((resolve) => {
      const child = spawn("bash", ["-c", `set -e\n${script}`], { cwd: directory, env });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("close", (code) => resolve({ code, stdout, stderr }));
    });
  return {
    server,
    directory,
    bash,
    async run(script) {
      const done = await bash(script);
      if (done.code !== 0) {
        throw new Error(`exit ${done.code}: ${done.stdout}${done.stderr}\n${server.output().slice(-3000)}`);
      }
      return done.stdout + done.stderr;
    },
    async close() {
      await server.stop();
      await rm(work, { recursive: true, force: true });
    },
  };
}
