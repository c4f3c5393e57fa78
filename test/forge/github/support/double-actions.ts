/**
 * GitHub Actions in the test double: the jobs of a repository's workflows, started by the events
 * their `on:` names, reporting a check run by the `github-actions` app, as GitHub documents
 * (https://docs.github.com/en/actions/writing-workflows/choosing-when-your-workflow-runs/events-that-trigger-workflows):
 * - `push`: a branch created or moved, filtered by `branches` globs; the run is on the pushed tip;
 * - `pull_request`: activity types `opened`, `synchronize`, `reopened` by default (`types` to
 *   choose, e.g. `ready_for_review`), filtered by the base branch; the run checks the merge of the
 *   head into the base (GitHub's `refs/pull/N/merge`) and reports on the head commit; "workflows
 *   will not run on pull_request activity if the pull request has a merge conflict"; a job with
 *   `if: github.event.pull_request.draft == false` skips drafts;
 * - skipped runs: "workflows that would otherwise be triggered using `on: push` or
 *   `on: pull_request` won't be triggered if you add any of the following strings to the commit
 *   message in a push, or the HEAD commit of a pull request: [skip ci], [ci skip], [no ci],
 *   [skip actions], [actions skip]", or a `skip-checks: true` trailer
 *   (https://docs.github.com/en/actions/managing-workflow-runs-and-deployments/managing-workflow-runs/skipping-workflow-runs).
 * A job fails when the tree it checks holds a given path (the test's culprit), else succeeds. The
 * double's state is compared with what was last seen after each request ({@link DoubleActions.observe});
 * a run starts at once (check run `in_progress`) and concludes `delayMs` later, each change
 * reported as webhook events by the double (`github-actions[bot]` as sender). Each job runs in a
 * workflow run of its own (its `workflow`'s name), with a log, which the re-run operations start
 * again as the run's next attempt (double-workflow-runs.ts).
 */
import { mergeCommits, readCommit, runGit } from "../../../../services/forge/local/git/index.js";
import type { DoubleRepo } from "./double-state.js";
import { latest, type DoubleRerunner, type DoubleRunJob, type DoubleWorkflowRun } from "./double-workflow-runs.js";
import type { GithubDouble } from "./github-double.js";

/** One job of a workflow. */
export interface WorkflowJob {
  /** Its check run's name. */
  name: string;
  on: { push?: { branches?: string[] }; pull_request?: { types?: string[]; branches?: string[] } };
  /** `if: github.event.pull_request.draft == false`. */
  skipDrafts?: boolean;
  /** The job fails on a tree holding this path. */
  failsWith: string;
  /** Its workflow's name (default "CI"). */
  workflow?: string;
  /** The last lines of its log when it fails (default: a line naming `failsWith`). */
  failureLog?: string;
}

/** A run that started (or was skipped), for a test to read. */
export interface WorkflowRun {
  job: string;
  event: "push" | "pull_request";
  /** The push's branch, or the pull request's number. */
  ref: string;
  sha: string;
  /** null until it concludes; "skipped" for a run a skip marker or a draft prevented. */
  conclusion: "success" | "failure" | "skipped" | null;
}

const ACTIONS_APP = { id: 15368, slug: "github-actions" };
const SENDER = { login: "github-actions[bot]", id: 41898282 };
const SKIP = [
  /\[skip ci\]/,
  /\[ci skip\]/,
  /\[no ci\]/,
  /\[skip actions\]/,
  /\[actions skip\]/,
  /^skip-checks: ?true$/im,
];
const DEFAULT_TYPES = ["opened", "synchronize", "reopened"];

interface Seen {
  refs: Map<string, string>;
  pulls: Map<number, { head: string; draft: boolean; open: boolean }>;
}

/** A branch glob of `on.*.branches` (`*` within a segment, `**` across). */
function globMatch(glob: string, branch: string): boolean {
  const re = glob
    .split("**")
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, "[^/]*"))
    .join(".*");
  return new RegExp(`^${re}$`).test(branch);
}

/** Every branch and pull request head ref (`refs/pull/N/head`), by full name: one git process. */
async function refsOf(repo: DoubleRepo): Promise<Map<string, string>> {
  const out = await runGit(repo.git.gitDir, [
    "for-each-ref",
    "--format=%(objectname) %(refname)",
    "refs/heads/",
    "refs/pull/",
  ]);
  const refs = new Map<string, string>();
  for (const line of out.stdout.toString("utf8").split("\n"))
    if (line.length > 41) refs.set(line.slice(41), line.slice(0, 40));
  return refs;
}

async function paths(repo: DoubleRepo, tree: string): Promise<Set<string>> {
  const out = await runGit(repo.git.gitDir, ["ls-tree", "-r", "--name-only", tree]);
  return new Set(out.stdout.toString("utf8").split("\n").filter(Boolean));
}

/** The Actions of a double's repositories. */
export class DoubleActions implements DoubleRerunner {
  readonly runs: WorkflowRun[] = [];
  /** Called when a run changes the double's state (a check run created or concluded). */
  onChange: () => void = () => {};
  private readonly jobs = new Map<DoubleRepo, WorkflowJob[]>();
  private readonly seen = new Map<DoubleRepo, Seen>();
  private chain: Promise<void> = Promise.resolve();
  private running = new Set<Promise<void>>();
  /** What each workflow run checks: its job and the tree (null: its head commit's). */
  private readonly specs = new Map<number, { job: WorkflowJob; tree: string | null }>();

  constructor(
    private readonly double: GithubDouble,
    private readonly delayMs = 20,
  ) {
    double.rerunner = this;
  }

  /** Gives `repo` its workflows' jobs; what it holds now is taken as seen. */
  async use(repo: DoubleRepo, jobs: WorkflowJob[]): Promise<void> {
    this.jobs.set(repo, jobs);
    this.seen.set(repo, await this.snapshot(repo));
  }

  /** Starts the runs the changes of `repo` since the last call trigger. */
  observe(repo: DoubleRepo): Promise<void> {
    if (!this.jobs.has(repo)) return Promise.resolve();
    this.chain = this.chain.then(() => this.diff(repo)).catch(() => {});
    return this.chain;
  }

  /** Resolves once every run started so far concluded. */
  async idle(): Promise<void> {
    await this.chain;
    while (this.running.size > 0) await Promise.all(this.running);
  }

  private async snapshot(repo: DoubleRepo): Promise<Seen> {
    const all = await refsOf(repo);
    const refs = new Map<string, string>();
    for (const [name, sha] of all) if (name.startsWith("refs/heads/")) refs.set(name.slice("refs/heads/".length), sha);
    const pulls = new Map<number, { head: string; draft: boolean; open: boolean }>();
    for (const p of repo.pulls.values()) {
      // The head is its branch's tip (same repository, branch present), else refs/pull/N/head (DoubleRepo.headSha).
      const head = (p.fork ? undefined : refs.get(p.headRef)) ?? all.get(`refs/pull/${p.number}/head`);
      if (head) pulls.set(p.number, { head, draft: p.draft, open: p.state === "open" });
    }
    return { refs, pulls };
  }

  private async diff(repo: DoubleRepo): Promise<void> {
    const before = this.seen.get(repo)!;
    const now = await this.snapshot(repo);
    this.seen.set(repo, now);
    const jobs = this.jobs.get(repo)!;
    for (const [branch, sha] of now.refs) {
      if (before.refs.get(branch) === sha) continue;
      for (const job of jobs) {
        const on = job.on.push;
        if (on && (on.branches ?? ["**"]).some((g) => globMatch(g, branch)))
          await this.start(repo, job, { event: "push", ref: branch, sha, tree: null, branch });
      }
    }
    for (const p of repo.pulls.values()) {
      const was = before.pulls.get(p.number);
      const is = now.pulls.get(p.number);
      if (!is?.open) continue;
      const action = !was
        ? "opened"
        : !was.open
          ? "reopened"
          : was.head !== is.head
            ? "synchronize"
            : was.draft && !is.draft
              ? "ready_for_review"
              : null;
      if (action === null) continue;
      for (const job of jobs) {
        const on = job.on.pull_request;
        if (!on || !(on.types ?? DEFAULT_TYPES).includes(action)) continue;
        if (!(on.branches ?? ["**"]).some((g) => globMatch(g, p.base))) continue;
        const base = now.refs.get(p.base)!;
        const merge = await mergeCommits(repo.git, base, is.head);
        if (!merge.clean) continue; // no run for a pull request with a merge conflict
        const skipped = job.skipDrafts === true && is.draft;
        await this.start(
          repo,
          job,
          { event: "pull_request", ref: String(p.number), sha: is.head, tree: merge.tree, branch: p.headRef },
          skipped,
        );
      }
    }
  }

  private async start(
    repo: DoubleRepo,
    job: WorkflowJob,
    on: { event: "push" | "pull_request"; ref: string; sha: string; tree: string | null; branch: string },
    skipDraft = false,
  ): Promise<void> {
    const head = await readCommit(repo.git, on.sha);
    const message = head.message;
    const record: WorkflowRun = { job: job.name, event: on.event, ref: on.ref, sha: on.sha, conclusion: null };
    this.runs.push(record);
    if (skipDraft || SKIP.some((re) => re.test(message))) {
      record.conclusion = "skipped";
      return;
    }
    const run: DoubleWorkflowRun = {
      id: this.double.id(),
      name: job.workflow ?? "CI",
      headSha: on.sha,
      headBranch: on.branch,
      event: on.event,
      attempts: [[]],
    };
    this.specs.set(run.id, { job, tree: on.tree });
    repo.workflowRuns.push(run);
    await this.launch(repo, run, this.entry(run), record);
  }

  /** Starts the next attempt of `run`: the jobs `which` picks run again, the others keep their result. */
  async rerun(repo: DoubleRepo, run: DoubleWorkflowRun, which: (job: DoubleRunJob) => boolean): Promise<void> {
    const previous = latest(run);
    const again = previous.filter(which);
    run.attempts.push(previous.filter((j) => !which(j)).map((j) => ({ ...j })));
    for (const j of again) {
      const record: WorkflowRun = {
        job: j.name,
        event: run.event as "push",
        ref: run.headBranch,
        sha: run.headSha,
        conclusion: null,
      };
      this.runs.push(record);
      // Not awaited: the re-run is asked by a request that a webhook delivery may be waiting on,
      // and launching waits for the deliveries it causes.
      const started = this.launch(repo, run, this.entry(run, j.name), record);
      this.running.add(started);
      void started.finally(() => this.running.delete(started));
    }
  }

  /** A new job of `run`'s latest attempt, in progress (its id is its check run's). */
  private entry(run: DoubleWorkflowRun, name = this.specs.get(run.id)!.job.name): DoubleRunJob {
    const job: DoubleRunJob = {
      id: this.double.id(),
      name,
      status: "in_progress",
      conclusion: null,
      startedAt: this.double.now(),
      completedAt: null,
      log: "",
    };
    latest(run).push(job);
    return job;
  }

  private async launch(repo: DoubleRepo, run: DoubleWorkflowRun, entry: DoubleRunJob, record: WorkflowRun) {
    const { job, tree } = this.specs.get(run.id)!;
    const check = {
      id: entry.id,
      name: job.name,
      headSha: run.headSha,
      status: "in_progress",
      conclusion: null as string | null,
      title: null,
      summary: null,
      appId: ACTIONS_APP.id,
      appSlug: ACTIONS_APP.slug,
      detailsUrl: null,
      startedAt: this.double.now(),
      completedAt: null as Date | null,
    };
    repo.checkRuns.push(check);
    this.onChange();
    await this.double.changed(repo, SENDER);
    const done = (async () => {
      await new Promise((resolve) => setTimeout(resolve, this.delayMs));
      const checked = tree ?? (await readCommit(repo.git, run.headSha)).tree;
      const fails = (await paths(repo, checked)).has(job.failsWith);
      record.conclusion = fails ? "failure" : "success";
      const completedAt = this.double.now();
      const log = fails ? (job.failureLog ?? `Error: the tree holds ${job.failsWith}`) : "All checks passed.";
      Object.assign(entry, {
        status: "completed",
        conclusion: record.conclusion,
        completedAt,
        log: `${run.name} / ${job.name}\n${log}\n`,
      });
      Object.assign(check, { status: "completed", conclusion: record.conclusion, completedAt });
      this.onChange();
      await this.double.changed(repo, SENDER);
    })();
    this.running.add(done);
    void done.finally(() => this.running.delete(done));
  }
}
