/**
 * A deployment of Yardmaster's own (ForgePort.upsertDeployment): merge protections with
 * `reporting_method: deployments` (docs/merge-protections.md "The check"; docs/github.md
 * "Deployments"). One deployment per environment and commit: the App's deployment of that SHA to
 * that environment is looked up (`GET .../deployments?sha=&environment=`, its creator the App) or
 * created (`POST .../deployments` with `ref` the SHA, `auto_merge: false`, no required contexts:
 * it is a status, not a deployment to run), then a status is posted (`POST
 * .../deployments/{id}/statuses`): `success`, `failure`, or `pending`, with the title as its
 * description (GitHub keeps 140 characters).
 */
import type { DeploymentInput } from "../types.js";
import type { GithubOctokit } from "./client.js";
import type { RepoParams } from "./repo-name.js";

/** GitHub's limit on a deployment status's description, in characters. */
export const MAX_DESCRIPTION_CHARS = 140;

/** Creates (once) the deployment of `input.sha` to `input.environment` and sets its state. */
export async function upsertOwnDeployment(
  gh: GithubOctokit,
  params: RepoParams,
  botLogin: () => Promise<string>,
  input: DeploymentInput,
): Promise<void> {
  const { data: found } = await gh.rest.repos.listDeployments({
    ...params,
    sha: input.sha,
    environment: input.environment,
    per_page: 100,
  });
  const bot = await botLogin();
  let id = found.find((d) => d.creator?.login === bot)?.id;
  if (id === undefined) {
    const created = await gh.rest.repos.createDeployment({
      ...params,
      ref: input.sha,
      environment: input.environment,
      auto_merge: false,
      required_contexts: [],
      description: input.description.slice(0, MAX_DESCRIPTION_CHARS),
      production_environment: false,
    });
    id = (created.data as { id: number }).id;
  }
  await gh.rest.repos.createDeploymentStatus({
    ...params,
    deployment_id: id,
    state: input.state,
    description: input.description.slice(0, MAX_DESCRIPTION_CHARS),
  });
}
