/** Public surface of services/forge: the port both adapters implement (adapters: ./local, ./github). */
export * from "./types.js";
export {
  createGithubForge,
  createGithubInstallationCheck,
  createGithubJobRetries,
  createGithubRedelivery,
  createGithubRepositoryDirectory,
  createGithubTokenVerifier,
  githubAppManifest,
  registerGithubWebhook,
  type GithubFinishedJob,
  type GithubJobRetryHook,
  type InstallationCheck,
} from "./github/index.js";
export {
  ciLeaseFromEnvironment,
  ciSlotsFromEnvironment,
  createForgeService,
  createLocalForge,
  localRepositoryDirectory,
  type LocalCiInsights,
  type LocalCiJob,
} from "./local/index.js";
export type { CheckResult as LocalCheckResult, ReportsInput, ReportsVerdict } from "./local/ci/index.js";
export { GitCommandError, runGit } from "./local/git/index.js";
export { MAX_DEPENDENCIES, protectionFacts, type ProtectionFacts } from "./protection-facts.js";
