/**
 * The GitHub test double's operations that honour a repository's merge settings, branch
 * protection and rulesets (double-rules.ts has the model and its sources). They wrap the plain
 * operations of double-git-handlers.ts and double-pull-write-handlers.ts:
 * - `PUT .../pulls/{n}/merge`: every n-th request answered 405 "Base branch was modified. Review
 *   and try the merge again." when the test asks (GitHub answers it for a moment after the base
 *   moved: https://docs.github.com/en/rest/pulls/pulls#merge-a-pull-request lists 405 "if merge
 *   cannot be performed"); a draft, a method the repository does not allow, missing approvals,
 *   required checks not successful on the head, a head behind the base under strict checks, a
 *   merge commit under linear history, unsigned commits merged under required signatures: 405;
 *   once merged, the other open pull requests whose head the base now holds are marked merged;
 * - `PATCH .../git/refs/heads/{b}` and `POST .../merges` into a protected branch: a direct write,
 *   refused (422) when a pull request is required, pushes are restricted, the commit lacks its
 *   required checks, brings a merge commit under linear history or an unsigned commit;
 * - `GET .../{repo}`, `.../branches/{b}/protection`, `.../rules/branches/{b}`, `.../rulesets/{id}`:
 *   the settings as GitHub reports them, with `current_user_can_bypass` for the App.
 * Each refusal is recorded in the repository's `refusals` (a test of a queue that complies
 * expects none).
 */
import { isAncestor, readRef } from "../../../../services/forge/local/git/index.js";
import { DOCS, example, notFound, type Answer, type Handler, type HandlerContext } from "./double-answers.js";
import { gitHandlers } from "./double-git-handlers.js";
import { markContainedPullsMerged, pullWriteHandlers } from "./double-pull-write-handlers.js";
import {
  isMergeCommit,
  isVerified,
  newCommits,
  refusalMessage,
  requirementsOf,
  settingsOf,
  type Requirements,
} from "./double-rules.js";
import type { DoubleRepo } from "./double-state.js";

const METHOD_NAMES = { merge: "Merge commits", squash: "Squash merges", rebase: "Rebase merges" } as const;

function refuse(ctx: HandlerContext, operation: string, status: number, message: string): Answer {
  settingsOf(ctx.repo).refusals.push({ operation, status, message });
  return { status, body: { message, documentation_url: DOCS } };
}

/** The state of a required check on `sha`: the latest check run of that name, else the latest status. */
function checkState(repo: DoubleRepo, sha: string, context: string): "success" | "failure" | "pending" | "missing" {
  const run = repo.checkRuns.filter((r) => r.headSha === sha && r.name === context).sort((a, b) => b.id - a.id)[0];
  if (run) {
    if (run.status !== "completed") return "pending";
    return ["success", "neutral", "skipped"].includes(run.conclusion ?? "") ? "success" : "failure";
  }
  const status = repo.statuses.filter((s) => s.sha === sha && s.context === context).at(-1);
  if (!status) return "missing";
  return status.state === "success" ? "success" : status.state === "pending" ? "pending" : "failure";
}

/** The first required check not successful on `sha`, as GitHub words it; null when all pass. */
function unmetCheck(repo: DoubleRepo, sha: string, req: Requirements): string | null {
  for (const c of req.checks) {
    const state = checkState(repo, sha, c.context);
    if (state === "success") continue;
    const line =
      state === "failure"
        ? `Required status check "${c.context}" is failing.`
        : `Required status check "${c.context}" is expected.`;
    return refusalMessage(line, c.ruleset);
  }
  return null;
}

/** Approving reviews of a pull request (each reviewer's latest review). */
function approvals(repo: DoubleRepo, number: number): number {
  const latest = new Map<string, string>();
  for (const r of repo.reviews.get(number) ?? [])
    if (r.state !== "COMMENTED" && r.state !== "PENDING") latest.set(r.user, r.state);
  return [...latest.values()].filter((s) => s === "APPROVED").length;
}

/** Why the App may not merge pull request `number` with `method`; null when GitHub would. */
async function mergeRefusal(
  ctx: HandlerContext,
  number: number,
  method: "merge" | "squash" | "rebase",
): Promise<string | null> {
  const repo = ctx.repo;
  const p = repo.pull(number)!;
  const settings = settingsOf(repo);
  if (p.draft) return "Pull Request is still a draft";
  const allowed = {
    merge: settings.allowMergeCommit,
    squash: settings.allowSquashMerge,
    rebase: settings.allowRebaseMerge,
  };
  if (!allowed[method]) return `${METHOD_NAMES[method]} are not allowed on this repository.`;
  const req = requirementsOf(repo, p.base, ctx.double.appSlug, "merge");
  const head = await repo.headSha(p);
  const tip = (await readRef(repo.git, `refs/heads/${p.base}`))!;
  for (const f of req.forbidden) if (/merge queue/.test(f.message)) return refusalMessage(f.message, f.ruleset);
  if (req.pullRequest && approvals(repo, number) < req.pullRequest.approvals) {
    const n = req.pullRequest.approvals;
    const line = `At least ${n} approving review${n === 1 ? " is" : "s are"} required by reviewers with write access.`;
    return refusalMessage(line, req.pullRequest.ruleset);
  }
  const strict = req.checks.filter((c) => c.strict);
  if (strict.length > 0 && !(await isAncestor(repo.git, tip, head)))
    return refusalMessage(
      `${req.checks.length} of ${req.checks.length} required status checks are expected.`,
      strict[0]!.ruleset,
    );
  const unmet = unmetCheck(repo, head, req);
  if (unmet) return unmet;
  if (req.linear && method === "merge")
    return refusalMessage("This branch must not contain merge commits.", req.linear.ruleset);
  if (req.signatures && method === "merge") {
    for (const sha of await newCommits(repo, tip, head))
      if (!(await isVerified(repo, sha)))
        return refusalMessage("Commits must have verified signatures.", req.signatures.ruleset);
  }
  return null;
}

/** Why the App may not move `branch` from `from` to `to` directly; null when GitHub would. */
async function pushRefusal(
  repo: DoubleRepo,
  slug: string,
  branch: string,
  from: string,
  to: string | null,
): Promise<string | null> {
  const req = requirementsOf(repo, branch, slug, "push");
  const guarded = req.pullRequest || req.checks.length || req.linear || req.signatures || req.forbidden.length;
  if (!guarded) return null;
  if (req.forbidden[0]) return refusalMessage(req.forbidden[0].message, req.forbidden[0].ruleset);
  if (req.pullRequest) return refusalMessage("Changes must be made through a pull request.", req.pullRequest.ruleset);
  if (to === null) {
    // A merge GitHub would write (POST .../merges): a new commit no check ran on, and a merge commit.
    const check = req.checks[0];
    if (check) return refusalMessage(`Required status check "${check.context}" is expected.`, check.ruleset);
    return req.linear ? refusalMessage("This branch must not contain merge commits.", req.linear.ruleset) : null;
  }
  if (req.nonFastForward && !(await isAncestor(repo.git, from, to)))
    return refusalMessage("Cannot force-push to this branch.", false);
  const unmet = unmetCheck(repo, to, req);
  if (unmet) return unmet;
  const added = await newCommits(repo, from, to);
  if (req.linear) {
    for (const sha of added)
      if (await isMergeCommit(repo, sha))
        return refusalMessage("This branch must not contain merge commits.", req.linear.ruleset);
  }
  if (req.signatures) {
    for (const sha of added)
      if (!(await isVerified(repo, sha)))
        return refusalMessage("Commits must have verified signatures.", req.signatures.ruleset);
  }
  return null;
}

/** Records the commits GitHub wrote for the App between two tips as verified. */
async function verifyWritten(repo: DoubleRepo, from: string, to: string): Promise<void> {
  for (const sha of await newCommits(repo, from, to)) settingsOf(repo).verified.add(sha);
}

export const ruleHandlers: Record<string, Handler> = {
  "pulls/merge": async (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const settings = settingsOf(ctx.repo);
    settings.mergeRequests++;
    if (settings.baseModifiedEvery !== null && settings.mergeRequests % settings.baseModifiedEvery === 0) {
      settings.baseModifiedAnswers++;
      return {
        status: 405,
        body: { message: "Base branch was modified. Review and try the merge again.", documentation_url: DOCS },
      };
    }
    if (p.state === "open") {
      const method = (ctx.body.merge_method as "merge" | "squash" | "rebase" | undefined) ?? "merge";
      const refused = await mergeRefusal(ctx, p.number, method);
      if (refused) return refuse(ctx, "pulls/merge", 405, refused);
    }
    const tip = (await readRef(ctx.repo.git, `refs/heads/${p.base}`))!;
    const answer = await pullWriteHandlers["pulls/merge"]!(ctx);
    if (answer.status === 200) {
      await verifyWritten(ctx.repo, tip, answer.body.sha);
      await markContainedPullsMerged(ctx, p.base, answer.body.sha);
    }
    return answer;
  },

  "git/update-ref": async (ctx) => {
    const ref = `refs/${ctx.params.ref}`;
    const current = await readRef(ctx.repo.git, ref);
    if (current && ref.startsWith("refs/heads/")) {
      const refused = await pushRefusal(ctx.repo, ctx.double.appSlug, ref.slice(11), current, String(ctx.body.sha));
      if (refused) return refuse(ctx, "git/update-ref", 422, refused);
    }
    return gitHandlers["git/update-ref"]!(ctx);
  },

  "repos/merge": async (ctx) => {
    const base = String(ctx.body.base);
    const tip = await readRef(ctx.repo.git, `refs/heads/${base}`);
    if (tip) {
      const refused = await pushRefusal(ctx.repo, ctx.double.appSlug, base, tip, null);
      if (refused) return refuse(ctx, "repos/merge", 422, refused);
    }
    const answer = await gitHandlers["repos/merge"]!(ctx);
    if (answer.status === 201) settingsOf(ctx.repo).verified.add(answer.body.sha);
    return answer;
  },

  "git/create-commit": async (ctx) => {
    const answer = await gitHandlers["git/create-commit"]!(ctx);
    if (answer.status === 201 && ctx.body.author === undefined) settingsOf(ctx.repo).verified.add(answer.body.sha);
    return answer;
  },

  "repos/get": async (ctx) => {
    const answer = await gitHandlers["repos/get"]!(ctx);
    if (answer.status !== 200) return answer;
    const s = settingsOf(ctx.repo);
    return {
      ...answer,
      body: {
        ...answer.body,
        allow_merge_commit: s.allowMergeCommit,
        allow_squash_merge: s.allowSquashMerge,
        allow_rebase_merge: s.allowRebaseMerge,
      },
    };
  },

  "repos/get-branch-protection": async (ctx) => {
    const answer = await gitHandlers["repos/get-branch-protection"]!(ctx);
    if (answer.status !== 200) return answer;
    const extra = settingsOf(ctx.repo).classic.get(ctx.params.branch) ?? {};
    const url = answer.body.url as string;
    const app = (slug: string) => ({ ...example("apps/get-authenticated", 200), slug, name: slug });
    const body = {
      ...answer.body,
      required_status_checks: { ...answer.body.required_status_checks, strict: extra.strict === true },
      required_linear_history: { enabled: extra.linear === true },
      required_signatures: { url: `${url}/required_signatures`, enabled: extra.signatures === true },
      restrictions: extra.pushApps
        ? {
            url: `${url}/restrictions`,
            users_url: `${url}/restrictions/users`,
            teams_url: `${url}/restrictions/teams`,
            apps_url: `${url}/restrictions/apps`,
            users: [],
            teams: [],
            apps: extra.pushApps.map(app),
          }
        : undefined,
    };
    if (body.required_pull_request_reviews)
      body.required_pull_request_reviews = {
        ...body.required_pull_request_reviews,
        bypass_pull_request_allowances: { users: [], teams: [], apps: (extra.pullRequestBypassApps ?? []).map(app) },
      };
    return { ...answer, body };
  },

  "repos/get-branch-rules": async (ctx) => {
    const answer = await gitHandlers["repos/get-branch-rules"]!(ctx);
    const sets = settingsOf(ctx.repo).rulesets.filter((r) => r.branches.includes(ctx.params.branch));
    const more = sets.flatMap((set) =>
      set.rules.map((r) => ({
        ...r,
        ruleset_source_type: "Repository",
        ruleset_source: ctx.repo.fullName,
        ruleset_id: set.id,
      })),
    );
    return { ...answer, body: [...(answer.body as unknown[]), ...more] };
  },

  "repos/get-repo-ruleset": (ctx) => {
    const set = settingsOf(ctx.repo).rulesets.find((r) => String(r.id) === ctx.params.ruleset_id);
    if (!set) return notFound();
    const t = example("repos/get-repo-ruleset", 200);
    return {
      status: 200,
      body: {
        ...t,
        id: set.id,
        name: set.name,
        source: ctx.repo.fullName,
        conditions: { ref_name: { include: set.branches.map((b) => `refs/heads/${b}`), exclude: [] } },
        rules: set.rules,
        // Only administrators see the bypass list; every caller sees its own bypass.
        bypass_actors: undefined,
        current_user_can_bypass: set.appBypass,
      },
    };
  },
};
