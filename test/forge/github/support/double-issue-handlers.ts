/**
 * The GitHub test double's issue operations on pull requests: comments (written by the App's bot
 * user) and labels (a label belongs to the repository and keeps its id)
 * (https://docs.github.com/en/rest/issues/comments, https://docs.github.com/en/rest/issues/labels).
 */
import { example, linkHeaders, notFound, page, type Handler } from "./double-answers.js";
import { labelJson, userJson } from "./double-json.js";
import type { DoublePull, DoubleRepo } from "./double-state.js";

/** Every label a repository's pull requests carried, by name (a repository's label outlives its last use). */
const labelsSeen = new WeakMap<DoubleRepo, Map<string, DoublePull["labels"][number]>>();

/** The repository's labels: those its pull requests carry or carried, one per name (the first seen). */
function repoLabels(repo: DoubleRepo) {
  const byName = labelsSeen.get(repo) ?? new Map<string, DoublePull["labels"][number]>();
  labelsSeen.set(repo, byName);
  for (const p of repo.pulls.values()) for (const l of p.labels) if (!byName.has(l.name)) byName.set(l.name, { ...l });
  return [...byName.values()];
}
export const issueHandlers: Record<string, Handler> = {
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
