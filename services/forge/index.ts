/** Public surface of services/forge: the port both adapters implement (adapters: ./local, ./github). */
export * from "./types.js";
export {
  createGithubForge,
  createGithubRedelivery,
  createGithubTokenVerifier,
  registerGithubWebhook,
} from "./github/index.js";
export { ciLeaseFromEnvironment, ciSlotsFromEnvironment, createForgeService, createLocalForge } from "./local/index.js";
export { GitCommandError, runGit } from "./local/git/index.js";
