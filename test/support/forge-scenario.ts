/**
 * Repositories and pull requests of a server process's local forge, made as a user would: a git
 * work tree imported with `yardmaster repo add`, branches pushed with `yardmaster repo push`, pull
 * requests opened, commented, labelled and read through ForgeService (Connect JSON), the queue's
 * status read over REST.
 */
import path from "node:path";
import { expect } from "vitest";
import { cliStdout } from "./cli.js";
import { gitWorkdir, type GitWorkdir } from "./git-workdir.js";
import { restCall } from "./rest-client.js";
import type { ServerProcess } from "./server-process.js";

/** The configuration and CI a scenario repository starts with unless told otherwise. */
export const DEFAULT_FILES = {
  ".yardmaster.yml": "queue_rules:\n  - name: default\n",
  ".yardmaster/ci.yml": 'checks:\n  - name: test\n    run: "true"\n',
};

/** Scenario helpers bound to `server` (read lazily: a restart changes its URL) and a work directory. */
export function forgeScenario(server: () => ServerProcess, work: string) {
  const sources: Record<string, GitWorkdir> = {};
  const cli = (...args: string[]) => cliStdout(server().cliEnv, args);
  const split = (repo: string) => {
    const [owner, repository] = repo.split("/");
    return { owner, repository };
  };
  const rpc = async (method: string, body: unknown) => {
    const res = await restCall(server(), "POST", `/yardmaster.v1.ForgeService/${method}`, body);
    expect(res.status, `${method}: ${JSON.stringify(res.json)}`).toBe(200);
    return res.json;
  };
  return {
    cli,
    rpc,
    /** Creates `name` from a work tree holding DEFAULT_FILES and `files` (null leaves a default file out). */
    async repository(name: string, files: Record<string, string | null> = {}): Promise<GitWorkdir> {
      const src = await gitWorkdir(path.join(work, name.replace("/", "-")));
      const all = Object.fromEntries(
        Object.entries({ ...DEFAULT_FILES, ...files }).filter((e): e is [string, string] => e[1] !== null),
      );
      await src.commit("Initial commit", all);
      sources[name] = src;
      await cli("repo", "add", name, "--from", src.path);
      return src;
    },
    /** Pushes a branch adding `files` and opens a pull request from it with `body`; its number. */
    async opened(repo: string, branch: string, files: Record<string, string>, body = ""): Promise<number> {
      const src = sources[repo]!;
      src.git("switch", "--quiet", "-c", branch, "main");
      await src.commit(`Change ${branch}`, files);
      src.git("switch", "--quiet", "main");
      await cli("repo", "push", repo, "--from", src.path, "--ref", branch, "--branch", branch);
      const res = await rpc("OpenPullRequest", { ...split(repo), head: branch, base: "main", title: branch, body });
      return Number(res.pull_request.number);
    },
    /** Comments `body` on pull request `n` (a command: `@yardmaster queue`). */
    comment: (repo: string, n: number, body: string) => rpc("CommentPullRequest", { ...split(repo), number: n, body }),
    label: (repo: string, n: number, add: string[], remove: string[] = []) =>
      rpc("LabelPullRequest", { ...split(repo), number: n, add, remove }),
    /** The pull request as the local forge shows it (state, labels, checks, comments: [] when none). */
    async pull(repo: string, n: number): Promise<any> {
      const pr = (await rpc("GetPullRequest", { ...split(repo), number: n })).pull_request;
      // Connect's JSON leaves empty lists out.
      return { labels: [], checks: [], comments: [], reviews: [], ...pr };
    },
    /** The queue's status (route #2). */
    async status(repo: string): Promise<any> {
      const res = await restCall(server(), "GET", `/v1/repos/${repo}/merge-queue/status`);
      expect(res.status).toBe(200);
      return res.json;
    },
    /** Pull request `n` in the queue's status (a batch's or waiting), or undefined. */
    async inStatus(repo: string, n: number): Promise<any> {
      const s = await this.status(repo);
      return [...s.batches.flatMap((b: any) => b.pull_requests), ...s.waiting_pull_requests].find(
        (p: any) => p.number === n,
      );
    },
  };
}
