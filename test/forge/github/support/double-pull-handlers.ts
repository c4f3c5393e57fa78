/**
 * The GitHub test double's pull request operations (pulls, files, commits, reviews, merges,
 * branch updates), check runs, commit statuses, collaborators, comments and labels, each
 * answering what GitHub documents, including its refusals (405 "not mergeable", 409 "Head branch
 * was modified", 422 for drafts where none are offered, a background update of a fork's branch).
 */
import {
  applyPull,
  commitsAhead,
  commitsBetween,
  compareAndSwapRef,
  createMergeCommit,
  hasConflict,
  isAncestor,
  isMergeConflict,
  mergeBase,
  readCommit,
  readRef,
  runGit,
} from "../../../../services/forge/local/git/index.js";
import {
  DOCS,
  example,
  linkHeaders,
  notFound,
  page,
  unprocessable,
  type Answer,
  type Handler,
  type HandlerContext,
} from "./double-answers.js";
import { checkRunJson, commitJson, iso, labelJson, pullJson, userJson } from "./double-json.js";
import { once } from "./double-memo.js";
import { headIn, readRefs, type RefMap } from "./double-refs.js";
import type { DoublePull, DoubleRepo } from "./double-state.js";

/** Head and base facts of a pull request, with the counts its JSON carries (`refs`: the refs read once for many). */
async function pullFacts(repo: DoubleRepo, p: DoublePull, refs?: RefMap) {
  const head = (refs && headIn(refs, p)) || (await repo.headSha(p));
  const base = (refs?.get(`refs/heads/${p.base}`) ?? (await readRef(repo.git, `refs/heads/${p.base}`)))!;
  const files = await diffEntries(
    repo,
    p.mergedAt ? (await readCommit(repo.git, p.mergeCommitSha!)).parents[0] : base,
    head,
  );
  const commits =
    p.state === "open"
      ? await once(`ahead ${repo.git.gitDir} ${base} ${head}`, () => commitsAhead(repo.git, base, head))
      : 1;
  return {
    head,
    base,
    counts: {
      additions: files.reduce((s, f) => s + f.additions, 0),
      deletions: files.reduce((s, f) => s + f.deletions, 0),
      changedFiles: files.length,
      commits,
    },
  };
}

export async function pullAnswer(repo: DoubleRepo, p: DoublePull, status = 200, refs?: RefMap): Promise<Answer> {
  const f = await pullFacts(repo, p, refs);
  if (p.state === "open" && p.mergeable !== null) {
    const conflicting = await once(`conflict ${repo.git.gitDir} ${f.base} ${f.head}`, () =>
      hasConflict(repo.git, f.base, f.head),
    );
    p.mergeableState = conflicting ? "dirty" : "clean";
    p.mergeable = !conflicting;
  } else if (p.state === "open") {
    p.mergeableState = "unknown";
  }
  return { status, body: pullJson(repo, p, f.head, f.base, f.counts) };
}

/** GitHub's diff entries of `head` against its merge base with `base` (renames detected). */
function diffEntries(repo: DoubleRepo, base: string, head: string) {
  return once(`diff ${repo.git.gitDir} ${base} ${head}`, () => computeDiffEntries(repo, base, head));
}

async function computeDiffEntries(repo: DoubleRepo, base: string, head: string) {
  const from = (await mergeBase(repo.git, base, head)) ?? base;
  const [status, numstat] = await Promise.all([
    runGit(repo.git.gitDir, ["diff-tree", "-r", "-M", "--name-status", "--no-commit-id", from, head]),
    runGit(repo.git.gitDir, ["diff-tree", "-r", "-M", "--numstat", "--no-commit-id", from, head]),
  ]);
  const counts = numstat.stdout
    .toString("utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((l) => l.split("\t").map((x) => Number(x) || 0));
  return status.stdout
    .toString("utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line, i) => {
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
export async function markContainedPullsMerged(ctx: HandlerContext, branch: string, tip: string): Promise<void> {
  for (const p of ctx.repo.pulls.values()) {
    if (p.state !== "open" || p.base !== branch) continue;
    const head = await ctx.repo.headSha(p);
    if (await isAncestor(ctx.repo.git, head, tip))
      Object.assign(p, {
        state: "closed",
        mergedAt: ctx.double.now(),
        closedAt: ctx.double.now(),
        mergeCommitSha: head,
        mergedBy: `${ctx.double.appSlug}[bot]`,
      });
  }
}

/**
 * GitHub's order of a pull request list: `sort` created (default) or updated, `direction` asc or
 * desc, by default "desc when sort is created or sort is not specified, otherwise asc"
 * (https://docs.github.com/en/rest/pulls/pulls#list-pull-requests).
 */
function pullOrder(q: URLSearchParams): (a: DoublePull, b: DoublePull) => number {
  const by = q.get("sort") === "updated" ? "updatedAt" : "createdAt";
  const sign = (q.get("direction") ?? (by === "createdAt" ? "desc" : "asc")) === "desc" ? -1 : 1;
  return (a, b) => sign * (a[by].getTime() - b[by].getTime() || a.number - b.number);
}

/** Every label a repository's pull requests carried, by name (a repository's label outlives its last use). */
const labelsSeen = new WeakMap<DoubleRepo, Map<string, DoublePull["labels"][number]>>();

/** The repository's labels: those its pull requests carry or carried, one per name (the first seen). */
function repoLabels(repo: DoubleRepo) {
  const byName = labelsSeen.get(repo) ?? new Map<string, DoublePull["labels"][number]>();
  labelsSeen.set(repo, byName);
  for (const p of repo.pulls.values()) for (const l of p.labels) if (!byName.has(l.name)) byName.set(l.name, { ...l });
  return [...byName.values()];
}

export const pullHandlers: Record<string, Handler> = {
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
        state: all.some((s) => s.state === "failure" || s.state === "error")
          ? "failure"
          : all.every((s) => s.state === "success")
            ? "success"
            : "pending",
        statuses: page(all, ctx.query).map((s) => ({
          ...t.statuses[0],
          id: s.id,
          context: s.context,
          state: s.state,
          description: s.description,
          target_url: s.targetUrl,
          created_at: iso(s.at),
          updated_at: iso(s.at),
        })),
      },
    };
  },

  "checks/list-for-ref": (ctx) => {
    let runs = ctx.repo.checkRuns.filter((r) => r.headSha === ctx.params.ref);
    if (ctx.query.has("check_name")) runs = runs.filter((r) => r.name === ctx.query.get("check_name"));
    if (ctx.query.has("app_id")) runs = runs.filter((r) => String(r.appId) === ctx.query.get("app_id"));
    if ((ctx.query.get("filter") ?? "latest") === "latest") {
      const latest = new Map<string, (typeof runs)[number]>();
      for (const r of runs)
        if (!latest.has(`${r.appId} ${r.name}`) || latest.get(`${r.appId} ${r.name}`)!.id < r.id)
          latest.set(`${r.appId} ${r.name}`, r);
      runs = [...latest.values()];
    }
    return {
      status: 200,
      headers: linkHeaders(ctx, runs.length),
      body: {
        total_count: runs.length,
        check_runs: page(runs, ctx.query).map((r) => checkRunJson(ctx.repo.fullName, r)),
      },
    };
  },

  "checks/create": (ctx) => {
    const b = ctx.body;
    const run = {
      id: ctx.double.id(),
      name: b.name,
      headSha: b.head_sha,
      status: b.conclusion ? "completed" : (b.status ?? "queued"),
      conclusion: b.conclusion ?? null,
      title: b.output?.title ?? null,
      summary: b.output?.summary ?? null,
      appId: ctx.double.appId,
      appSlug: ctx.double.appSlug,
      detailsUrl: b.details_url ?? null,
      startedAt: ctx.double.now(),
      completedAt: b.conclusion ? ctx.double.now() : null,
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
    // GitHub's `head` filter is "owner:branch"; `base` a branch name.
    const head = ctx.query.get("head");
    const base = ctx.query.get("base");
    const pulls = [...ctx.repo.pulls.values()]
      .filter((p) => state === "all" || p.state === state)
      .filter((p) => head === null || (p.fork === null && head === `${ctx.repo.owner}:${p.headRef}`))
      .filter((p) => base === null || p.base === base)
      .sort(pullOrder(ctx.query));
    const shown = page(pulls, ctx.query);
    const bodies = [];
    const refs = await readRefs(ctx.repo);
    for (const p of shown) {
      const { body } = await pullAnswer(ctx.repo, p, 200, refs);
      for (const k of [
        "merged",
        "mergeable",
        "mergeable_state",
        "merged_by",
        "comments",
        "review_comments",
        "maintainer_can_modify",
        "commits",
        "additions",
        "deletions",
        "changed_files",
        "rebaseable",
      ])
        delete body[k];
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
    const commits = await once(`between ${ctx.repo.git.gitDir} ${f.base} ${f.head}`, () =>
      commitsBetween(ctx.repo.git, f.base, f.head),
    );
    return {
      status: 200,
      headers: linkHeaders(ctx, commits.length),
      body: page(commits, ctx.query).map((c) => commitJson(ctx.repo.fullName, c, c.message.includes("[signed]"))),
    };
  },

  "pulls/list-reviews": (ctx) => {
    const reviews = ctx.repo.reviews.get(Number(ctx.params.pull_number)) ?? [];
    const t = example("pulls/list-reviews", 200)[0];
    return {
      status: 200,
      headers: linkHeaders(ctx, reviews.length),
      body: page(reviews, ctx.query).map((r) => ({
        ...t,
        id: r.id,
        user: userJson(r.user, 4000 + r.id),
        state: r.state,
        ...(r.submittedAt ? { submitted_at: iso(r.submittedAt) } : { submitted_at: undefined }),
      })),
    };
  },

  "pulls/create": async (ctx) => {
    const { head, base, title, body, draft } = ctx.body as {
      head: string;
      base: string;
      title: string;
      body?: string;
      draft?: boolean;
    };
    if (draft && !ctx.repo.allowDrafts)
      return unprocessable("Draft pull requests are not supported in this repository.");
    if (!(await readRef(ctx.repo.git, `refs/heads/${head}`)) || !(await readRef(ctx.repo.git, `refs/heads/${base}`)))
      return unprocessable("Validation Failed");
    const p = await ctx.repo.openPull({
      head,
      base,
      title,
      body: body ?? "",
      draft: draft ?? false,
      author: { login: `${ctx.double.appSlug}[bot]`, id: 99 },
    });
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
    const b = ctx.body as {
      sha?: string;
      merge_method?: "merge" | "squash" | "rebase";
      commit_title?: string;
      commit_message?: string;
    };
    if (p.state !== "open")
      return { status: 405, body: { message: "Pull Request is not mergeable", documentation_url: DOCS } };
    const head = await ctx.repo.headSha(p);
    if (b.sha && b.sha !== head)
      return {
        status: 409,
        body: { message: "Head branch was modified. Review and try the merge again.", documentation_url: DOCS },
      };
    const tip = (await readRef(ctx.repo.git, `refs/heads/${p.base}`))!;
    const message = b.commit_title
      ? `${b.commit_title}${b.commit_message ? `\n\n${b.commit_message}` : ""}`
      : undefined;
    try {
      const done = await applyPull(
        ctx.repo.git,
        tip,
        { number: p.number, headSha: head, ...(message ? { message } : {}) },
        b.merge_method ?? "merge",
        ctx.double.now(),
      );
      await compareAndSwapRef(ctx.repo.git, `refs/heads/${p.base}`, tip, done.tip);
      Object.assign(p, {
        state: "closed",
        mergedAt: ctx.double.now(),
        closedAt: ctx.double.now(),
        mergeCommitSha: done.merged.mergeCommitSha,
        mergedBy: `${ctx.double.appSlug}[bot]`,
      });
      return { status: 200, body: { sha: done.tip, merged: true, message: "Pull Request successfully merged" } };
    } catch (e) {
      if (isMergeConflict(e))
        return { status: 405, body: { message: "Pull Request is not mergeable", documentation_url: DOCS } };
      throw e;
    }
  },

  "pulls/update-branch": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const head = await ctx.repo.headSha(p);
    if (ctx.body.expected_head_sha && ctx.body.expected_head_sha !== head)
      return unprocessable("expected head sha didn't match current head ref.");
    const base = (await readRef(ctx.repo.git, `refs/heads/${p.base}`))!;
    if (await isAncestor(ctx.repo.git, base, head))
      return unprocessable("There are no new commits on the base branch.");
    try {
      const sha = await createMergeCommit(ctx.repo.git, {
        into: head,
        from: base,
        message: `Merge branch '${p.base}' into ${p.headRef}`,
        date: ctx.double.now(),
      });
      // GitHub updates in the background: the new head shows from the third read on.
      ctx.double.pendingUpdates.set(`${ctx.repo.fullName}#${p.number}`, { reads: 2, from: head, to: sha });
    } catch (e) {
      if (isMergeConflict(e)) return unprocessable("merge conflict between base and head");
      throw e;
    }
    return {
      status: 202,
      body: {
        message: "Updating pull request branch.",
        url: `https://github.com/${ctx.repo.fullName}/pull/${p.number}`,
      },
    };
  },

  "issues/create-comment": (ctx) => {
    const id = ctx.double.id();
    // Written with an installation token: the App's bot user is the author.
    const author = `${ctx.double.appSlug}[bot]`;
    ctx.repo.comments.push({ id, number: Number(ctx.params.issue_number), body: ctx.body.body, author });
    const user = userJson(author, 7001, "Bot");
    return { status: 201, body: { ...example("issues/create-comment", 201), id, body: ctx.body.body, user } };
  },

  "issues/list-comments": (ctx) => {
    if (!ctx.repo.pull(Number(ctx.params.issue_number))) return notFound();
    const all = ctx.repo.comments.filter((c) => c.number === Number(ctx.params.issue_number));
    const t = example("issues/list-comments", 200)[0];
    return {
      status: 200,
      headers: linkHeaders(ctx, all.length),
      body: page(all, ctx.query).map((c) => {
        const bot = c.author.endsWith("[bot]");
        return { ...t, id: c.id, body: c.body, user: userJson(c.author, bot ? 7001 : 7002, bot ? "Bot" : "User") };
      }),
    };
  },

  "issues/add-labels": (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.issue_number));
    if (!p) return notFound();
    for (const raw of ctx.body.labels as (string | { name: string })[]) {
      const name = typeof raw === "string" ? raw : raw.name;
      // A label belongs to the repository: the same name keeps its id on every pull request.
      const known = repoLabels(ctx.repo).find((l) => l.name === name);
      if (!p.labels.some((l) => l.name === name))
        p.labels.push(known ? { ...known } : { id: ctx.double.id(), name, color: "ededed", default: false });
    }
    return { status: 200, body: p.labels.map(labelJson) };
  },

  /** The repository's labels (those its pull requests carry or carried). */
  "issues/list-labels-for-repo": (ctx) => {
    const all = repoLabels(ctx.repo);
    return { status: 200, headers: linkHeaders(ctx, all.length), body: page(all, ctx.query).map(labelJson) };
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
