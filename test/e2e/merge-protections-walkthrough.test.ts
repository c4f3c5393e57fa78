/**
 * docs/merge-protections.md "Try it on the local forge", run as written: the YAML block is saved as
 * `.yardmaster.yml` in an empty directory, the first shell block runs there with bash (`set -e`),
 * `yardmaster` being the checkout's bin/yardmaster.js on the PATH, and YARDMASTER_URL /
 * YARDMASTER_ADMIN_KEY those of a real server process; the second block (the looking commands) is
 * run until it shows what the page promises (the check failing, naming the rule and its condition,
 * and the queue holding the pull request), then the third block (the label), then the second again
 * until the check succeeds and the pull request is merged.
 */
import { spawn } from "node:child_process";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { BIN, ROOT, startServerProcess, type ServerProcess } from "../support/server-process.js";

const SECTION = "Try it on the local forge";

/** The code blocks of `lang` in the page's section `title`, in order. */
function blocks(page: string, title: string, lang: string): string[] {
  const start = page.indexOf(`## ${title}`);
  if (start === -1) throw new Error(`docs/merge-protections.md has no section "${title}"`);
  const end = page.indexOf("\n## ", start + 3);
  const section = page.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``, "g"))].map((m) => m[1]!);
}

let server: ServerProcess;
let work: string;
let env: NodeJS.ProcessEnv;
let look: string;
let release: string;

/** Runs `script` with bash in the walkthrough's directory; its exit code and output. */
function bash(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", `set -e\n${script}`], { cwd: path.join(work, "gate"), env });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** The look block's output: `pr show` then the status JSON (its last line). */
async function looked(): Promise<{ page: string; status: any }> {
  const run = await bash(look);
  expect(run.code, run.stderr).toBe(0);
  const lines = run.stdout.trimEnd().split("\n");
  return { page: lines.slice(0, -1).join("\n"), status: JSON.parse(lines.at(-1)!) };
}

beforeAll(async () => {
  const page = await readFile(path.join(ROOT, "docs", "merge-protections.md"), "utf8");
  const [config] = blocks(page, SECTION, "yaml");
  const [setUp, looking, labelling] = blocks(page, SECTION, "sh");
  if (!config || !setUp || !looking || !labelling) throw new Error("the section lost its YAML block or a sh block");
  look = looking;
  release = labelling;
  work = await mkdtemp(path.join(os.tmpdir(), "ym-protections-walkthrough-"));
  await mkdir(path.join(work, "gate"));
  await writeFile(path.join(work, "gate", ".yardmaster.yml"), config);
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

describe("docs/merge-protections.md, tried on the local forge as written", () => {
  it("fails the check and holds the queued pull request, then releases and merges it once labelled", async () => {
    const held = await eventually(
      async () => {
        const seen = await looked();
        expect(seen.page).toMatch(/^ {2}test +success/m);
        expect(seen.page).toMatch(
          /^ {2}Yardmaster Merge Protections +failure +1 merge protection fails +\[yardmaster\]$/m,
        );
        expect(seen.page).toContain("### 🔴 Security review");
        expect(seen.page).toContain("- [ ] `label = security-reviewed`");
        expect(seen.status.batches).toEqual([]);
        expect(seen.status.waiting_pull_requests.map((p: any) => [p.number, p.merge_protections_hold])).toEqual([
          [1, "1 merge protection fails: Security review"],
        ]);
        return seen;
      },
      120_000,
      1_000,
    );
    expect(held.page).toMatch(/^state: +open$/m);

    const labelled = await bash(release);
    expect(labelled.code, labelled.stderr).toBe(0);
    const merged = await eventually(
      async () => {
        const seen = await looked();
        expect(seen.page).toMatch(/^state: +merged$/m);
        return seen;
      },
      120_000,
      1_000,
    );
    expect(merged.page).toMatch(
      /^ {2}Yardmaster Merge Protections +success +The merge protection is satisfied +\[yardmaster\]$/m,
    );
    expect(merged.status.waiting_pull_requests).toEqual([]);
  }, 300_000);
});
