/**
 * The local forge (`FORGE=local`, the default; docs/local-forge.md): real bare git repositories
 * under the data directory, pull requests, reviews, labels, comments and check runs in PostgreSQL,
 * a durable local CI. `createLocalForge` gives the {@link ForgePort} the queue uses (acting as the
 * bot user) plus the actions people take through ForgeService and the CLI (acting as local users,
 * created on first use). Every action emits the ForgeEvents a GitHub webhook would map to.
 */
import type { Logger } from "pino";
import type pg from "pg";
import type { CheckState, ForgeEventSink, ForgePort, RepoName, Sha } from "../types.js";
import { getBranchSha, treeOf } from "./git/index.js";
import { CiSlots } from "./ci/index.js";
import { createCore, gitOf, readRepository, type ForgeCore } from "./core.js";
import { CiWorker, type CiWorkerOptions } from "./ci-worker.js";
import { runChecksAt } from "./check-actions.js";
import { readCheckRun, writeCheckRun } from "./check-runs.js";
import type { localForgeStore } from "../../store/index.js";
import { LocalForgeError, withField } from "./errors.js";
import { createLocalForgePort } from "./port.js";
import { commentPull, labelPull, openPull, reviewPull, type REVIEW_EVENTS } from "./pull-actions.js";
import { describePullRequest, listPullRequestViews, type PullRequestView } from "./pull-views.js";
import {
  addRepository,
  deleteBranchAs,
  pushBranch,
  type AddRepositoryInput,
  type PushInput,
} from "./repository-actions.js";
import { recoverAtStartUp } from "./start-up.js";
import { inRepository } from "./write-context.js";

/** Default number of CI slots (checks running at once) when none is given. */
export const DEFAULT_CI_SLOTS = 2;

/** What the local forge needs. */
export interface LocalForgeDeps {
  db: pg.Pool;
  /** The data directory; repositories live in `<dataDir>/repos/<owner>/<name>.git`. */
  dataDir: string;
  logger: Logger;
  /**
   * Receives every ForgeEvent after the change committed, with its idempotency key (the queue
   * runner; a recorder in tests). Absent: events wait (stored) until {@link LocalForge.attachEventSink}.
   */
  sink?: ForgeEventSink;
  /** Clock (UTC) for rows, commit dates, CI times and leases; default the system clock. */
  now?: () => Date;
  /** Login of Yardmaster itself (default "yardmaster[bot]"). */
  botLogin?: string;
  /** Prefix of pull request addresses (default "local-forge://"). */
  webBaseUrl?: string;
  /** The CI worker: slots (a number or a shared CiSlots; default 2), `start` (default true) and timings. */
  ci?: Omit<CiWorkerOptions, "slots"> & { slots?: number | CiSlots; start?: boolean };
}

/** A login of a person as the CLI gives it: GitHub's rules (1-39 letters, digits or single hyphens). */
const LOGIN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

/** @throws LocalForgeError invalid naming `field` when `login` is not one */
function checkLogin(login: string, field: string): string {
  if (!LOGIN.test(login))
    throw new LocalForgeError("invalid", `"${login}" is not a login (1-39 letters, digits or single hyphens)`, {
      field,
    });
  return login;
}

/** The local forge: the port, people's actions, its CI worker. */
export interface LocalForge extends ForgePort {
  /** Creates or imports a repository (ForgeService.CreateRepository). */
  addRepository(input: AddRepositoryInput): Promise<{ defaultBranch: string; headSha: Sha }>;
  /** Pushes a commit of a local git repository to a branch (ForgeService.PushBranch). */
  pushBranch(input: PushInput): Promise<{ before: Sha | null; after: Sha }>;
  /** Opens a pull request as a person (ForgeService.OpenPullRequest). @returns its number */
  openPullRequest(
    repo: RepoName,
    input: { head: string; base: string; title: string; body: string; author: string; draft: boolean },
  ): Promise<number>;
  /** Comments as a person. @returns the comment id */
  commentAs(repo: RepoName, number: number, body: string, author: string): Promise<number>;
  /** Reviews as a person. */
  review(
    repo: RepoName,
    number: number,
    input: { event: keyof typeof REVIEW_EVENTS; body: string; author: string },
  ): Promise<void>;
  /**
   * Edits a pull request's title, body and/or base branch (retargeting it, as on GitHub); an
   * absent field keeps its value. Emits one `pull_request_edited` when something changed, nothing
   * otherwise; starts no CI. Reads (`getPullRequest`, `describePullRequest`) then diff against the
   * new base's tip (`base`, `baseSha`, `commitsBehind`, `conflict`).
   * @throws ForgeError not_found for an unknown repository or pull request; LocalForgeError with
   *   - invalid (field title) for a blank title;
   *   - invalid (field base) for a bad branch name or a base equal to the head branch;
   *   - not_found (field base) for a base branch that does not exist;
   *   - invalid (rpc failed_precondition) for a new base on a closed or merged pull request, and
   *     (field base) when the new base already contains every commit of the head;
   *   - invalid (rpc already_exists, field base) when another open pull request goes from the
   *     same head into that base.
   */
  editPullRequest(
    repo: RepoName,
    number: number,
    input: { title?: string; body?: string; base?: string },
  ): Promise<void>;
  /**
   * Deletes a branch as a person (ForgeService.DeleteBranch): `branch_pushed` with after null, and
   * the open pull requests it heads or is the base of are closed. Unlike the port's idempotent
   * `deleteBranch`, a branch that does not exist is an error.
   * @returns the tip it had
   * @throws LocalForgeError not_found (field branch) when it does not exist; invalid (field
   *   branch) for a bad name, and with rpc failed_precondition for the default branch
   */
  deleteBranchAs(repo: RepoName, branch: string, pusher: string): Promise<Sha>;
  /** Adds and removes labels. @returns the labels now on the pull request */
  label(repo: RepoName, number: number, add: readonly string[], remove: readonly string[]): Promise<string[]>;
  describePullRequest(repo: RepoName, number: number): Promise<PullRequestView>;
  listPullRequests(repo: RepoName, state: "open" | "closed" | "merged" | null): Promise<PullRequestView[]>;
  /** Runs the local CI at a branch, SHA or `#n` (ForgeService.RunChecks). */
  runChecks(repo: RepoName, ref: string): Promise<{ sha: Sha; checks: string[] }>;
  /** Records a check run from an external CI (ForgeService.PostCheckRun). */
  postCheckRun(
    repo: RepoName,
    input: { sha: Sha; name: string; state: CheckState; description: string; detailsUrl: string | null; app: string },
  ): Promise<void>;
  /**
   * A check run with its whole stored output (ForgeService.GetCheckRunLog).
   * @throws ForgeError not_found for an unknown repository or check run
   */
  readCheckRun(repo: RepoName, id: number): Promise<localForgeStore.CheckRunRow>;
  /** A branch's tip and its tree (ForgeService.GetBranch). */
  getBranch(repo: RepoName, branch: string): Promise<{ sha: Sha; treeSha: Sha }>;
  /** The CI worker (started unless `ci.start` was false). */
  readonly ci: CiWorker;
  /**
   * Settles once the start-up recovery ran: refs of writes that did not commit moved back, events
   * left undelivered loaded (docs/local-forge.md "Writes and events"). Writes wait for it; a
   * server awaits it before it listens. Rejects with ForgeError transient when recovery failed.
   */
  readonly ready: Promise<void>;
  /** Sets where events go (the queue, once it exists) and delivers those waiting. */
  attachEventSink(sink: ForgeEventSink): Promise<void>;
  /** Stops the CI worker cleanly (running jobs go back to the queue), the event retries and the ref journal's pool. */
  close(): Promise<void>;
}

/**
 * Creates the local forge and, unless `ci.start` is false, starts its CI worker.
 * @throws RangeError for a CI slot count that is not a positive whole number
 */
export function createLocalForge(deps: LocalForgeDeps): LocalForge {
  const core: ForgeCore = createCore({ ...deps, sink: deps.sink ?? null });
  core.ready = recoverAtStartUp(core);
  // Awaited by every write and by the server; a failure reaches them, not the unhandled-rejection hook.
  core.ready.catch(() => {});
  const { slots, start, ...workerOptions } = deps.ci ?? {};
  const ciSlots = slots instanceof CiSlots ? slots : new CiSlots(slots ?? DEFAULT_CI_SLOTS);
  const ci = new CiWorker(core, { ...workerOptions, slots: ciSlots });
  const port = createLocalForgePort(core, ci);
  const write = inRepository;

  const forge: LocalForge = {
    ...port,
    addRepository: (input) => addRepository(core, input),
    pushBranch: async (input) => pushBranch(core, ci, { ...input, pusher: checkLogin(input.pusher, "pusher") }),
    openPullRequest: async (repo, input) => {
      const author = checkLogin(input.author, "author");
      return write(core, repo, { what: `opening a pull request from ${input.head}` }, async (ctx) =>
        openPull(ctx, ci, { ...input, author: await ctx.user(author) }),
      );
    },
    commentAs: async (repo, number, body, author) => {
      checkLogin(author, "author");
      return write(core, repo, { what: `commenting on #${number}` }, async (ctx) =>
        commentPull(ctx, number, body, await ctx.user(author)),
      );
    },
    review: async (repo, number, input) => {
      checkLogin(input.author, "author");
      return write(core, repo, { what: `reviewing #${number}` }, async (ctx) =>
        reviewPull(ctx, number, { ...input, author: await ctx.user(input.author) }),
      );
    },
    deleteBranchAs: async (repo, branch, pusher) =>
      deleteBranchAs(core, ci, { repo, branch, pusher: checkLogin(pusher, "pusher") }),
    label: (repo, number, add, remove) =>
      write(core, repo, { what: `labelling #${number}` }, (ctx) => labelPull(ctx, number, add, remove)),
    describePullRequest: (repo, number) => describePullRequest(core, repo, number),
    listPullRequests: (repo, state) => listPullRequestViews(core, repo, state),
    runChecks: (repo, ref) => runChecksAt(core, ci, repo, ref),
    postCheckRun: (repo, input) => writeCheckRun(core, repo, { ...input, output: "" }),
    readCheckRun: (repo, id) => readCheckRun(core, repo, id),
    getBranch: async (repo, branch) => {
      const git = gitOf(await readRepository(core, repo));
      const sha = await withField("branch", () => getBranchSha(git, branch));
      return { sha, treeSha: await treeOf(git, sha) };
    },
    ci,
    ready: core.ready,
    attachEventSink: (sink) => core.events.attach(sink),
    close: async () => {
      await ci.stop();
      await core.events.close();
      if (!core.journalDb.ended) await core.journalDb.end();
    },
  };
  if (start !== false) ci.start();
  return forge;
}
