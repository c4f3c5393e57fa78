/**
 * The GitHub test double's deployments (`GET`/`POST .../deployments`, `POST
 * .../deployments/{id}/statuses`), as GitHub answers them: a deployment of a SHA to an
 * environment made by the caller (an installation token: the App's bot), its statuses appended.
 */
import { example, notFound, page, type Handler } from "./double-answers.js";
import type { DoubleDeployment } from "./double-state.js";

const API = "https://api.github.com";

function deploymentJson(repoName: string, d: DoubleDeployment) {
  const t = example("repos/create-deployment", 201);
  return {
    ...t,
    id: d.id,
    node_id: `DE_${d.id}`,
    url: `${API}/repos/${repoName}/deployments/${d.id}`,
    sha: d.sha,
    ref: d.sha,
    task: "deploy",
    environment: d.environment,
    original_environment: d.environment,
    description: d.description,
    creator: { ...t.creator, login: d.creator, type: "Bot" },
    statuses_url: `${API}/repos/${repoName}/deployments/${d.id}/statuses`,
    repository_url: `${API}/repos/${repoName}`,
    transient_environment: false,
    production_environment: false,
  };
}

export const deploymentHandlers: Record<string, Handler> = {
  "repos/list-deployments": (ctx) => {
    const all = ctx.repo.deployments.filter(
      (d) =>
        (!ctx.query.has("sha") || d.sha === ctx.query.get("sha")) &&
        (!ctx.query.has("environment") || d.environment === ctx.query.get("environment")),
    );
    return { status: 200, body: page([...all].reverse(), ctx.query).map((d) => deploymentJson(ctx.repo.fullName, d)) };
  },

  "repos/create-deployment": (ctx) => {
    const b = ctx.body as { ref: string; environment?: string; description?: string };
    const d: DoubleDeployment = {
      id: ctx.double.id(),
      sha: b.ref,
      environment: b.environment ?? "production",
      creator: `${ctx.double.appSlug}[bot]`,
      description: b.description ?? null,
      statuses: [],
    };
    ctx.repo.deployments.push(d);
    return { status: 201, body: deploymentJson(ctx.repo.fullName, d) };
  },

  "repos/create-deployment-status": (ctx) => {
    const d = ctx.repo.deployments.find((x) => String(x.id) === ctx.params.deployment_id);
    if (!d) return notFound();
    const b = ctx.body as { state: string; description?: string };
    const status = { id: ctx.double.id(), state: b.state, description: b.description ?? "" };
    d.statuses.push(status);
    const t = example("repos/create-deployment-status", 201);
    return {
      status: 201,
      body: {
        ...t,
        id: status.id,
        node_id: `DES_${status.id}`,
        state: status.state,
        description: status.description,
        environment: d.environment,
        url: `${API}/repos/${ctx.repo.fullName}/deployments/${d.id}/statuses/${status.id}`,
        deployment_url: `${API}/repos/${ctx.repo.fullName}/deployments/${d.id}`,
        repository_url: `${API}/repos/${ctx.repo.fullName}`,
        creator: { ...t.creator, login: `${ctx.double.appSlug}[bot]`, type: "Bot" },
      },
    };
  },
};
