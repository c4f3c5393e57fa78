/**
 * docs/workflow-automation.md "Try it on the local forge", run as written:
 * the YAML block is saved as `.yardmaster.yml` in an empty directory, the first shell block runs
 * there with bash (`set -e`), `yardmaster` being the checkout's bin/yardmaster.js on the PATH, and
 * YARDMASTER_URL / YARDMASTER_ADMIN_KEY those of a real server process; the second block (the
 * looking commands) is run until it shows what the page promises: the label swapped, the comment
 * rendered, the review requested, the squash merge, the backport pull request, and the events.
 */
import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { BIN, ROOT, startServerProcess, type ServerProcess } from "../support/server-process.js";

/** The code blocks of `lang` in the page's section `title`, in order. */
function blocks(page: string, title: string, lang: string): string[] {
  const start = page.indexOf(`## ${title}`);
  if (start === -1) throw new Error(`docs/workflow-automation.md has no section "${title}"`);
  const end = page.indexOf("\n## ", start + 3);
  const section = page.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, "g"))].map((m) => m[1]!);
}

let server: ServerProcess;
let work: string;
let env: NodeJS.ProcessEnv;
let look: string;

/** Runs `script` with bash in the walkthrough's directory; its exit code and output. */
function bash(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", `set -e\n${script}`], { cwd: path.join(work, "widgets"), env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  const page = await readFile(path.join(ROOT, "docs", "workflow-automation.md"), "utf8");
  const [config] = blocks(page, "Try it on the local forge", "yaml");
  const [setUp, looking] = blocks(page, "Try it on the local forge", "sh");
  if (!config || !setUp || !looking) throw new Error("the section lost its YAML block or one of its two sh blocks");
  look = looking;
  work = await mkdtemp(path.join(os.tmpdir(), "ym-workflow-walkthrough-"));
  await mkdir(path.join(work, "widgets"));
  await writeFile(path.join(work, "widgets", ".yardmaster.yml"), config);
  const bin = path.join(work, "bin");
  await mkdir(bin);
  await writeFile(path.join(bin, "yardmaster"), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  await chmod(path.join(bin, "yardmaster"), 0o755);
  server = await startServerProcess();
  env = {
    ...server.cliEnv,
    YARDMASTER_URL: server.url,
    YARDMASTER_ADMIN_KEY: server.adminKey,
    PATH: `${bin}:${process.env.PATH}`,
    GIT_AUTHOR_NAME: "Walkthrough",
    GIT_AUTHOR_EMAIL: "walkthrough@example.com",
    GIT_COMMITTER_NAME: "Walkthrough",
    GIT_COMMITTER_EMAIL: "walkthrough@example.com",
  };
  const run = await bash(setUp);
  if (run.code !== 0) throw new Error(`the set-up block failed: ${run.stderr}\n${server.output().slice(-2000)}`);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("docs/workflow-automation.md, tried on the local forge as written", () => {
  it("labels, comments, requests a review, squash-merges and backports, as pr show, pr list and /logs show", async () => {
    const seen = await eventually(
      async () => {
        const run = await bash(look);
        expect(run.code, run.stderr).toBe(0);
        const out = run.stdout;
        expect(out).toMatch(/^state: +merged$/m);
        expect(out).toMatch(/^labels: +automerge, backport-1\.x, triaged$/m);
        expect(out).toMatch(/^review requested: +carol$/m);
        expect(out).toContain("Thanks @alice for #1!");
        // Shown as a forge renders it: the comment's hidden idempotency marker is not printed.
        expect(out).not.toContain("<!--");
        // The log's event, once the relay carried it to ClickHouse (about a second after the action).
        expect(out.trim().split("\n").at(-1)).toMatch(/"type":"action\.backport"/);
        expect(out).toMatch(
          /^#2 +open +yardmaster\/bp\/release-1\.x\/pr-1 -> release-1\.x +Add a widget \(backport #1\)/m,
        );
        return run.stdout;
      },
      120_000,
      1_000,
    );
    // The backport event, from the curl line: its target and the pull request it opened.
    const json = JSON.parse(seen.trim().split("\n").at(-1)!);
    expect(json.events).toHaveLength(1);
    expect(json.events[0]).toMatchObject({ type: "action.backport", pull_request: 1 });
    expect(json.events[0].metadata).toMatchObject({ to: "release-1.x", conflicts: false });
    const backport = Number(json.events[0].metadata.pull_request_number);
    expect(backport).toBe(2);
  }, 150_000);
});
