/**
 * Mergify's CLI's `ci` commands against Yardmaster (docs/mergify-cli.md "Commands"), in a
 * monorepo: CI sends each pull request's scopes as `mergify ci scopes-send` does, the queue (scopes
 * `source: manual`, mode parallel) checks the `api` and `web` batches side by side, and in a clone of
 * the repository, on a batch's speculative branch, `ci queue-info` and `ci git-refs` read the
 * batch's metadata from the git notes as the client does (git fetch of refs/notes/mergify/*, git
 * notes show), and from the draft pull request's body. A pull request sent with `all_scopes` is a
 * barrier; an error is printed with the body's `detail`. One real server process.
 */
import { execFileSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "../support/eventually.js";
import { forgeScenario } from "../support/forge-scenario.js";
import { startServerProcess, type ServerProcess } from "../support/server-process.js";
import {
  errorMessage,
  gitRefsNotesReader,
  headNoteReader,
  metadataFromDraft,
  queueInfoOutput,
  readNote,
  scopesPath,
  scopesRequest,
} from "../mergify-cli/ci.js";
import { mergifyClient } from "../mergify-cli/http.js";

const REPO = "acme/mono";
const CONFIG = [
  "queue_rules:",
  "  - name: default",
  "    batch_size: 2",
  '    batch_max_wait_time: "10 s"',
  "    branch_protection_injection_mode: merge",
  "merge_queue:",
  "  mode: parallel",
  "  max_parallel_checks: 2",
  "scopes:",
  "  source:",
  "    manual:",
  "",
].join("\n");

let server: ServerProcess;
let work: string;
let f: ReturnType<typeof forgeScenario>;
let client: ReturnType<typeof mergifyClient>;
const n: Record<string, number> = {};

const git = (cwd: string, ...args: string[]) => execFileSync("git", args, { cwd, encoding: "utf8" }).trim();

beforeAll(async () => {
  work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-mergify-ci-"));
  server = await startServerProcess();
  f = forgeScenario(() => server, work);
  client = mergifyClient(server.url, server.adminKey);
  // The speculative branches' CI takes a while: both batches are seen running at once.
  await f.repository(REPO, {
    ".yardmaster.yml": CONFIG,
    ".yardmaster/ci.yml": 'checks:\n  - name: test\n    run: "sleep 6"\n',
  });
  for (const [name, scope] of [
    ["api-1", "api"],
    ["web-1", "web"],
    ["api-2", "api"],
    ["web-2", "web"],
  ] as const) {
    n[name] = await f.opened(REPO, name, { [`${scope}/${name}.txt`]: "1\n" });
    // CI of the pull request computed its scopes: `mergify ci scopes-send --scope <scope>`.
    const sent = await client.post(scopesPath(REPO, n[name]!), scopesRequest([scope]));
    expect(sent.status, JSON.stringify(sent.json)).toBe(204);
  }
  for (const name of ["api-1", "web-1", "api-2", "web-2"]) await f.comment(REPO, n[name]!, "@yardmaster queue");
}, 180_000);
afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe("a monorepo with scopes sent by CI", () => {
  it("checks the api and web batches in parallel, each on the base alone", async () => {
    const status = await eventually(async () => {
      const s = await f.status(REPO);
      expect(s.batches.map((b: any) => [b.scopes, b.pull_requests.map((p: any) => p.number), b.status.code])).toEqual([
        [["api"], [n["api-1"], n["api-2"]], "running"],
        [["web"], [n["web-1"], n["web-2"]], "running"],
      ]);
      return s;
    }, 90_000);
    expect(status.batches.map((b: any) => b.parent_ids)).toEqual([[], []]);
    // Each scope's lane holds its batch (the unscoped lane, `__default__`, is always listed).
    expect(status.scope_queues).toMatchObject({ api: [status.batches[0].id], web: [status.batches[1].id] });
    expect(status.batches[0].pull_requests.map((p: any) => [p.scopes, p.all_scopes])).toEqual([
      [["api"], false],
      [["api"], false],
    ]);
  }, 120_000);

  it("gives `ci queue-info` and `ci git-refs` the batch's metadata from the notes and the draft's body", async () => {
    const drafts = (await f.rpc("ListPullRequests", { owner: "acme", repository: "mono", state: "open" }))
      .pull_requests;
    const draft = drafts.find(
      (p: any) => p.title === `merge queue: embarking #${n["api-1"]} and #${n["api-2"]} together`,
    );
    expect(draft, JSON.stringify(drafts.map((p: any) => p.title))).toBeDefined();
    const main = (await f.rpc("GetBranch", { owner: "acme", repository: "mono", branch: "main" })).sha;

    // CI's checkout: a clone, the speculative branch's head checked out detached.
    const clone = path.join(work, "ci-clone");
    git(work, "clone", "--quiet", path.join(server.dataDir, "repos", "acme", "mono.git"), clone);
    git(clone, "fetch", "--quiet", "origin", draft.head);
    git(clone, "checkout", "--quiet", "--detach", "FETCH_HEAD");
    expect(git(clone, "rev-parse", "HEAD")).toBe(draft.head_sha);

    const note = headNoteReader(clone);
    expect(note).not.toBeNull();
    expect(note).toMatchObject({
      checking_base_sha: main,
      base_ref: "main",
      scopes: ["api"],
      all_scopes: false,
      previous_failed_batches: [],
    });
    expect((note!.pull_requests as any[]).map((p) => [p.number, p.title, p.author, p.scopes])).toEqual([
      [n["api-1"], "api-1", "local-user", ["api"]],
      [n["api-2"], "api-2", "local-user", ["api"]],
    ]);
    expect(JSON.parse(queueInfoOutput(note!))).toEqual(note);
    // Yardmaster's own notes ref holds the same document.
    git(clone, "fetch", "--quiet", "origin", "+refs/notes/yardmaster/*:refs/notes/yardmaster/*");
    expect(readNote(clone, `refs/notes/yardmaster/${draft.head}`, "HEAD")).toEqual(note);
    // `ci git-refs` in a pull_request event of the speculative branch: base = checking_base_sha.
    expect(gitRefsNotesReader(clone, draft.head, draft.head_sha)).toBe(main);
    // ... or, without notes, from the draft's body.
    expect(metadataFromDraft(draft.title, draft.body)).toEqual(note);
  }, 60_000);

  it("takes a pull request sent with all_scopes as a barrier, and merges everything", async () => {
    const barrier = await f.opened(REPO, "tooling", { "tooling.txt": "1\n" });
    expect((await client.post(scopesPath(REPO, barrier), { scopes: [], all_scopes: true })).status).toBe(204);
    await f.comment(REPO, barrier, "@yardmaster queue");
    await eventually(async () => expect((await f.inStatus(REPO, barrier))?.all_scopes).toBe(true), 60_000);
    await eventually(async () => {
      for (const number of [...Object.values(n), barrier]) expect((await f.pull(REPO, number)).state).toBe("merged");
    }, 120_000);
  }, 180_000);

  it("answers an unknown pull request with a 404 whose detail the client prints", async () => {
    const url = `${server.url}${scopesPath(REPO, 999)}`;
    const res = await fetch(url, {
      method: "POST",
      headers: { authorization: `Bearer ${server.adminKey}`, "content-type": "application/json" },
      body: JSON.stringify(scopesRequest(["api"])),
    });
    expect(res.status).toBe(404);
    expect(errorMessage("404 Not Found", await res.text(), url)).toBe(
      `HTTP 404 Not Found: pull request 999 was not found in ${REPO}\nurl: ${url}`,
    );
  });
});
