/**
 * The GitHub test double's operations for the actions of pull request rules: assignees, review
 * requests, reviews and their dismissal, git commits read back, workflow dispatches. Each answers
 * with the OpenAPI description's example, overridden with the double's state (the double checks
 * requests and answers against the description).
 */
import { readCommit, findCommit } from "../../../../services/forge/local/git/index.js";
import { example, notFound, unprocessable, type Handler } from "./double-answers.js";
import { gitCommitJson, iso, teamJson, userJson } from "./double-json.js";

const REVIEW_STATES: Record<string, "APPROVED" | "CHANGES_REQUESTED" | "COMMENTED"> = {
  APPROVE: "APPROVED",
  REQUEST_CHANGES: "CHANGES_REQUESTED",
  COMMENT: "COMMENTED",
};

export const workflowHandlers: Record<string, Handler> = {
  "issues/add-assignees": (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.issue_number));
    if (!p) return notFound();
    for (const a of ctx.body.assignees as string[]) if (!p.assignees.includes(a)) p.assignees.push(a);
    const t = example("issues/add-assignees", 201);
    return {
      status: 201,
      body: { ...t, number: p.number, assignees: p.assignees.map((a, i) => userJson(a, 5000 + i)) },
    };
  },

  "issues/remove-assignees": (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.issue_number));
    if (!p) return notFound();
    p.assignees = p.assignees.filter((a) => !(ctx.body.assignees as string[]).includes(a));
    const t = example("issues/remove-assignees", 200);
    return {
      status: 200,
      body: { ...t, number: p.number, assignees: p.assignees.map((a, i) => userJson(a, 5000 + i)) },
    };
  },

  "pulls/request-reviewers": (ctx) => {
    const p = ctx.repo.pull(Number(ctx.params.pull_number));
    if (!p) return notFound();
    const users = (ctx.body.reviewers ?? []) as string[];
    if (users.includes(p.author.login)) return unprocessable("Review cannot be requested from pull request author.");
    for (const u of users) if (!p.requestedReviewers.includes(u)) p.requestedReviewers.push(u);
    for (const t of (ctx.body.team_reviewers ?? []) as string[])
      if (!p.requestedTeams.includes(t)) p.requestedTeams.push(t);
    const body = {
      ...example("pulls/request-reviewers", 201),
      number: p.number,
      requested_reviewers: p.requestedReviewers.map((u, i) => userJson(u, 6000 + i)),
      requested_teams: p.requestedTeams.map((t, i) => teamJson(t, 6500 + i)),
    };
    return { status: 201, body };
  },

  "pulls/create-review": (ctx) => {
    const number = Number(ctx.params.pull_number);
    const p = ctx.repo.pull(number);
    if (!p) return notFound();
    const state = REVIEW_STATES[ctx.body.event as string];
    if (state === undefined) return unprocessable("Unprocessable Entity");
    if (state !== "APPROVED" && !ctx.body.body) return unprocessable("Review Comment is missing");
    const id = ctx.double.id();
    const user = `${ctx.double.appSlug}[bot]`;
    const submittedAt = ctx.double.now();
    ctx.repo.reviews.set(number, [...(ctx.repo.reviews.get(number) ?? []), { id, user, state, submittedAt }]);
    const t = example("pulls/create-review", 200);
    return {
      status: 200,
      body: {
        ...t,
        id,
        state,
        body: ctx.body.body ?? "",
        user: userJson(user, 7001, "Bot"),
        submitted_at: iso(submittedAt),
      },
    };
  },

  "pulls/dismiss-review": (ctx) => {
    const reviews = ctx.repo.reviews.get(Number(ctx.params.pull_number)) ?? [];
    const r = reviews.find((x) => x.id === Number(ctx.params.review_id));
    if (!r) return notFound();
    if (r.state !== "APPROVED" && r.state !== "CHANGES_REQUESTED")
      return unprocessable("Can not dismiss a commented pull request review");
    r.state = "DISMISSED";
    const t = example("pulls/dismiss-review", 200);
    return { status: 200, body: { ...t, id: r.id, state: "DISMISSED", user: userJson(r.user, 4000 + r.id) } };
  },

  "git/get-commit": async (ctx) => {
    if (!(await findCommit(ctx.repo.git, ctx.params.commit_sha))) return notFound();
    return {
      status: 200,
      body: gitCommitJson(ctx.repo.fullName, await readCommit(ctx.repo.git, ctx.params.commit_sha)),
    };
  },

  "actions/create-workflow-dispatch": (ctx) => {
    ctx.repo.dispatches.push({ workflow: ctx.params.workflow_id, ref: ctx.body.ref, inputs: ctx.body.inputs ?? {} });
    return { status: 204 };
  },
};
