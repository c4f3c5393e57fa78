/**
 * The ForgeService implementation (proto/yardmaster/v1/forge.proto) over the local forge: the
 * RPCs behind `yardmaster repo|pr|ci` and external CIs. Admin key only, as the proto says, but for
 * GetCheckRunLog (any caller reaching the repository: the dashboard's CI log page). Errors:
 * NOT_FOUND, ALREADY_EXISTS, FAILED_PRECONDITION, ABORTED (something moved meanwhile),
 * INVALID_ARGUMENT naming the field; docs/local-forge.md "CLI".
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ForgeService, LocalPullRequestSchema } from "../../../gen/yardmaster/v1/forge_pb.js";
import { DomainError, invalidField } from "../../contracts/index.js";
import { principalKey } from "../../auth/index.js";
import type { CheckState } from "../types.js";
import { OutputTail } from "./ci/index.js";
import { DEFAULT_USER_LOGIN } from "./core.js";
import type { LocalForge } from "./local-forge.js";
import type { PullRequestView } from "./pull-views.js";

/**
 * Runs a handler after the admin check. Its ForgeErrors (LocalForgeError with an RPC hint or a
 * field) are answered by the gateway with their kind (contracts/domain-error.ts).
 */
async function handle<T>(ctx: HandlerContext, fn: () => Promise<T>): Promise<T> {
  if (ctx.values.get(principalKey)?.kind !== "admin") {
    throw new DomainError("permission_denied", "the local forge's RPCs need the admin key");
  }
  return fn();
}

const repoOf = (req: { owner: string; repository: string }) => `${req.owner}/${req.repository}`;
const orNull = (text: string) => (text === "" ? null : text);

function numberOf(value: bigint): number {
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw invalidField("number", "is too large");
  return Number(value);
}

/** Bytes of a check run's output a pull request view carries (its end, where failures show). */
export const VIEW_OUTPUT_BYTES = 16 * 1024;

/** The last {@link VIEW_OUTPUT_BYTES} of an output, starting at a line, with a note of what was cut. */
export function outputTail(output: string): string {
  const tail = new OutputTail(VIEW_OUTPUT_BYTES);
  tail.push(output);
  if (tail.droppedBytes === 0) return output;
  const kept = tail.keptText();
  const shown = kept.slice(kept.indexOf("\n") + 1);
  return `[${Buffer.byteLength(output) - Buffer.byteLength(shown)} earlier bytes not shown]\n${shown}`;
}

/** The proto form of a pull request view. */
export function localPullRequestOf(view: PullRequestView): MessageInitShape<typeof LocalPullRequestSchema> {
  const { pull } = view;
  return {
    number: BigInt(pull.number),
    title: pull.title,
    body: pull.body,
    author: pull.author.login,
    head: pull.headBranch,
    base: pull.baseBranch,
    headSha: pull.headSha,
    state: pull.state,
    draft: pull.draft,
    labels: view.labels,
    assignees: view.assignees,
    requestedReviewers: view.requestedReviewers,
    checks: view.checks.map((c) => ({
      name: c.name,
      state: c.state,
      description: c.description,
      app: c.app,
      detailsUrl: c.detailsUrl ?? "",
      output: outputTail(c.output),
      startedAt: c.startedAt === null ? undefined : timestampFromDate(c.startedAt),
      completedAt: c.completedAt === null ? undefined : timestampFromDate(c.completedAt),
    })),
    reviews: view.reviews.map((r) => ({
      author: r.author,
      state: r.state,
      submittedAt: timestampFromDate(r.submittedAt),
    })),
    comments: view.comments.map((c) => ({
      id: BigInt(c.id),
      author: c.author,
      body: c.body,
      createdAt: timestampFromDate(c.createdAt),
    })),
    createdAt: timestampFromDate(pull.createdAt),
    mergedAt: pull.mergedAt === null ? undefined : timestampFromDate(pull.mergedAt),
    mergeCommitSha: pull.mergeCommitSha ?? undefined,
    conflict: view.conflict,
  };
}

const ts = (d: Date | null) => (d === null ? undefined : timestampFromDate(d));

/** Builds the ForgeService implementation over a local forge. */
export function createForgeService(forge: LocalForge): ServiceImpl<typeof ForgeService> {
  return {
    // Not admin-only: anyone who reaches the repository reads its CI's logs (the gateway checked that).
    async getCheckRunLog(req) {
      if (req.checkRunId > BigInt(Number.MAX_SAFE_INTEGER))
        throw new DomainError("not_found", `${repoOf(req)} has no check run ${req.checkRunId}`);
      const run = await forge.readCheckRun(repoOf(req), Number(req.checkRunId));
      return {
        id: BigInt(run.id),
        name: run.name,
        sha: run.sha,
        state: run.state,
        description: run.description,
        app: run.app,
        startedAt: ts(run.startedAt),
        completedAt: ts(run.completedAt),
        detailsUrl: run.detailsUrl ?? "",
        output: run.output,
      };
    },
    createRepository: (req, ctx) =>
      handle(ctx, async () => {
        const created = await forge.addRepository({
          repo: repoOf(req),
          fromPath: orNull(req.fromPath),
          defaultBranch: orNull(req.defaultBranch),
          atRef: orNull(req.atRef),
        });
        return { defaultBranch: created.defaultBranch, headSha: created.headSha };
      }),
    pushBranch: (req, ctx) =>
      handle(ctx, async () => {
        const pushed = await forge.pushBranch({
          repo: repoOf(req),
          fromPath: req.fromPath,
          sourceRef: req.sourceRef,
          branch: req.branch,
          force: req.force,
          merge: req.merge,
          pusher: req.pusher || DEFAULT_USER_LOGIN,
        });
        return { beforeSha: pushed.before ?? "", afterSha: pushed.after };
      }),
    openPullRequest: (req, ctx) =>
      handle(ctx, async () => {
        const repo = repoOf(req);
        const number = await forge.openPullRequest(repo, {
          head: req.head,
          base: req.base,
          title: req.title || req.head,
          body: req.body,
          author: req.author || DEFAULT_USER_LOGIN,
          draft: req.draft,
        });
        return { pullRequest: localPullRequestOf(await forge.describePullRequest(repo, number)) };
      }),
    commentPullRequest: (req, ctx) =>
      handle(ctx, async () => ({
        commentId: BigInt(
          await forge.commentAs(repoOf(req), numberOf(req.number), req.body, req.author || DEFAULT_USER_LOGIN),
        ),
      })),
    reviewPullRequest: (req, ctx) =>
      handle(ctx, async () => {
        const event = req.event as "APPROVE" | "REQUEST_CHANGES" | "COMMENT";
        await forge.review(repoOf(req), numberOf(req.number), {
          event,
          body: req.body,
          author: req.author || DEFAULT_USER_LOGIN,
        });
        return {};
      }),
    labelPullRequest: (req, ctx) =>
      handle(ctx, async () => ({ labels: await forge.label(repoOf(req), numberOf(req.number), req.add, req.remove) })),
    closePullRequest: (req, ctx) =>
      handle(ctx, async () => {
        await forge.closePullRequest(repoOf(req), numberOf(req.number));
        return {};
      }),
    editPullRequest: (req, ctx) =>
      handle(ctx, async () => {
        if (req.title === undefined && req.body === undefined && req.base === undefined) {
          throw invalidField("title", "give at least one of title, body and base to change");
        }
        const repo = repoOf(req);
        const number = numberOf(req.number);
        await forge.editPullRequest(repo, number, { title: req.title, body: req.body, base: req.base });
        return { pullRequest: localPullRequestOf(await forge.describePullRequest(repo, number)) };
      }),
    getPullRequest: (req, ctx) =>
      handle(ctx, async () => ({
        pullRequest: localPullRequestOf(await forge.describePullRequest(repoOf(req), numberOf(req.number))),
      })),
    listPullRequests: (req, ctx) =>
      handle(ctx, async () => {
        const state = req.state === "" ? null : (req.state as "open" | "closed" | "merged");
        return { pullRequests: (await forge.listPullRequests(repoOf(req), state)).map(localPullRequestOf) };
      }),
    runChecks: (req, ctx) => handle(ctx, async () => forge.runChecks(repoOf(req), req.ref)),
    postCheckRun: (req, ctx) =>
      handle(ctx, async () => {
        await forge.postCheckRun(repoOf(req), {
          sha: req.sha,
          name: req.name,
          state: req.state as CheckState,
          description: req.description,
          detailsUrl: orNull(req.detailsUrl),
          app: req.app || "external",
        });
        return {};
      }),
    getBranch: (req, ctx) => handle(ctx, async () => forge.getBranch(repoOf(req), req.branch)),
    deleteBranch: (req, ctx) =>
      handle(ctx, async () => ({
        beforeSha: await forge.deleteBranchAs(repoOf(req), req.branch, req.pusher || DEFAULT_USER_LOGIN),
      })),
  };
}
