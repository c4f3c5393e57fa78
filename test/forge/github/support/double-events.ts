/**
 * The webhook events of the GitHub test double: after each request that may change a repository
 * (and when a test changes one directly and says so), the repository's state is compared with what
 * the double last saw and each difference becomes the event GitHub sends for it
 * (https://docs.github.com/en/webhooks/webhook-events-and-payloads):
 *
 * | change | event (action) |
 * | --- | --- |
 * | a branch created, moved or deleted | `push` (`created`, `deleted`, `forced` when the old tip is not an ancestor) |
 * | a pull request opened / closed (merged or not) / reopened | `pull_request` opened / closed / reopened |
 * | its head moved while open | `pull_request` synchronize |
 * | a label added / removed | `pull_request` labeled / unlabeled (one per label) |
 * | title, body or base changed; draft state; lock | `pull_request` edited / converted_to_draft, ready_for_review / locked, unlocked |
 * | assignees, requested reviewers | `pull_request` assigned, unassigned / review_requested, review_request_removed |
 * | a check run created / completed | `check_run` created / completed |
 * | a workflow run's attempt completed | `workflow_run` completed (after its jobs' `check_run`s) |
 * | a commit status | `status` |
 * | a comment on a pull request | `issue_comment` created |
 * | a review submitted | `pull_request_review` submitted |
 *
 * Each change an event reports moves the pull request's `updated_at` to the double's time, as on
 * GitHub. Payloads carry the fields GitHub documents that identify the change (the repository, the
 * installation, the sender, the object changed); the adapter's mapping of full payloads is tested
 * on `@octokit/webhooks-examples` (webhook-events.test.ts). Events go to the App's webhook
 * (double-webhooks.ts) only while it has a target.
 */
import { isAncestor } from "../../../../services/forge/local/git/index.js";
import { pushedCommits } from "./double-push-commits.js";
import { headIn, readRefs } from "./double-refs.js";
import type { DoublePull, DoubleRepo } from "./double-state.js";
import type { DoubleWebhooks } from "./double-webhooks.js";
import { runCompleted, workflowRunJson } from "./double-workflow-runs.js";

/** What the observer compares: a repository's state reduced to what events report. */
interface Seen {
  refs: Map<string, string>;
  pulls: Map<number, PullSeen>;
  runs: Map<number, { status: string; conclusion: string | null }>;
  /** Workflow runs: attempt and whether it completed. */
  workflows: Map<number, string>;
  statuses: number;
  comments: number;
  reviews: Map<number, number>;
}

interface PullSeen {
  state: "open" | "closed";
  merged: boolean;
  head: string | null;
  base: string;
  title: string;
  body: string;
  draft: boolean;
  locked: boolean;
  labels: string[];
  assignees: string[];
  reviewers: string[];
}

const ZERO = "0".repeat(40);

async function seenOf(repo: DoubleRepo): Promise<Seen> {
  const refs = await readRefs(repo);
  const pulls = new Map<number, PullSeen>();
  for (const p of repo.pulls.values()) {
    pulls.set(p.number, {
      state: p.state,
      merged: p.mergedAt !== null,
      head: headIn(refs, p),
      base: p.base,
      title: p.title,
      body: p.body,
      draft: p.draft,
      locked: p.locked,
      labels: p.labels.map((l) => l.name),
      assignees: [...p.assignees],
      reviewers: [...p.requestedReviewers, ...p.requestedTeams],
    });
  }
  return {
    refs,
    pulls,
    runs: new Map(repo.checkRuns.map((r) => [r.id, { status: r.status, conclusion: r.conclusion }])),
    workflows: new Map(repo.workflowRuns.map((w) => [w.id, `${w.attempts.length}:${runCompleted(w)}`])),
    statuses: repo.statuses.length,
    comments: repo.comments.length,
    reviews: new Map([...repo.reviews].map(([n, list]) => [n, list.length])),
  };
}

const added = (before: string[], after: string[]) => after.filter((x) => !before.includes(x));

/** Turns a repository's changes into webhook events (see the file header). */
export class DoubleEvents {
  private readonly seen = new Map<DoubleRepo, Seen>();
  private readonly chains = new Map<DoubleRepo, Promise<void>>();

  constructor(
    private readonly webhooks: DoubleWebhooks,
    private readonly bot: () => { login: string; id: number },
    private readonly now: () => Date,
  ) {}

  /** Takes `repo`'s state as already reported (when deliveries start: what exists then sends nothing). */
  async baseline(repo: DoubleRepo): Promise<void> {
    this.seen.set(repo, await seenOf(repo));
  }

  /**
   * Compares `repo` with what was last seen and emits an event for each change, as done by
   * `sender` (default: the App's bot, for changes made through the API). Calls on one repository
   * run one after the other.
   */
  observe(repo: DoubleRepo, sender?: { login: string; id: number }): Promise<void> {
    if (!this.webhooks.enabled) return Promise.resolve();
    const run = (this.chains.get(repo) ?? Promise.resolve()).then(() => this.diff(repo, sender ?? this.bot()));
    this.chains.set(
      repo,
      run.catch(() => {}),
    );
    return run;
  }

  private async diff(repo: DoubleRepo, sender: { login: string; id: number }): Promise<void> {
    const before = this.seen.get(repo) ?? {
      refs: new Map(),
      pulls: new Map(),
      runs: new Map(),
      workflows: new Map(),
      statuses: 0,
      comments: 0,
      reviews: new Map(),
    };
    const now = await seenOf(repo);
    this.seen.set(repo, now);
    const common = {
      repository: {
        id: repo.id,
        name: repo.name,
        full_name: repo.fullName,
        owner: { login: repo.owner },
        private: false,
        default_branch: repo.defaultBranch,
      },
      installation: { id: repo.installationId, node_id: `I_${repo.installationId}` },
      sender: { login: sender.login, id: sender.id, type: sender.login.endsWith("[bot]") ? "Bot" : "User" },
    };
    const emit = (event: string, payload: Record<string, unknown>) =>
      this.webhooks.emit(event, { ...payload, ...common });

    for (const name of new Set([...before.refs.keys(), ...now.refs.keys()])) {
      if (!name.startsWith("refs/heads/")) continue;
      const was = before.refs.get(name) ?? null;
      const is = now.refs.get(name) ?? null;
      if (was === is) continue;
      const forced = was !== null && is !== null && !(await isAncestor(repo.git, was, is));
      emit("push", {
        ref: name,
        before: was ?? ZERO,
        after: is ?? ZERO,
        created: was === null,
        deleted: is === null,
        forced,
        base_ref: null,
        compare: `https://github.com/${repo.fullName}/compare/${(was ?? ZERO).slice(0, 12)}...${(is ?? ZERO).slice(0, 12)}`,
        commits: await pushedCommits(repo.git, was, is),
        head_commit: is === null ? null : { id: is },
        pusher: { name: sender.login },
      });
    }

    // GitHub's `updated_at` of a pull request moves with each change its events report.
    const touched = new Set<number>();
    for (const p of repo.pulls.values()) {
      const was = before.pulls.get(p.number);
      const is = now.pulls.get(p.number);
      // A pull request created while this diff awaited git is reported by the next diff.
      if (!is) continue;
      const pr = (action: string, extra: Record<string, unknown> = {}) => {
        if (was) touched.add(p.number);
        emit("pull_request", { action, number: p.number, pull_request: pullPayload(repo, p, is), ...extra });
      };
      if (!was) {
        pr(is.state === "open" ? "opened" : "closed");
        continue;
      }
      if (was.head !== is.head && is.state === "open" && is.head !== null)
        pr("synchronize", { before: was.head, after: is.head });
      for (const l of added(was.labels, is.labels)) pr("labeled", { label: { name: l } });
      for (const l of added(is.labels, was.labels)) pr("unlabeled", { label: { name: l } });
      if (was.title !== is.title || was.body !== is.body || was.base !== is.base) pr("edited", { changes: {} });
      if (was.draft !== is.draft) pr(is.draft ? "converted_to_draft" : "ready_for_review");
      if (was.locked !== is.locked) pr(is.locked ? "locked" : "unlocked");
      for (const a of added(was.assignees, is.assignees)) pr("assigned", { assignee: { login: a } });
      for (const a of added(is.assignees, was.assignees)) pr("unassigned", { assignee: { login: a } });
      for (const r of added(was.reviewers, is.reviewers)) pr("review_requested", { requested_reviewer: { login: r } });
      for (const r of added(is.reviewers, was.reviewers))
        pr("review_request_removed", { requested_reviewer: { login: r } });
      if (was.state !== is.state) pr(is.state === "closed" ? "closed" : "reopened");
    }

    for (const r of repo.checkRuns) {
      const was = before.runs.get(r.id);
      const is = now.runs.get(r.id);
      if (!is) continue;
      const action = !was ? "created" : was.status !== "completed" && is.status === "completed" ? "completed" : null;
      if (action === null) continue;
      emit("check_run", {
        action,
        check_run: {
          id: r.id,
          name: r.name,
          head_sha: r.headSha,
          status: is.status,
          conclusion: is.conclusion,
          app: { id: r.appId, slug: r.appSlug },
          pull_requests: [],
        },
      });
    }
    for (const w of repo.workflowRuns) {
      const is = now.workflows.get(w.id);
      if (is === before.workflows.get(w.id) || !is?.endsWith(":true")) continue;
      emit("workflow_run", { action: "completed", workflow_run: workflowRunJson(repo, w), workflow: { name: w.name } });
    }
    for (const s of repo.statuses.slice(before.statuses, now.statuses)) {
      emit("status", {
        id: s.id,
        sha: s.sha,
        context: s.context,
        state: s.state,
        description: s.description,
        target_url: s.targetUrl,
      });
    }
    for (const c of repo.comments.slice(before.comments, now.comments)) {
      touched.add(c.number);
      emit("issue_comment", {
        action: "created",
        issue: {
          number: c.number,
          pull_request: { url: `https://api.github.com/repos/${repo.fullName}/pulls/${c.number}` },
        },
        comment: {
          id: c.id,
          body: c.body,
          html_url: `https://github.com/${repo.fullName}/pull/${c.number}#issuecomment-${c.id}`,
          user: { login: c.author, id: 1, type: c.author.endsWith("[bot]") ? "Bot" : "User", avatar_url: null },
        },
      });
    }
    for (const [number, list] of repo.reviews) {
      const pull = repo.pull(number);
      const seenPull = now.pulls.get(number);
      for (const review of list.slice(before.reviews.get(number) ?? 0, now.reviews.get(number) ?? 0)) {
        if (review.state === "PENDING") continue;
        touched.add(number);
        emit("pull_request_review", {
          action: "submitted",
          review: { id: review.id, state: review.state.toLowerCase(), user: { login: review.user } },
          pull_request: pull && seenPull ? pullPayload(repo, pull, seenPull) : { number },
        });
      }
    }
    const at = this.now();
    for (const number of touched) {
      const p = repo.pull(number);
      if (p && p.updatedAt.getTime() < at.getTime()) p.updatedAt = at;
    }
  }
}

/** The `pull_request` object of a payload: what identifies the pull request and its change. */
function pullPayload(repo: DoubleRepo, p: DoublePull, seen: PullSeen): Record<string, unknown> {
  return {
    number: p.number,
    state: p.state,
    merged: p.mergedAt !== null,
    merge_commit_sha: p.mergedAt !== null ? p.mergeCommitSha : null,
    draft: p.draft,
    title: p.title,
    html_url: `https://github.com/${repo.fullName}/pull/${p.number}`,
    user: { login: p.author.login, id: p.author.id },
    head: { ref: p.headRef, sha: seen.head ?? ZERO, repo: { full_name: p.fork ?? repo.fullName } },
    base: { ref: p.base, repo: { full_name: repo.fullName } },
    labels: p.labels.map((l) => ({ id: l.id, name: l.name })),
    updated_at: p.updatedAt.toISOString(),
  };
}
