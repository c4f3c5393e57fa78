/**
 * The GitHub test double's repository operations (App installation and tokens, repositories,
 * refs, the merges API, the Git data API, contents, comparisons, branch protection and rules),
 * each answering what GitHub documents, including its refusals (422 "Reference already exists",
 * "Update is not a fast forward", "Reference does not exist"; 409 merge conflicts; 404s).
 */
import {
  commitsAhead,
  commitsBehind,
  commitsBetween,
  compareAndSwapRef,
  createMergeCommit,
  datedIdentity,
  findCommit,
  isAncestor,
  isMergeConflict,
  mergeBase,
  readCommit,
  readFileBlob,
  readRef,
  runGit,
  writeCommit,
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
} from "./double-answers.js";
import { commitJson, gitCommitJson, iso, refJson, repoJson } from "./double-json.js";
import { once } from "./double-memo.js";
import { markContainedPullsMerged } from "./double-pull-write-handlers.js";
import { changedFiles } from "./double-tree-handlers.js";
import type { DoubleRepo } from "./double-state.js";

async function resolveRev(repo: DoubleRepo, rev: string): Promise<string | null> {
  if (/^[0-9a-f]{40}$/.test(rev)) return findCommit(repo.git, rev);
  return (await readRef(repo.git, `refs/heads/${rev}`)) ?? null;
}

export const gitHandlers: Record<string, Handler> = {
  "apps/get-repo-installation": (ctx) => ({
    status: 200,
    body: {
      ...example("apps/get-repo-installation", 200),
      id: ctx.repo.installationId,
      app_id: ctx.double.appId,
      app_slug: ctx.double.appSlug,
    },
  }),

  "apps/create-installation-access-token": (ctx) => ({
    status: 201,
    body: {
      ...example("apps/create-installation-access-token", 201),
      token: ctx.double.issueInstallationToken(Number(ctx.params.installation_id)),
      expires_at: iso(new Date(Date.now() + 3600_000)),
    },
  }),

  "repos/get": (ctx) => {
    const user = ctx.double.users.get(ctx.token);
    if (user && !user.readable.has(ctx.repo.fullName.toLowerCase())) return notFound();
    return {
      status: 200,
      body: repoJson(ctx.repo, user && !user.installation ? { pull: true, push: false, admin: false } : undefined),
    };
  },

  "users/get-authenticated": (ctx) => {
    const user = ctx.double.users.get(ctx.token)!;
    if (user.installation)
      return { status: 403, body: { message: "Resource not accessible by integration", documentation_url: DOCS } };
    return { status: 200, body: { ...example("users/get-authenticated", 200), login: user.login, id: user.id } };
  },

  // With an installation token, that installation's repositories; a user token reaches none this way.
  "apps/list-repos-accessible-to-installation": (ctx) => {
    const installation = ctx.double.installationOf(ctx.token);
    const repos = ctx.double.allRepos().filter((r) => installation !== undefined && r.installationId === installation);
    return { status: 200, body: { total_count: repos.length, repositories: repos.map((r) => repoJson(r)) } };
  },

  "apps/list-installations": (ctx) => ({
    status: 200,
    body: ctx.double.allRepos().map((r) => ({
      ...example("apps/list-installations", 200)[0],
      // GitHub's own example account lacks fields its schema requires; the schema allows null.
      account: null,
      id: r.installationId,
      app_id: ctx.double.appId,
      app_slug: ctx.double.appSlug,
    })),
  }),

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
      const sha = await createMergeCommit(ctx.repo.git, {
        into: tip,
        from,
        message: commit_message ?? `Merge ${head} into ${base}`,
        date: ctx.double.now(),
      });
      await compareAndSwapRef(ctx.repo.git, `refs/heads/${base}`, tip, sha);
      return { status: 201, body: commitJson(ctx.repo.fullName, await readCommit(ctx.repo.git, sha)) };
    } catch (e) {
      if (isMergeConflict(e)) return { status: 409, body: { message: "Merge conflict", documentation_url: DOCS } };
      throw e;
    }
  },

  "git/create-commit": async (ctx) => {
    const { message, tree, parents, author } = ctx.body as {
      message: string;
      tree: string;
      parents?: string[];
      author?: { name: string; email: string; date?: string };
    };
    const at = ctx.double.now();
    const bot = datedIdentity({ name: `${ctx.double.appSlug}[bot]`, email: "bot@users.noreply.github.com" }, at);
    const who = author
      ? datedIdentity({ name: author.name, email: author.email }, author.date ? new Date(author.date) : at)
      : bot;
    for (const p of parents ?? [])
      if (!(await findCommit(ctx.repo.git, p)))
        return unprocessable(`Parent SHA does not exist or is not a commit object`);
    const sha = await writeCommit(ctx.repo.git, {
      tree,
      parents: parents ?? [],
      message,
      author: who,
      committer: author ? who : bot,
    });
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
    return {
      status: 200,
      body: {
        ...example("git/get-blob", 200),
        sha: ctx.params.file_sha,
        size: out.stdout.length,
        encoding: "base64",
        content: out.stdout.toString("base64"),
      },
    };
  },

  "repos/compare-commits-with-basehead": async (ctx) => {
    const [baseRev, headRev] = ctx.params.basehead.split("...");
    const base = await resolveRev(ctx.repo, baseRev),
      head = await resolveRev(ctx.repo, headRev);
    if (!base || !head) return notFound();
    const per = Number(ctx.query.get("per_page") ?? 250);
    return once(`compare ${ctx.repo.git.gitDir} ${base} ${head} ${per}`, () => compare(ctx.repo, base, head, per));
  },

  "repos/get-branch-protection": (ctx) => {
    const p = ctx.repo.protection.get(ctx.params.branch);
    if (p === "forbidden")
      return { status: 403, body: { message: "Resource not accessible by integration", documentation_url: DOCS } };
    if (!p) return notFound("Branch not protected");
    const t = example("repos/get-branch-protection", 200);
    const url = `https://api.github.com/repos/${ctx.repo.fullName}/branches/${ctx.params.branch}/protection`;
    return {
      status: 200,
      body: {
        ...t,
        url,
        required_status_checks: {
          ...t.required_status_checks,
          contexts: p.contexts,
          checks: p.checks.map((context) => ({ context, app_id: null })),
        },
        // The example's team lists lack the `type` their schema requires: no restrictions here.
        restrictions: undefined,
        required_pull_request_reviews:
          p.approvals === null
            ? undefined
            : {
                ...t.required_pull_request_reviews,
                dismissal_restrictions: undefined,
                required_approving_review_count: p.approvals,
              },
        required_conversation_resolution: { enabled: p.conversation },
      },
    };
  },

  "repos/get-branch-rules": (ctx) => {
    const rules = (ctx.repo.rules.get(ctx.params.branch) ?? []).map((r, i) => ({
      ...r,
      ruleset_source_type: "Repository",
      ruleset_source: ctx.repo.fullName,
      ruleset_id: 100 + i,
    }));
    return { status: 200, headers: linkHeaders(ctx, rules.length), body: page(rules, ctx.query) };
  },
};

/** GitHub's comparison of two commits (the same every time for the same SHAs: computed once). */
async function compare(repo: DoubleRepo, base: string, head: string, per: number): Promise<Answer> {
  const mb = (await mergeBase(repo.git, base, head))!;
  const [ahead, behind, commits] = await Promise.all([
    commitsAhead(repo.git, base, head),
    commitsBehind(repo.git, base, head),
    commitsBetween(repo.git, base, head),
  ]);
  const name = repo.fullName;
  return {
    status: 200,
    body: {
      ...example("repos/compare-commits-with-basehead", 200),
      base_commit: commitJson(name, await readCommit(repo.git, base)),
      merge_base_commit: commitJson(name, await readCommit(repo.git, mb)),
      status: ahead && behind ? "diverged" : ahead ? "ahead" : behind ? "behind" : "identical",
      ahead_by: ahead,
      behind_by: behind,
      total_commits: ahead,
      commits: commits.slice(0, per).map((c) => commitJson(name, c)),
      files: await changedFiles(repo, mb, head),
    },
  };
}
