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
  createGithubRedelivery,
  createGithubTokenVerifier,
  registerGithubWebhook,
} from "../forge/index.js";
import {
  ciLeaseFromEnvironment,
  ciSlotsFromEnvironment,
  createForgeService,
  createLocalForge,
} from "../forge/index.js";
import type { ForgeEventSink, ForgePort } from "../forge/index.js";
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
  /** Extra services (ForgeService for the local forge). */
  bindings: ServiceBinding[];
  /** Extra routes (the GitHub webhook). */
  routes: (app: App) => Promise<void>;
  /** GitHub tokens accepted by the API (FORGE=github). */
  platform?: PlatformTokenVerifier;
  /** Where forge events go; set once the queue exists. */
  setSink(sink: ForgeEventSink): void;
  /** The platform's recovery of lost events, run by reconciliation (GitHub: failed deliveries redelivered). */
  redeliver?: () => Promise<unknown>;
  close(): Promise<void>;
}

/** GitHub tokens accepted by the API (FORGE=github), with the forge or without it (a process running only the activity log). */
export function githubTokenVerifier(logger: Logger): PlatformTokenVerifier {
  return createGithubTokenVerifier({ log: logger.child({ component: "github" }) });
}

/**
 * Builds the forge of the settings. The local forge has run its start-up recovery when this
 * resolves (docs/local-forge.md "Writes and events"); its events wait, stored, until `setSink`.
 * @throws SettingsError when FORGE=github lacks GITHUB_APP_ID, GITHUB_PRIVATE_KEY or GITHUB_WEBHOOK_SECRET;
 *   ForgeError transient when the local forge's recovery fails
 */
export async function wireForge(settings: Settings, db: Pool, logger: Logger): Promise<ForgeWiring> {
  if (settings.forge === "local") {
    const local = createLocalForge({
      db,
      dataDir: settings.dataDir,
      logger: logger.child({ component: "local-forge" }),
      ci: { slots: ciSlotsFromEnvironment(process.env), ...ciLeaseFromEnvironment(process.env) },
    });
    try {
      await local.ready;
    } catch (e) {
      await local.close();
      throw e;
    }
    return {
      forge: local,
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
  const redelivery = createGithubRedelivery({ appId: appId!, privateKey: privateKey!, log });
  return {
    forge: createGithubForge({ appId: appId!, privateKey: privateKey!, log }),
    redeliver: () => redelivery.pass(),
    bindings: [],
    routes: (app) =>
      registerGithubWebhook(app as never, {
        secret: webhookSecret!,
        pool: db,
        sink: deliver,
        log,
        appId: Number(appId),
      }),
    platform: githubTokenVerifier(logger),
    setSink: (s) => void (sink = s),
    close: async () => clearInterval(prune),
  };
}
