/**
 * The GitHub test double's reviews of a pull request and the permission level of a collaborator
 * (what a reviewer's approval counts for)
 * (https://docs.github.com/en/rest/pulls/reviews, https://docs.github.com/en/rest/collaborators).
 */
import { example, linkHeaders, notFound, page, type Handler } from "./double-answers.js";
import { iso, userJson } from "./double-json.js";

export const reviewHandlers: Record<string, Handler> = {
  "repos/get-collaborator-permission-level": (ctx) => {
    const c = ctx.repo.collaborators.get(ctx.params.username);
    if (!c) return notFound();
    return { status: 200, body: { ...c, user: { ...userJson(ctx.params.username, 5000), role_name: c.role_name } } };
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
};
