/**
 * The code hosting platform of the running service (docs/deployment.md "The operational contract"
 * `FORGE`): the local forge (real git in the data directory, its CI worker and ForgeService) or the
 * GitHub App (webhook route and GitHub tokens for the API). Forge events go to `sink`, bound after
 * construction because the queue runner that consumes them needs the forge itself.
 */
import type { Logger } from "pino";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import {
  createGithubForge,
  createGithubInstallationCheck,
  createGithubJobRetries,
  createGithubRedelivery,
  createGithubRepositoryDirectory,
  createGithubTokenVerifier,
  registerGithubWebhook,
} from "../forge/index.js";
import { SUMMARY_CHECK_NAME } from "../runner/index.js";
import {
  ciLeaseFromEnvironment,
  ciSlotsFromEnvironment,
  createForgeService,
  createLocalForge,
  localRepositoryDirectory,
} from "../forge/index.js";
import type {
  ForgeEventSink,
  ForgePort,
  GithubJobRetryHook,
  LocalCiInsights,
  RepositoryDirectory,
} from "../forge/index.js";
import type { PlatformTokenVerifier } from "../auth/index.js";
import type { App, ServiceBinding } from "../gateway/index.js";
import { pruneGithubDeliveries, type Pool } from "../store/index.js";
import { SettingsError, type Settings } from "./settings.js";

/**
 * The forge of the running service, with what it adds to the gateway (services, routes, platform
 * tokens); `close` stops the local forge, or the hourly pruning of GitHub deliveries older than 7
 * days.
 */
export interface ForgeWiring {
  forge: ForgePort;
  /** The repositories the forge knows (ListRepositories); absent: those with queue state only. */
  directory?: RepositoryDirectory;
  /** Extra services (ForgeService for the local forge). */
  bindings: ServiceBinding[];
  /** Extra routes (the GitHub webhook). */
  routes: (app: App) => Promise<void>;
  /** GitHub tokens accepted by the API (FORGE=github). */
  platform?: PlatformTokenVerifier;
  /** Where forge events go; set once the queue exists. */
  setSink(sink: ForgeEventSink): void;
  /** What `/readyz` shows of the forge (FORGE=github: the App installations' check); absent: nothing. */
  readiness?: () => Record<string, unknown>;
  /** The platform's recovery of lost events, run by reconciliation (GitHub: failed deliveries redelivered). */
  redeliver?: () => Promise<unknown>;
  close(): Promise<void>;
}

/** GitHub tokens accepted by the API (FORGE=github), with the forge or without it (a process running only the activity log). */
export function githubTokenVerifier(logger: Logger, settings: Settings): PlatformTokenVerifier {
  return createGithubTokenVerifier({ log: logger.child({ component: "github" }), baseUrl: settings.github.apiUrl });
}

/** How often the installations' permissions are checked again after the check at start (ms). */
const INSTALLATION_CHECK_INTERVAL_MS = 3_600_000;

/**
 * Builds the forge of the settings (`insights`: CI Insights' hooks for the local CI's reports and
 * retries, when CI Insights runs here; `githubRetries`: its retry decision for GitHub Actions jobs,
 * which the webhook route hands every failed workflow run, docs/ci-insights.md "Job retries"). The
 * local forge has run its start-up recovery when this resolves (docs/local-forge.md "Writes and
 * events"); its events wait, stored, until `setSink`.
 * @throws SettingsError when FORGE=github lacks GITHUB_APP_ID, GITHUB_PRIVATE_KEY or GITHUB_WEBHOOK_SECRET;
 *   ForgeError transient when the local forge's recovery fails
 */
export async function wireForge(
  settings: Settings,
  db: Pool,
  logger: Logger,
  insights?: LocalCiInsights,
  githubRetries?: GithubJobRetryHook,
): Promise<ForgeWiring> {
  if (settings.forge === "local") {
    const local = createLocalForge({
      db,
      dataDir: settings.dataDir,
      logger: logger.child({ component: "local-forge" }),
      ci: { slots: ciSlotsFromEnvironment(process.env), ...ciLeaseFromEnvironment(process.env), insights },
    });
    try {
      await local.ready;
    } catch (e) {
      await local.close();
      throw e;
    }
    return {
      forge: local,
      directory: localRepositoryDirectory(db),
      bindings: [{ service: ForgeService, impl: createForgeService(local) } as ServiceBinding],
      routes: async () => {},
      setSink: (s) => void local.attachEventSink(s),
      close: () => local.close(),
    };
  }
  let sink: ForgeEventSink = (event) => {
    throw new Error(`forge event ${event.kind} arrived before the queue started`);
  };
  const deliver: ForgeEventSink = (event, key) => sink(event, key);
  const { appId, privateKey, webhookSecret } = settings.github;
  const missing = Object.entries({
    GITHUB_APP_ID: appId,
    GITHUB_PRIVATE_KEY: privateKey,
    GITHUB_WEBHOOK_SECRET: webhookSecret,
  })
    .filter(([, v]) => !v)
    .map(([k]) => k);
  if (missing.length) throw new SettingsError(`FORGE=github needs ${missing.join(", ")}`);
  const log = logger.child({ component: "github" });
  const prune = setInterval(
    () => void pruneGithubDeliveries(db, new Date(Date.now() - 7 * 86_400_000)).catch(() => {}),
    3_600_000,
  );
  prune.unref();
  const app = {
    appId: appId!,
    privateKey: privateKey!,
    log,
    baseUrl: settings.github.apiUrl,
    spaceWrites: settings.github.spaceWrites,
  };
  // Each installation's granted permissions, checked at start and hourly (logged, and in /readyz).
  const installations = createGithubInstallationCheck(app);
  void installations.run();
  const recheck = setInterval(() => void installations.run(), INSTALLATION_CHECK_INTERVAL_MS);
  recheck.unref();
  // Failed webhook deliveries redelivered before each reconciliation pass (docs/github.md "Reconciliation").
  const redelivery = createGithubRedelivery(app);
  // CI Insights' job retry rules, handed each failed workflow run (docs/ci-insights.md "Job retries").
  const workflowRuns = githubRetries ? createGithubJobRetries(app, githubRetries) : undefined;
  return {
    forge: createGithubForge({ ...app, ownCheckNames: [SUMMARY_CHECK_NAME] }),
    redeliver: () => redelivery.pass(),
    directory: createGithubRepositoryDirectory(app),
    bindings: [],
    // The App's id: deliveries about its own check runs are not read (docs/github.md "Request budget").
    routes: (app) =>
      registerGithubWebhook(app, {
        secret: webhookSecret!,
        pool: db,
        sink: deliver,
        log,
        appId: Number(appId),
        workflowRuns,
      }),
    platform: githubTokenVerifier(logger, settings),
    setSink: (s) => void (sink = s),
    readiness: () => ({ github: installations.readiness() }),
    close: async () => {
      clearInterval(prune);
      clearInterval(recheck);
    },
  };
}
