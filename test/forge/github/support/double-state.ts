/**
 * What the GitHub test double holds: repositories backed by real bare git repositories (the local
 * forge's git layer does the commits, merges and ancestry, so SHAs, merges and conflicts are real
 * git), and the platform data git does not hold (pull requests, check runs, statuses, reviews,
 * labels, comments, collaborators), set by the tests through named builders.
 */
import type { DoubleWorkflowRun } from "./double-workflow-runs.js";
import path from "node:path";
import {
  commitToBranch,
  createRepository,
  findBranchSha,
  readRef,
  compareAndSwapRef,
  type BareRepo,
  type GitIdentity,
} from "../../../../services/forge/local/git/index.js";

export interface DoubleLabel {
  id: number;
  name: string;
  color: string;
  default: boolean;
}

export interface DoublePull {
  number: number;
  title: string;
  body: string;
  state: "open" | "closed";
  locked: boolean;
  draft: boolean;
  author: { login: string; id: number };
  base: string;
  headRef: string;
  /** Full name of the fork holding the head; null for a branch of the repository itself. */
  fork: string | null;
  headRepoDeleted: boolean;
  labels: DoubleLabel[];
  assignees: string[];
  requestedReviewers: string[];
  requestedTeams: string[];
  milestone: string | null;
  mergeable: boolean | null;
  mergeableState: string;
  mergedAt: Date | null;
  mergedBy: string | null;
  mergeCommitSha: string | null;
  createdAt: Date;
  updatedAt: Date;
  closedAt: Date | null;
}

export interface DoubleCheckRun {
  id: number;
  name: string;
  headSha: string;
  status: string;
  conclusion: string | null;
  title: string | null;
  summary: string | null;
  appId: number;
  appSlug: string;
  detailsUrl: string | null;
  startedAt: Date | null;
  completedAt: Date | null;
}

export interface DoubleStatus {
  id: number;
  sha: string;
  context: string;
  state: "success" | "failure" | "error" | "pending";
  description: string | null;
  targetUrl: string | null;
  at: Date;
}

/** A deployment and its statuses, newest last. */
export interface DoubleDeployment {
  id: number;
  sha: string;
  environment: string;
  creator: string;
  description: string | null;
  statuses: { id: number; state: string; description: string }[];
}

export interface DoubleReview {
  id: number;
  user: string;
  state: "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED" | "DISMISSED" | "PENDING";
  submittedAt: Date | null;
}

export class DoubleRepo {
  readonly owner: string;
  readonly name: string;
  readonly pulls = new Map<number, DoublePull>();
  readonly checkRuns: DoubleCheckRun[] = [];
  readonly statuses: DoubleStatus[] = [];
  readonly deployments: DoubleDeployment[] = [];
  readonly reviews = new Map<number, DoubleReview[]>();
  /** GitHub Actions workflow runs (double-workflow-runs.ts). */
  readonly workflowRuns: DoubleWorkflowRun[] = [];
  /** Workflow dispatches received (actions/create-workflow-dispatch). */
  readonly dispatches: { workflow: string; ref: string; inputs: Record<string, string> }[] = [];
  readonly threads = new Map<number, { isResolved: boolean; body: string }[]>();
  readonly comments: { id: number; number: number; body: string; author: string }[] = [];
  readonly collaborators = new Map<string, { role_name: string; permission: string }>();
  /** Classic branch protection by branch; "forbidden" when the App may not read it (no Administration permission). */
  readonly protection = new Map<
    string,
    { contexts: string[]; checks: string[]; approvals: number | null; conversation: boolean } | "forbidden"
  >();
  /** Ruleset rules that apply to a branch (GitHub's rule items). */
  readonly rules = new Map<string, { type: string; parameters?: Record<string, unknown> }[]>();
  /** Whether draft pull requests are offered (false: 422 like a private repository on a free plan). */
  allowDrafts = true;
  private nextNumber = 1;

  constructor(
    readonly fullName: string,
    readonly id: number,
    readonly installationId: number,
    readonly defaultBranch: string,
    readonly git: BareRepo,
    private readonly now: () => Date,
  ) {
    [this.owner, this.name] = fullName.split("/");
  }

  /** Creates the repository with a first commit holding `files` on the default branch. */
  static async create(
    dir: string,
    fullName: string,
    ids: { id: number; installationId: number },
    defaultBranch: string,
    files: Record<string, string>,
    now: () => Date,
  ): Promise<DoubleRepo> {
    const git = await createRepository({
      gitDir: path.join(dir, `${fullName.replace("/", "__")}.git`),
      name: fullName,
      defaultBranch,
    });
    const repo = new DoubleRepo(fullName, ids.id, ids.installationId, defaultBranch, git, now);
    await commitToBranch(git, {
      branch: defaultBranch,
      create: true,
      changes: { "README.md": `# ${fullName}\n`, ...files },
      message: "Initial commit",
      date: now(),
    });
    return repo;
  }

  /** Commits `files` (null deletes) on `branch`, creating it from `from` when it does not exist. */
  async commit(
    branch: string,
    files: Record<string, string | null>,
    message: string,
    opts: { from?: string; author?: GitIdentity } = {},
  ): Promise<string> {
    if ((await findBranchSha(this.git, branch)) === null) {
      const start = await findBranchSha(this.git, opts.from ?? this.defaultBranch);
      if (start === null) throw new Error(`no branch ${opts.from ?? this.defaultBranch}`);
      await compareAndSwapRef(this.git, `refs/heads/${branch}`, null, start);
    }
    return commitToBranch(this.git, {
      branch,
      changes: files,
      message,
      date: this.now(),
      ...(opts.author ? { author: opts.author } : {}),
    });
  }

  /** Opens a pull request from `head` (a branch here, or in `fork`: then its tip is kept in refs/pull/N/head). */
  async openPull(input: Partial<DoublePull> & { head: string; base?: string; title?: string }): Promise<DoublePull> {
    const number = this.nextNumber++;
    const at = this.now();
    const pull: DoublePull = {
      number,
      title: input.title ?? `Pull request ${number}`,
      body: input.body ?? "",
      state: "open",
      locked: false,
      draft: false,
      author: { login: "octocat", id: 583231 },
      base: input.base ?? this.defaultBranch,
      headRef: input.head,
      fork: null,
      headRepoDeleted: false,
      labels: [],
      assignees: [],
      requestedReviewers: [],
      requestedTeams: [],
      milestone: null,
      mergeable: true,
      mergeableState: "clean",
      mergedAt: null,
      mergedBy: null,
      mergeCommitSha: null,
      createdAt: at,
      updatedAt: at,
      closedAt: null,
      ...input,
    };
    const tip = await findBranchSha(this.git, input.head);
    if (tip === null) throw new Error(`no branch ${input.head}`);
    await compareAndSwapRef(this.git, `refs/pull/${number}/head`, null, tip);
    this.pulls.set(number, pull);
    return pull;
  }

  /** The head SHA of a pull request: its branch's tip (same repository, branch present), else refs/pull/N/head. */
  async headSha(pull: DoublePull): Promise<string> {
    const branch = pull.fork ? null : await findBranchSha(this.git, pull.headRef);
    const sha = branch ?? (await readRef(this.git, `refs/pull/${pull.number}/head`));
    if (!sha) throw new Error(`pull request #${pull.number} has no head`);
    return sha;
  }

  /** A pull request or an error the handlers turn into 404. */
  pull(number: number): DoublePull | undefined {
    return this.pulls.get(number);
  }
}
