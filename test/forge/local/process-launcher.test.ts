/**
 * The process launcher (services/forge/local/launcher/) as git uses it: git commands run from a
 * helper process, with the same results and errors as before; a helper that dies is replaced; the
 * helper neither keeps a finished process alive nor outlives it, and a process killed outright
 * takes its running CI scripts with it. CI scripts started through it: ci-runner.test.ts.
 */
import { execFile, execFileSync, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GitCommandError, runGit } from "../../../services/forge/local/git/git-command.js";
import { eventually } from "../../support/eventually.js";
import { isRunning } from "../../../services/store/process-state.js";

const ROOT = path.resolve(import.meta.dirname, "../../..");

/** Pids of this process's running launcher helpers. */
function helperPids(parent = process.pid): number[] {
  try {
    return execFileSync("pgrep", ["-P", String(parent), "-f", "launcher-child.cjs"], { encoding: "utf8" })
      .split("\n")
      .filter(Boolean)
      .map(Number);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

describe("the process launcher, running git", () => {
  it("passes arguments, stdin, environment and exit codes through", async () => {
    const blob = await runGit(null, ["hash-object", "--stdin"], { input: "hello\n" });
    expect(blob.stdout.toString("utf8").trim()).toBe("ce013625030ba8dba906f756967f9e9ca394464a");
    const env = await runGit(null, ["var", "GIT_AUTHOR_IDENT"], {
      env: { GIT_AUTHOR_NAME: "Ada", GIT_AUTHOR_EMAIL: "ada@example.com", GIT_AUTHOR_DATE: "@0 +0000" },
    });
    expect(env.stdout.toString("utf8").trim()).toBe("Ada <ada@example.com> 0 +0000");
    const allowed = await runGit(null, ["check-ref-format", "refs/heads/a..b"], { okExitCodes: [0, 1] });
    expect(allowed.exitCode).toBe(1);
  });

  it("reports a failing command, and one Node refuses to start, as GitCommandError", async () => {
    const failed = await runGit(null, ["check-ref-format", "refs/heads/a..b"]).catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(GitCommandError);
    expect((failed as GitCommandError).exitCode).toBe(1);
    const refused = await runGit(null, ["a\0b"]).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GitCommandError);
    expect((refused as GitCommandError).exitCode).toBeNull();
    expect((refused as GitCommandError).message).toMatch(/null bytes/);
  });

  it("starts a new helper when the helper was killed", async () => {
    await runGit(null, ["--version"]);
    const [pid] = helperPids();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, "SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 200));
    const out = await runGit(null, ["--version"]);
    expect(out.stdout.toString("utf8")).toMatch(/^git version /);
    expect(helperPids()).not.toContain(pid);
    expect(helperPids()).toHaveLength(1);
  });

  it("lets a process that ran git exit by itself, and the helper exits with it", async () => {
    const script = `
      import { execFileSync } from "node:child_process";
      import { runGit } from "./services/forge/local/git/git-command.ts";
      const out = await runGit(null, ["--version"]);
      const helper = execFileSync("pgrep", ["-P", String(process.pid), "-f", "launcher-child.cjs"], { encoding: "utf8" }).trim();
      console.log(helper, out.stdout.toString("utf8").trim());
    `;
    const stdout = await new Promise<string>((resolve, reject) => {
      execFile(
        process.execPath,
        ["--import", "tsx", "--input-type=module", "-e", script],
        { cwd: ROOT, timeout: 60_000 },
        (error, out) => (error ? reject(error) : resolve(out)),
      );
    });
    const [helper, ...version] = stdout.trim().split(" ");
    expect(version.join(" ")).toMatch(/^git version /);
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    await eventually(async () => expect(alive(Number(helper))).toBe(false));
  });

  it("ends the CI scripts of a process that was killed outright", async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), "ym-launcher-"));
    const pidFile = path.join(dir, "sleep.pid");
    const script = `
      import { runCommand } from "./services/forge/local/ci/run-command.ts";
      await runCommand({ run: ${JSON.stringify(`sleep 60 & echo $! > ${pidFile}; wait`)}, cwd: ${JSON.stringify(dir)}, env: { PATH: process.env.PATH }, timeoutMs: 120000, outputLimitBytes: 1000, killGraceMs: 100 });
    `;
    const owner = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
      cwd: ROOT,
      stdio: "ignore",
    });
    try {
      const sleepPid = await eventually(async () => {
        const text = await readFile(pidFile, "utf8");
        expect(text).toMatch(/^\d+\n$/);
        return Number(text);
      }, 60_000);
      expect(await isRunning(sleepPid)).toBe(true);
      owner.kill("SIGKILL");
      await eventually(async () => expect(await isRunning(sleepPid)).toBe(false));
    } finally {
      owner.kill("SIGKILL");
      await rm(dir, { recursive: true, force: true });
    }
  });
});
