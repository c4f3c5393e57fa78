/**
 * Public surface of the GitHub App adapter (`FORGE=github`; docs/github.md): the forge port over
 * GitHub's REST API, the webhook endpoint that turns deliveries into forge events, the mapping
 * itself, and the verifier of GitHub tokens presented to Yardmaster's own API.
 */
export { createGithubForge, type GithubForgeDeps } from "./forge.js";
export { createGithubRepositoryDirectory, DIRECTORY_TTL_MS } from "./installed-repositories.js";
export { type GithubAppOptions, type GithubHttpOptions, type GithubLogger, normalizePrivateKey } from "./client.js";
export { registerGithubWebhook, GITHUB_WEBHOOK_PATH, type GithubWebhookDeps } from "./webhook-route.js";
export { mapGithubWebhook, WebhookPayloadError, type WebhookMapping } from "./webhook-events.js";
export type { CompletedWorkflowRun } from "./workflow-run.js";
export {
  createGithubJobRetries,
  type GithubFinishedJob,
  type GithubJobRetryHook,
  type RunRetryOutcome,
} from "./job-retries.js";
export { createGithubTokenVerifier, looksLikeGithubToken, TOKEN_CACHE_TTL_MS } from "./token-verifier.js";
export { OWN_CHECK_APP } from "./check-states.js";
export {
  githubAppManifest,
  missingPermissions,
  NEEDED_EVENTS,
  NEEDED_PERMISSIONS,
  type ManifestOptions,
  type NeededPermission,
} from "./app-manifest.js";
export {
  createGithubInstallationCheck,
  type InstallationCheck,
  type InstallationReport,
} from "./installation-check.js";
export { createGithubRedelivery, type GithubRedelivery, type RedeliveryReport } from "./redelivery.js";
