/**
 * The GitHub test double's operations, by OpenAPI operationId: each reads and changes the double's
 * state (real git underneath) and answers what GitHub documents for that operation, including its
 * documented refusals (422 "Reference already exists", "Update is not a fast forward", 409 merge
 * conflicts and "Head branch was modified", 405 "not mergeable", 404s).
 */
import {
  applyPull, commitsAhead, commitsBehind, commitsBetween, compareAndSwapRef, createMergeCommit, datedIdentity, findCommit, hasConflict,
  isAncestor, isMergeConflict, mergeBase, readCommit, readFileBlob, readRef, runGit, writeCommit,
} from "../../../../services/forge/local/git/index.js";
import { checkRunJson, commitJson, gitCommitJson, iso, labelJson, pullJson, refJson, repoJson, userJson } from "./double-json.js";
import type { DoublePull, DoubleRepo } from "./double-state.js";
import type { GithubDouble } from "./github-double.js";
import { GithubOpenApi } from "./openapi.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
export interface Answer {
  status: number;
  body?: any;
  headers?: Record<string, string>;
}

export interface HandlerContext {
  double: GithubDouble;
  repo: DoubleRepo;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, any>;
  token: string;
}

type Handler = (ctx: HandlerContext) => Promise<Answer> | Answer;

const DOCS = "https://docs.github.com/rest";
const notFound = (message = "Not Found"): Answer => ({ status: 404, body: { message, documentation_url: DOCS } });
const unprocessable = (message: string): Answer => ({ status: 422, body: { message, documentation_url: DOCS } });
const example = (id: string, status: number) => GithubOpenApi.load().example(id, status);

/** One page of `items` by `per_page` (default 30, GitHub's) and `page`. */
function page<T>(items: T[], q: URLSearchParams): T[] {
  const per = Number(q.get("per_page") ?? 30), n = Number(q.get("page") ?? 1);
  return items.slice((n - 1) * per, n * per);
}

/** A `Link` header with rel="next" when more pages follow (what Octokit's paginate follows). */
function linkHeaders(ctx: HandlerContext, total: number): Record<string, string> {
  const per = Number(ctx.query.get("per_page") ?? 30), n = Number(ctx.query.get("page") ?? 1);
  if (n * per >= total) return {};
  const next = new URLSearchParams(ctx.query);
  next.set("page", String(n + 1));
  return { link: `<https://api.github.com${ctx.double.requests.at(-1)!.path}?${next}>; rel="next"` };
}

async function resolveRev(repo: DoubleRepo, rev: string): Promise<string | null> {
  if (/^[0-9a-f]{40}$/.test(rev)) return findCommit(repo.git, rev);
  return (await readRef(repo.git, `refs/heads/${rev}`)) ?? null;
}

/** Head and base facts of a pull request, with the counts its JSON carries. */
async function pullFacts(repo: DoubleRepo, p: DoublePull) {
  const head = await repo.headSha(p);
  const base = (await readRef(repo.git, `refs/heads/${p.base}`))!;
  const files = await diffEntries(repo, p.mergedAt ? (await readCommit(repo.git, p.mergeCommitSha!)).parents[0] : base, head);
  const commits = p.state === "open" ? await commitsAhead(repo.git, base, head) : 1;
  return { head, base, counts: { additions: files.reduce((s, f) => s + f.additions, 0), deletions: files.reduce((s, f) => s + f.deletions, 0), changedFiles: files.length, commits } };
}

async function pullAnswer(repo: DoubleRepo, p: DoublePull, status = 200): Promise<Answer> {
  const f = await pullFacts(repo, p);
  if (p.state === "open" && p.mergeable !== null) {
    const conflicting = await hasConflict(repo.git, f.base, f.head);
    p.mergeableState = conflicting ? "dirty" : "clean";
    p.mergeable = !conflicting;
  } else if (p.state === "open") {
    p.mergeableState = "unknown";
  }
  return { status, body: pullJson(repo, p, f.head, f.base, f.counts) };
}

/** GitHub's diff entries of `head` against its merge base with `base` (renames detected). */
async function diffEntries(repo: DoubleRepo, base: string, head: string) {
  const from = (await mergeBase(repo.git, base, head)) ?? base;
  const [status, numstat] = await Promise.all([
    runGit(repo.git.gitDir, ["diff-tree", "-r", "-M", "--name-status", "--no-commit-id", from, head]),
    runGit(repo.git.gitDir, ["diff-tree", "-r", "-M", "--numstat", "--no-commit-id", from, head]),
  ]);
  const counts = numstat.stdout.toString("utf8").trim().split("\n").filter(Boolean).map((l) => l.split("\t").map((x) => Number(x) || 0));
  return status.stdout.toString("utf8").trim().split("\n").filter(Boolean).map((line, i) => {
    const [code, a, b] = line.split("\t");
    const st = code.startsWith("R") ? "renamed" : code === "A" ? "added" : code === "D" ? "removed" : "modified";
    const filename = st === "renamed" ? b : a;
    const [additions = 0, deletions = 0] = counts[i] ?? [];
    return {
      sha: head,
      filename,
      status: st,
      additions,
      deletions,
      changes: additions + deletions,
      blob_url: `https://github.com/${repo.fullName}/blob/${head}/${filename}`,
      raw_url: `https://github.com/${repo.fullName}/raw/${head}/${filename}`,
      contents_url: `https://api.github.com/repos/${repo.fullName}/contents/${filename}?ref=${head}`,
      ...(st === "renamed" ? { previous_filename: a } : {}),
    };
  });
}

/** Marks open pull requests into `branch` whose head the branch now contains as merged (GitHub does). */
async function markContainedPullsMerged(ctx: HandlerContext, branch: string, tip: string): Promise<void> {
  for (const p of ctx.repo.pulls.values()) {
    if (p.state !== "open" || p.base !== branch) continue;
    const head = await ctx.repo.headSha(p);
    if (await isAncestor(ctx.repo.git, head, tip)) Object.assign(p, { state: "closed", mergedAt: ctx.double.now(), closedAt: ctx.double.now(), mergeCommitSha: head, mergedBy: `${ctx.double.appSlug}[bot]` });
  }
}

export const handlers: Record<string, Handler> = {
  "apps/get-repo-installation": (ctx) => ({ status: 200, body: { ...example("apps/get-repo-installation", 200), id: ctx.repo.installationId, app_id: ctx.double.appId } }),

  "apps/create-installation-access-token": (ctx) => ({
    status: 201,
    body: { ...example("apps/create-installation-access-token", 201), token: ctx.double.issueInstallationToken(), expires_at: iso(new Date(Date.now() + 3600_000)) },
  }),

  "repos/get": (ctx) => {
    const user = ctx.double.users.get(ctx.token);
    if (user && !user.readable.has(ctx.repo.fullName.toLowerCase())) return notFound();
    return { status: 200, body: repoJson(ctx.repo, user && !user.installation ? { pull: true, push: false, admin: false } : undefined) };
  },

  "users/get-authenticated": (ctx) => {
    const user = ctx.double.users.get(ctx.token)!;
    if (user.installation) return { status: 403, body: { message: "Resource not accessible by integration", documentation_url: DOCS } };
    return { status: 200, body: { ...example("users/get-authenticated", 200), login: user.login, id: user.id } };
  },

  "apps/list-repos-accessible-to-installation": () => ({ status: 200, body: { total_count: 0, repositories: [] } }),

  "git/get-ref": async (ctx) => {
    const sha = await readRef(ctx.repo.git, `refs/${ctx.params.ref}`);
    return sha ? { status: 200, body: refJson(ctx.repo.fullName, `refs/${ctx.params.ref}`, sha) } : notFound();
  },

  "git/create-ref": async (ctx) => {
    const { ref, sha } = ctx.body as { ref: string; sha: string };
    if (!/^refs\/.+\/.+/.test(ref)) return unprocessable("Reference name is invalid");
    if (!(await findCommit(ctx.repo.git, sha))) return unprocessable("Object does not exist");
    if (await readRef(ctx.repo.git, ref)) return unprocessable("Reference already exists");
    await compareAndSwapRef(ctx.repo.git, ref, null, sha);
    return { status: 201, body: refJson(ctx.repo.fullName, ref, sha) };
  },

  "git/update-ref": async (ctx) => {
    const ref = `refs/${ctx.params.ref}`;
    const { sha, force } = ctx.body as { sha: string; force?: boolean };
    const current = await readRef(ctx.repo.git, ref);
    if (!current) return unprocessable("Reference does not exist");
    if (!(await findCommit(ctx.repo.git, sha))) return unprocessable("Object does not exist");
    if (!force && !(await isAncestor(ctx.repo.git, current, sha))) return unprocessable("Update is not a fast forward");
    await compareAndSwapRef(ctx.repo.git, ref, current, sha);
    if (ref.startsWith("refs/heads/")) await markContainedPullsMerged(ctx, ref.slice("refs/heads/".length), sha);
    return { status: 200, body: refJson(ctx.repo.fullName, ref, sha) };
  },

  "git/delete-ref": async (ctx) => {
    const ref = `refs/${ctx.params.ref}`;
    const current = await readRef(ctx.repo.git, ref);
    if (!current) return unprocessable("Reference does not exist");
    await compareAndSwapRef(ctx.repo.git, ref, current, null);
    return { status: 204 };
  },

  "repos/merge": async (ctx) => {
    const { base, head, commit_message } = ctx.body as { base: string; head: string; commit_message?: string };
    const tip = await readRef(ctx.repo.git, `refs/heads/${base}`);
    if (!tip) return notFound("Base does not exist");
    const from = await resolveRev(ctx.repo, head);
    if (!from) return notFound("Head does not exist");
    if (await isAncestor(ctx.repo.git, from, tip)) return { status: 204 };
    try {
      const sha = await createMergeCommit(ctx.repo.git, { into: tip, from, message: commit_message ?? `Merge ${head} into ${base}`, date: ctx.double.now() });
      await compareAndSwapRef(ctx.repo.git, `refs/heads/${base}`, tip, sha);
      return { status: 201, body: commitJson(ctx.repo.fullName, await readCommit(ctx.repo.git, sha)) };
    } catch (e) {
      if (isMergeConflict(e)) return { status: 409, body: { message: "Merge conflict", documentation_url: DOCS } };
      throw e;
    }
  },

  "git/create-commit": async (ctx) => {
    const { message, tree, parents, author } = ctx.body as { message: string; tree: string; parents?: string[]; author?: { name: string; email: string; date?: string } };
    const at = ctx.double.now();
    const bot = datedIdentity({ name: `${ctx.double.appSlug}[bot]`, email: "bot@users.noreply.github.com" }, at);
    const who = author ? datedIdentity({ name: author.name, email: author.email }, author.date ? new Date(author.date) : at) : bot;
    for (const p of parents ?? []) if (!(await findCommit(ctx.repo.git, p))) return unprocessable(`Parent SHA does not exist or is not a commit object`);
    const sha = await writeCommit(ctx.repo.git, { tree, parents: parents ?? [], message, author: who, committer: author ? who : bot });
    return { status: 201, body: gitCommitJson(ctx.repo.fullName, await readCommit(ctx.repo.git, sha)) };
  },

  "repos/get-content": async (ctx) => {
    const ref = ctx.query.get("ref") ?? ctx.repo.defaultBranch;
    const blob = await readFileBlob(ctx.repo.git, ref, ctx.params.path).catch(() => null);
    if (!blob) return notFound();
    const inline = blob.content.length <= 1_000_000;
    const name = ctx.params.path.split("/").at(-1)!;
    return {
      status: 200,
      body: {
        ...example("repos/get-content", 200),
        type: "file",
        name,
        path: ctx.params.path,
        sha: blob.sha,
        size: blob.content.length,
        encoding: inline ? "base64" : "none",
        content: inline ? blob.content.toString("base64") : "",
      },
    };
  },

  "git/get-blob": async (ctx) => {
    const out = await runGit(ctx.repo.git.gitDir, ["cat-file", "blob", ctx.params.file_sha], { okExitCodes: [0, 128] });
    if (out.exitCode !== 0) return notFound();
    return { status: 200, body: { ...example("git/get-blob", 200), sha: ctx.params.file_sha, size: out.stdout.length, encoding: "base64", content: out.stdout.toString("base64") } };
  },

  "repos/compare-commits-with-basehead": async (ctx) => {
    const [baseRev, headRev] = ctx.params.basehead.split("...");
    const base = await resolveRev(ctx.repo, baseRev), head = await resolveRev(ctx.repo, headRev);
    if (!base || !head) return notFound();
    const mb = (await mergeBase(ctx.repo.git, base, head))!;
    const [ahead, behind, commits] = await Promise.all([commitsAhead(ctx.repo.git, base, head), commitsBehind(ctx.repo.git, base, head), commitsBetween(ctx.repo.git, base, head)]);
    const per = Number(ctx.query.get("per_page") ?? 250);
    const name = ctx.repo.fullName;
    return {
      status: 200,
      body: {
        ...example("repos/compare-commits-with-basehead", 200),
        base_commit: commitJson(name, await readCommit(ctx.repo.git, base)),
        merge_base_commit: commitJson(name, await readCommit(ctx.repo.git, mb)),
        status: ahead && behind ? "diverged" : ahead ? "ahead" : behind ? "behind" : "identical",
        ahead_by: ahead,
        behind_by: behind,
        total_commits: ahead,
        commits: commits.slice(0, per).map((c) => commitJson(name, c)),
        files: [],
      },
    };
  },

  "repos/get-combined-status-for-ref": (ctx) => {
    const latest = new Map<string, (typeof ctx.repo.statuses)[number]>();
    for (const s of ctx.repo.statuses.filter((s) => s.sha === ctx.params.ref)) latest.set(s.context, s);
    const all = [...latest.values()];
    const t = example("repos/get-combined-status-for-ref", 200);
    return {
      status: 200,
      body: {
        ...t,
        sha: ctx.params.ref,
        total_count: all.length,
        state: all.some((s) => s.state === "failure" || s.state === "error") ? "failure" : all.every((s) => s.state === "success") ? "success" : "pending",
        statuses: page(all, ctx.query).map((s) => ({ ...t.statuses[0], id: s.id, context: s.context, state: s.state, description: s.description, target_url: s.targetUrl, created_at: iso(s.at), updated_at: iso(s.at) })),
      },
    };
  },

  "checks/list-for-ref": (ctx) => {
    let runs = ctx.repo.checkRuns.filter((r) => r.headSha === ctx.params.ref);
    if (ctx.query.has("check_name")) runs = runs.filter((r) => r.name === ctx.query.get("check_name"));
    if (ctx.query.has("app_id")) runs = runs.filter((r) => String(r.appId) === ctx.query.get("app_id"));
    if ((ctx.query.get("filter") ?? "latest") === "latest") {
      const latest = new Map<string, (typeof runs)[number]>();
      for (const r of runs) if (!latest.has(`${r.appId} ${r.name}`) || latest.get(`${r.appId} ${r.name}`)!.id < r.id) latest.set(`${r.appId} ${r.name}`, r);
      runs = [...latest.values()];
    }
    return { status: 200, headers: linkHeaders(ctx, runs.length), body: { total_count: runs.length, check_runs: page(runs, ctx.query).map((r) => checkRunJson(ctx.repo.fullName, r)) } };
  },

  "checks/create": (ctx) => {
    const b = ctx.body;
    const run = {
      id: ctx.double.id(), name: b.name, headSha: b.head_sha, status: b.conclusion ? "completed" : (b.status ?? "queued"), conclusion: b.conclusion ?? null,
      title: b.output?.title ?? null, summary: b.output?.summary ?? null, appId: ctx.double.appId, appSlug: ctx.double.appSlug, detailsUrl: b.details_url ?? null,
      startedAt: ctx.double.now(), completedAt: b.conclusion ? ctx.double.now() : null,
    };
    ctx.repo.checkRuns.push(run);
    return { status: 201, body: checkRunJson(ctx.repo.fullName, run) };
  },

  "checks/update": (ctx) => {
    const run = ctx.repo.checkRuns.find((r) => String(r.id) === ctx.params.check_run_id);
    if (!run) return notFound();
    const b = ctx.body;
    Object.assign(run, {
      status: b.conclusion ? "completed" : (b.status ?? run.status),
      conclusion: b.conclusion ?? (b.status && b.status !== "completed" ? null : run.conclusion),
      title: b.output?.title ?? run.title,
      summary: b.output?.summary ?? run.summary,
      completedAt: b.conclusion ? ctx.double.now() : run.completedAt,
    });
    return { status: 200, body: checkRunJson(ctx.repo.fullName, run) };
  },

  "repos/get-collaborator-permission-level": (ctx) => {
    const c = ctx.repo.collaborators.get(ctx.params.username);
    if (!c) return notFound();
    return { status: 200, body: { ...c, user: { ...userJson(ctx.params.username, 5000), role_name: c.role_name } } };
  },

  "pulls/get": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const key = `${ctx.repo.fullName}#${p.number}`;
    const pending = ctx.double.pendingUpdates.get(key);
    if (pending && pending.reads-- <= 0) {
      await compareAndSwapRef(ctx.repo.git, `refs/pull/${p.number}/head`, pending.from, pending.to);
      ctx.double.pendingUpdates.delete(key);
    }
    return pullAnswer(ctx.repo, p);
  },

  "pulls/list": async (ctx) => {
    const state = ctx.query.get("state") ?? "open";
    const pulls = [...ctx.repo.pulls.values()].filter((p) => state === "all" || p.state === state).sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.number - b.number);
    const shown = page(pulls, ctx.query);
    const bodies = [];
    for (const p of shown) {
      const { body } = await pullAnswer(ctx.repo, p);
      for (const k of ["merged", "mergeable", "mergeable_state", "merged_by", "comments", "review_comments", "maintainer_can_modify", "commits", "additions", "deletions", "changed_files", "rebaseable"]) delete body[k];
      bodies.push(body);
    }
    return { status: 200, headers: linkHeaders(ctx, pulls.length), body: bodies };
  },

  "pulls/list-files": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const f = await pullFacts(ctx.repo, p);
    const files = await diffEntries(ctx.repo, f.base, f.head);
    return { status: 200, headers: linkHeaders(ctx, files.length), body: page(files, ctx.query) };
  },

  "pulls/list-commits": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const f = await pullFacts(ctx.repo, p);
    const commits = await commitsBetween(ctx.repo.git, f.base, f.head);
    return { status: 200, headers: linkHeaders(ctx, commits.length), body: page(commits, ctx.query).map((c) => commitJson(ctx.repo.fullName, c, c.message.includes("[signed]"))) };
  },

  "pulls/list-reviews": (ctx) => {
    const reviews = ctx.repo.reviews.get(Number(ctx.params.pull_number)) ?? [];
    const t = example("pulls/list-reviews", 200)[0];
    return {
      status: 200,
      headers: linkHeaders(ctx, reviews.length),
      body: page(reviews, ctx.query).map((r) => ({ ...t, id: r.id, user: userJson(r.user, 4000 + r.id), state: r.state, ...(r.submittedAt ? { submitted_at: iso(r.submittedAt) } : { submitted_at: undefined }) })),
    };
  },

  "pulls/create": async (ctx) => {
    const { head, base, title, body, draft } = ctx.body as { head: string; base: string; title: string; body?: string; draft?: boolean };
    if (draft && !ctx.repo.allowDrafts) return unprocessable("Draft pull requests are not supported in this repository.");
    if (!(await readRef(ctx.repo.git, `refs/heads/${head}`)) || !(await readRef(ctx.repo.git, `refs/heads/${base}`))) return unprocessable("Validation Failed");
    const p = await ctx.repo.openPull({ head, base, title, body: body ?? "", draft: draft ?? false, author: { login: `${ctx.double.appSlug}[bot]`, id: 99 } });
    return pullAnswer(ctx.repo, p, 201);
  },

  "pulls/update": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const { title, body, state } = ctx.body as { title?: string; body?: string; state?: "open" | "closed" };
    if (title !== undefined) p.title = title;
    if (body !== undefined) p.body = body;
    if (state === "closed" && p.state === "open") Object.assign(p, { state: "closed", closedAt: ctx.double.now() });
    p.updatedAt = ctx.double.now();
    return pullAnswer(ctx.repo, p);
  },

  "pulls/merge": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const b = ctx.body as { sha?: string; merge_method?: "merge" | "squash" | "rebase"; commit_title?: string; commit_message?: string };
    if (p.state !== "open") return { status: 405, body: { message: "Pull Request is not mergeable", documentation_url: DOCS } };
    const head = await ctx.repo.headSha(p);
    if (b.sha && b.sha !== head) return { status: 409, body: { message: "Head branch was modified. Review and try the merge again.", documentation_url: DOCS } };
    const tip = (await readRef(ctx.repo.git, `refs/heads/${p.base}`))!;
    const message = b.commit_title ? `${b.commit_title}${b.commit_message ? `\n\n${b.commit_message}` : ""}` : undefined;
    try {
      const done = await applyPull(ctx.repo.git, tip, { number: p.number, headSha: head, ...(message ? { message } : {}) }, b.merge_method ?? "merge", ctx.double.now());
      await compareAndSwapRef(ctx.repo.git, `refs/heads/${p.base}`, tip, done.tip);
      Object.assign(p, { state: "closed", mergedAt: ctx.double.now(), closedAt: ctx.double.now(), mergeCommitSha: done.merged.mergeCommitSha, mergedBy: `${ctx.double.appSlug}[bot]` });
      return { status: 200, body: { sha: done.tip, merged: true, message: "Pull Request successfully merged" } };
    } catch (e) {
      if (isMergeConflict(e)) return { status: 405, body: { message: "Pull Request is not mergeable", documentation_url: DOCS } };
      throw e;
    }
  },

  "pulls/update-branch": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const head = await ctx.repo.headSha(p);
    if (ctx.body.expected_head_sha && ctx.body.expected_head_sha !== head) return unprocessable("expected head sha didn't match current head ref.");
    const base = (await readRef(ctx.repo.git, `refs/heads/${p.base}`))!;
    if (await isAncestor(ctx.repo.git, base, head)) return unprocessable("There are no new commits on the base branch.");
    try {
      const sha = await createMergeCommit(ctx.repo.git, { into: head, from: base, message: `Merge branch '${p.base}' into ${p.headRef}`, date: ctx.double.now() });
      // GitHub updates in the background: the new head shows from the third read on.
      ctx.double.pendingUpdates.set(`${ctx.repo.fullName}#${p.number}`, { reads: 2, from: head, to: sha });
    } catch (e) {
      if (isMergeConflict(e)) return unprocessable("merge conflict between base and head");
      throw e;
    }
    return { status: 202, body: { message: "Updating pull request branch.", url: `https://github.com/${ctx.repo.fullName}/pull/${p.number}` } };
  },

  "repos/get-branch-protection": (ctx) => {
    const p = ctx.repo.protection.get(ctx.params.branch);
    if (p === "forbidden") return { status: 403, body: { message: "Resource not accessible by integration", documentation_url: DOCS } };
    if (!p) return notFound("Branch not protected");
    const t = example("repos/get-branch-protection", 200);
    const url = `https://api.github.com/repos/${ctx.repo.fullName}/branches/${ctx.params.branch}/protection`;
    return {
      status: 200,
      body: {
        ...t,
        url,
        required_status_checks: { ...t.required_status_checks, contexts: p.contexts, checks: p.checks.map((context) => ({ context, app_id: null })) },
        // The example's team lists lack the `type` their schema requires: no restrictions here.
        restrictions: undefined,
        required_pull_request_reviews: p.approvals === null ? undefined : { ...t.required_pull_request_reviews, dismissal_restrictions: undefined, required_approving_review_count: p.approvals },
        required_conversation_resolution: { enabled: p.conversation },
      },
    };
  },

  "repos/get-branch-rules": (ctx) => {
    const rules = (ctx.repo.rules.get(ctx.params.branch) ?? []).map((r, i) => ({ ...r, ruleset_source_type: "Repository", ruleset_source: ctx.repo.fullName, ruleset_id: 100 + i }));
    return { status: 200, headers: linkHeaders(ctx, rules.length), body: page(rules, ctx.query) };
  },

  "issues/create-comment": (ctx) => {
    const id = ctx.double.id();
    ctx.repo.comments.push({ id, number: Number(ctx.params.issue_number), body: ctx.body.body });
    return { status: 201, body: { ...example("issues/create-comment", 201), id, body: ctx.body.body } };
  },

  "issues/add-labels": (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.issue_number));
    if (!p) return notFound();
    for (const raw of ctx.body.labels as (string | { name: string })[]) {
      const name = typeof raw === "string" ? raw : raw.name;
      if (!p.labels.some((l) => l.name === name)) p.labels.push({ id: ctx.double.id(), name, color: "ededed", default: false });
    }
    return { status: 200, body: p.labels.map(labelJson) };
  },

  "issues/remove-label": (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.issue_number));
    if (!p) return notFound();
    const i = p.labels.findIndex((l) => l.name === ctx.params.name);
    if (i < 0) return notFound("Label does not exist");
    p.labels.splice(i, 1);
    return { status: 200, body: p.labels.map(labelJson) };
  },
};
