/**
 * The repository of `npm run bench:load`: a git repository whose default branch carries the queue
 * configuration and a CI file whose check sleeps on the queue's draft commits ("Merge of #n") and
 * passes at once elsewhere, and N branches that each add one file (no two conflict). The branches
 * start before the CI file, so opening their pull requests starts no CI job: the local CI's slots
 * are the queue's alone. Created in the local forge (ForgeService.CreateRepository), the pull
 * requests opened and queued by `@yardmaster queue` comments, as a person would.
 */
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { createClient, type Client, type Interceptor } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";

/** What the queue runs with: batches of 2, 2 checks at once, the CI check sleeping `ciSeconds`. */
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

function git(dir: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "user.name=Bench", "-c", "user.email=bench@example.com", "-c", "commit.gpgSign=false", ...args], {
    cwd: dir, env: { ...process.env, GIT_CONFIG_GLOBAL: "/dev/null", GIT_CONFIG_NOSYSTEM: "1" }, encoding: "utf8",
  }).trim();
}

/**
 * Writes the source repository under `dir`: `main` (README, then the configuration and CI file)
 * and branches `change-1` … `change-N` off the first commit, each adding `changes/<i>.txt`.
 */
export async function writeSourceRepository(dir: string, pulls: number, ciSeconds: number): Promise<void> {
  await mkdir(path.join(dir, ".yardmaster"), { recursive: true });
  git(dir, "init", "--quiet", "--initial-branch=main");
  await writeFile(path.join(dir, "README.md"), "bench\n");
  git(dir, "add", "-A");
  git(dir, "commit", "--quiet", "-m", "Initial commit");
  for (let i = 1; i <= pulls; i++) {
    git(dir, "switch", "--quiet", "-c", `change-${i}`, "main");
    await mkdir(path.join(dir, "changes"), { recursive: true });
    await writeFile(path.join(dir, "changes", `${i}.txt`), `change ${i}\n`);
    git(dir, "add", "-A");
    git(dir, "commit", "--quiet", "-m", `Add change ${i}`);
    git(dir, "switch", "--quiet", "main");
  }
  await writeFile(path.join(dir, ".yardmaster.yml"), queueConfig());
  await writeFile(path.join(dir, ".yardmaster", "ci.yml"), ciFile(ciSeconds));
  git(dir, "add", "-A");
  git(dir, "commit", "--quiet", "-m", "Set up Yardmaster");
}

/**
 * Imports the source as `owner/name` and opens one pull request per branch; returns their numbers.
 * @throws ConnectError from the service
 */
export async function openPullRequests(forge: Client<typeof ForgeService>, repo: { owner: string; repository: string }, source: string, pulls: number): Promise<number[]> {
  await forge.createRepository({ ...repo, fromPath: source, defaultBranch: "main" });
  const numbers: number[] = [];
  for (let i = 1; i <= pulls; i++) {
    const res = await forge.openPullRequest({ ...repo, head: `change-${i}`, base: "main", title: `Add change ${i}`, author: "ada" });
    numbers.push(Number(res.pullRequest!.number));
  }
  return numbers;
}

/** Queues every pull request with an `@yardmaster queue` comment. */
export async function queueAll(forge: Client<typeof ForgeService>, repo: { owner: string; repository: string }, numbers: number[]): Promise<void> {
  for (const n of numbers) await forge.commentPullRequest({ ...repo, number: BigInt(n), body: "@yardmaster queue", author: "ada" });
}

/** Merge times (epoch ms) of the given pull requests that are merged, from ListPullRequests. */
export async function mergeTimes(forge: Client<typeof ForgeService>, repo: { owner: string; repository: string }, numbers: number[]): Promise<number[]> {
  const wanted = new Set(numbers);
  const res = await forge.listPullRequests({ ...repo, state: "merged" });
  return res.pullRequests
    .filter((p) => wanted.has(Number(p.number)) && p.mergedAt)
    .map((p) => Number(p.mergedAt!.seconds) * 1000 + Math.floor(p.mergedAt!.nanos / 1e6));
}
