/**
 * The GitHub test double's commit statuses (the combined status of a ref) and check runs (list
 * for a ref, latest per app and name by default; create; update)
 * (https://docs.github.com/en/rest/commits/statuses, https://docs.github.com/en/rest/checks/runs).
 */
import { example, linkHeaders, notFound, page, type Handler } from "./double-answers.js";
import { checkRunJson, iso } from "./double-json.js";

export const checkHandlers: Record<string, Handler> = {
  "repos/get-combined-status-for-ref": (ctx) => {
    const latest = new Map<string, (typeof ctx.repo.statuses)[number]>();
    for (const s of ctx.repo.statuses.filter((s) => s.sha === ctx.params.ref)) latest.set(s.context, s);
    const all = [...latest.values()];
    const t = example("repos/get-combined-status-for-ref", 200);
    return {
      status: 200,
      body: {
        ...t,
        sha: ctx.params.ref,
        total_count: all.length,
        state: all.some((s) => s.state === "failure" || s.state === "error")
          ? "failure"
          : all.every((s) => s.state === "success")
            ? "success"
            : "pending",
        statuses: page(all, ctx.query).map((s) => ({
          ...t.statuses[0],
          id: s.id,
          context: s.context,
          state: s.state,
          description: s.description,
          target_url: s.targetUrl,
          created_at: iso(s.at),
          updated_at: iso(s.at),
        })),
      },
    };
  },

  "checks/list-for-ref": (ctx) => {
    let runs = ctx.repo.checkRuns.filter((r) => r.headSha === ctx.params.ref);
    if (ctx.query.has("check_name")) runs = runs.filter((r) => r.name === ctx.query.get("check_name"));
    if (ctx.query.has("app_id")) runs = runs.filter((r) => String(r.appId) === ctx.query.get("app_id"));
    if ((ctx.query.get("filter") ?? "latest") === "latest") {
      const latest = new Map<string, (typeof runs)[number]>();
      for (const r of runs)
        if (!latest.has(`${r.appId} ${r.name}`) || latest.get(`${r.appId} ${r.name}`)!.id < r.id)
          latest.set(`${r.appId} ${r.name}`, r);
      runs = [...latest.values()];
    }
    return {
      status: 200,
      headers: linkHeaders(ctx, runs.length),
      body: {
        total_count: runs.length,
        check_runs: page(runs, ctx.query).map((r) => checkRunJson(ctx.repo.fullName, r)),
      },
    };
  },

  "checks/create": (ctx) => {
    const b = ctx.body;
    const run = {
      id: ctx.double.id(),
      name: b.name,
      headSha: b.head_sha,
      status: b.conclusion ? "completed" : (b.status ?? "queued"),
      conclusion: b.conclusion ?? null,
      title: b.output?.title ?? null,
      summary: b.output?.summary ?? null,
      appId: ctx.double.appId,
      appSlug: ctx.double.appSlug,
      detailsUrl: b.details_url ?? null,
      startedAt: ctx.double.now(),
      completedAt: b.conclusion ? ctx.double.now() : null,
    };
    ctx.repo.checkRuns.push(run);
    return { status: 201, body: checkRunJson(ctx.repo.fullName, run) };
  },

  "checks/update": (ctx) => {
    const run = ctx.repo.checkRuns.find((r) => String(r.id) === ctx.params.check_run_id);
    if (!run) return notFound();
    const b = ctx.body;
    Object.assign(run, {
      status: b.conclusion ? "completed" : (b.status ?? run.status),
      conclusion: b.conclusion ?? (b.status && b.status !== "completed" ? null : run.conclusion),
      title: b.output?.title ?? run.title,
      summary: b.output?.summary ?? run.summary,
      completedAt: b.conclusion ? ctx.double.now() : run.completedAt,
    });
    return { status: 200, body: checkRunJson(ctx.repo.fullName, run) };
  },
};
