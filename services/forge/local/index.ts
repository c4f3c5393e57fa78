/**
 * The local forge (`FORGE=local`): the port over real git and PostgreSQL, people's actions, the
 * durable CI worker, and the ForgeService implementation. Guide: docs/local-forge.md.
 */
export { createLocalForge, DEFAULT_CI_SLOTS, type LocalForge, type LocalForgeDeps } from "./local-forge.js";
export { DEFAULT_BOT_LOGIN, DEFAULT_USER_LOGIN, LOCAL_CI_APP, OWN_CHECK_APP } from "./core.js";
export { CiWorker, type CiWorkerOptions } from "./ci-worker.js";
export type { LocalCiInsights, LocalCiJob } from "./ci-insights-hooks.js";
export { LocalForgeError, type RpcHint } from "./errors.js";
export { CONFIG_PATHS } from "./port.js";
export type { PullRequestView } from "./pull-views.js";
export { createForgeService, localPullRequestOf } from "./forge-service.js";
export { ciLeaseFromEnvironment, ciSlotsFromEnvironment } from "./ci-settings.js";
export { localRepositoryDirectory } from "./repository-directory.js";
