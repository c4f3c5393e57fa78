/**
 * A pull request's scopes as the queue uses them (docs/merge-queue.md "Scopes from CI"): from the
 * files it changes with `scopes.source: files` (config/rules), from what CI sent with
 * `scopes.source: manual` (`pull_request_scopes`; none sent yet: no scope), none without a source.
 * When CI sends new scopes for a queued pull request, the engine moves it to its new lane.
 */
import { scopesOf, type PullRequestSnapshot } from "../config/index.js";
import { pullRequestScopes } from "../store/index.js";
import type { IngressEnv } from "./ingress-env.js";

/** The scopes of `pr` under the repository's configuration. @throws the database's error */
export async function scopesFor(
  env: IngressEnv,
  pr: PullRequestSnapshot,
): Promise<{ scopes: string[]; allScopes: boolean }> {
  if (env.config.config.scopes?.source?.type !== "manual") return scopesOf(env.config.config, pr.files);
  return (await pullRequestScopes(env.client, env.repository, pr.number)) ?? { scopes: [], allScopes: false };
}

/** CI sent scopes for pull request `number`: a queued one with manual scopes takes them. */
export async function onScopesSent(env: IngressEnv, number: number): Promise<void> {
  if (env.config.config.scopes?.source?.type !== "manual" || !env.state().pulls[String(number)]) return;
  const sent = (await pullRequestScopes(env.client, env.repository, number)) ?? { scopes: [], allScopes: false };
  env.emit({ type: "pull_request_scopes_changed", number, scopes: sent.scopes, allScopes: sent.allScopes });
}
