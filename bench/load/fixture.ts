/**
 * The repository of `npm run bench:load`: a git repository whose default branch carries the queue
 * configuration and a CI file whose check sleeps on the queue's draft commits ("Merge of #n") and
 * passes at once elsewhere, and N branches that each add one file (no two conflict). The branches
 * start before the CI file, so opening their pull requests starts no CI job: the local CI's slots
 * are the queue's alone. Imported into the local forge (ForgeService.CreateRepository); pull
 * requests are opened and queued by `@yardmaster queue` comments, as a person would, and kept
 * coming as others merge (feeder.ts).
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";

/** What the queue runs with: batches of 2 (filled for at most 1 s), 2 checks at once, the CI check a merge condition. */
export function queueConfig(): string {
  return [
    "queue_rules:",
    "  - name: default",
    "    batch_size: 2",
    '    batch_max_wait_time: "1 s"',
    "    branch_protection_injection_mode: merge",
    "merge_queue:",
    "  max_parallel_checks: 2",
    "",
  ].join("\n");
}

/** The CI file: `test` sleeps on the queue's drafts only. */
export function ciFile(ciSeconds: number): string {
  const run = `case "$(git log -1 --format=%s)" in "Merge of #"*) sleep ${ciSeconds};; esac`;
  return `checks:\n  - name: test\n    run: ${JSON.stringify(run)}\n`;
}

/** A ForgeService client with the admin key (Connect over HTTP/1.1, as the CLI). */
export function forgeClient(url: string, adminKey: string): Client<typeof ForgeService> {
  const auth: Interceptor = (next) => (req) => {
    req.header.set("authorization", `Bearer ${adminKey}`);
    return next(req);
  };
  return createClient(ForgeService, createConnectTransport({ baseUrl: url, httpVersion: "1.1", interceptors: [auth] }));
}

const execFileAsync = promisify(execFile);

function git(dir: string, args: string[], input?: string): string {
  return execFileSync(
    "git",
    ["-c", "user.name=Bench", "-c", "user.email=bench@example.com", "-c", "commit.gpgSign=false", ...args],
    {
      cwd: dir,
      env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" },
      encoding: "utf8",
      input,
      maxBuffer: 64 * 1024 * 1024,
    },
  ).trim();
}

/**
 * Writes the source repository under `dir`: `main` (README, then the configuration and CI file)
 * and branches `change-1` … `change-N` off the first commit, each adding `changes/<i>.txt`
 * (written in one `git fast-import`).
 */
export async function writeSourceRepository(dir: string, branches: number, ciSeconds: number): Promise<void> {
  await mkdir(path.join(dir, ".yardmaster"), { recursive: true });
  git(dir, ["init", "--quiet", "--initial-branch=main"]);
  await writeFile(path.join(dir, "README.md"), "bench\n");
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "--quiet", "-m", "Initial commit"]);
  const root = git(dir, ["rev-parse", "HEAD"]);
  const stream: string[] = [];
  for (let i = 1; i <= branches; i++) {
    const content = `change ${i}\n`;
    const message = `Add change ${i}`;
    stream.push(
      `commit refs/heads/change-${i}`,
      `committer Bench <bench@example.com> ${1_700_000_000 + i} +0000`,
      `data ${Buffer.byteLength(message)}`,
      message,
      `from ${root}`,
      `M 100644 inline changes/${i}.txt`,
      `data ${Buffer.byteLength(content)}`,
      content.slice(0, -1),
      "",
    );
  }
  git(dir, ["fast-import", "--quiet"], `${stream.join("\n")}\n`);
  await writeFile(path.join(dir, ".yardmaster.yml"), queueConfig());
  await writeFile(path.join(dir, ".yardmaster", "ci.yml"), ciFile(ciSeconds));
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "--quiet", "-m", "Set up Yardmaster"]);
}

type Repo = { owner: string; repository: string };

/**
 * Opens the pull requests of branches `change-<from>` … `change-<to>` and queues each with an
 * `@yardmaster queue` comment, as a person would; returns their numbers.
 * @throws ConnectError from the service
 */
export async function openAndQueue(
  forge: Client<typeof ForgeService>,
  repo: Repo,
  from: number,
  to: number,
): Promise<number[]> {
  const numbers: number[] = [];
  for (let i = from; i <= to; i++) {
    const res = await forge.openPullRequest({
      ...repo,
      head: `change-${i}`,
      base: "main",
      title: `Add change ${i}`,
      author: "ada",
    });
    numbers.push(Number(res.pullRequest!.number));
  }
  for (const n of numbers)
    await forge.commentPullRequest({ ...repo, number: BigInt(n), body: "@yardmaster queue", author: "ada" });
  return numbers;
}

/**
 * How many `changes/*` files the default branch of the bare repository at `gitDir` holds: the pull
 * requests merged (read without asking the server).
 */
export async function mergedCount(gitDir: string): Promise<number> {
  const { stdout } = await execFileAsync("git", ["--git-dir", gitDir, "ls-tree", "--name-only", "main", "changes/"], {
    encoding: "utf8",
    maxBuffer: 16 * 1024 * 1024,
  });
  const out = stdout.trim();
  return out === "" ? 0 : out.split("\n").length;
}

/** Merge times (epoch ms) of the given pull requests that are merged, from ListPullRequests. */
export async function mergeTimes(forge: Client<typeof ForgeService>, repo: Repo, numbers: number[]): Promise<number[]> {
  const wanted = new Set(numbers);
  const res = await forge.listPullRequests({ ...repo, state: "merged" });
  return res.pullRequests
    .filter((p) => wanted.has(Number(p.number)) && p.mergedAt)
    .map((p) => Number(p.mergedAt!.seconds) * 1000 + Math.floor(p.mergedAt!.nanos / 1e6));
}
