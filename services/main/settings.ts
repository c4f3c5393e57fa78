/**
 * The operational contract (docs/deployment.md "The operational contract"): settings from
 * environment variables, validated with zod. An invalid value stops the start with a message naming the variable.
 */
import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { DEFAULT_LIVE_LIMITS, type LiveLimits } from "../live/index.js";

const Env = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default("0.0.0.0"),
  YARDMASTER_DATA_DIR: z.string().min(1).default("./.yardmaster"),
  DATABASE_URL: z.string().url().optional(),
  CLICKHOUSE_URL: z.string().url().optional(),
  CLICKHOUSE_USER: z.string().optional(),
  CLICKHOUSE_PASSWORD: z.string().optional(),
  CLICKHOUSE_DATABASE: z.string().optional(),
  CLICKHOUSE_CLUSTER: z
    .string()
    .regex(/^[A-Za-z0-9_]+$/, "must be a cluster name (letters, digits, _)")
    .optional(),
  YARDMASTER_ADMIN_KEY: z
    .string()
    .min(16, "must be at least 16 characters")
    .regex(/^[\x21-\x7e]+$/, "must be printable ASCII without spaces")
    .optional(),
  FORGE: z.enum(["local", "github"]).default("local"),
  GITHUB_APP_ID: z.string().optional(),
  GITHUB_PRIVATE_KEY: z.string().optional(),
  GITHUB_WEBHOOK_SECRET: z.string().optional(),
  // Space the App's write requests one second apart (GitHub's advice against secondary limits);
  // "false" for a GitHub Enterprise Server without secondary limits, and for tests against a double.
  GITHUB_SPACE_WRITES: z.enum(["true", "false"]).default("true"),
  // GitHub Enterprise Server: https://HOST/api/v3 (docs/github.md "GitHub Enterprise Server").
  GITHUB_API_URL: z
    .string()
    .url()
    .refine((u) => URL.canParse(u) && /^https?:$/.test(new URL(u).protocol), "must be an http(s) URL")
    .optional(),
  // Reconciliation's interval (docs/github.md "Reconciliation"); 0 turns it off.
  RECONCILE_INTERVAL_SECONDS: z.coerce.number().int().min(0).max(86_400).optional(),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  LOG_FORMAT: z.enum(["auto", "pretty", "json"]).default("auto"),
  YARDMASTER_URL: z.string().url().default("http://127.0.0.1:8080"),
  YARDMASTER_QUEUE_URL: z.string().url().optional(),
  YARDMASTER_SIMULATOR_URL: z.string().url().optional(),
  YARDMASTER_ACTIVITY_LOG_URL: z.string().url().optional(),
  // The live streams' limits (docs/api.md "Streams"; live/live-registry.ts).
  LIVE_MAX_WATCHERS: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_LIVE_LIMITS.maxWatchers),
  LIVE_BUFFER_MESSAGES: z.coerce.number().int().min(2).max(100_000).default(DEFAULT_LIVE_LIMITS.maxBuffered),
  CLICKHOUSE_EMBEDDED_NICE: z.coerce.number().int().min(0).max(19).default(10),
  LIVE_STALL_MS: z.coerce.number().int().min(100).max(3_600_000).default(DEFAULT_LIVE_LIMITS.stallMs),
  // The first retry of a webhook delivery, seconds (docs/notifications.md "Retries").
  YARDMASTER_WEBHOOK_RETRY_SECONDS: z.coerce.number().min(0.05).max(3600).default(10),
  PUBLIC_URL: z.string().url().optional(),
  TRUST_PROXY: z.string().optional(),
  // Several replicas on one PostgreSQL (docs/deployment.md "Several replicas").
  YARDMASTER_REPLICA_NAME: z
    .string()
    .regex(/^[\x21-\x7e]{1,100}$/, "must be 1 to 100 printable ASCII characters without spaces")
    .optional(),
  YARDMASTER_REPLICA_LEASE_SECONDS: z.coerce.number().int().min(2).max(60).default(3),
  YARDMASTER_SHUTDOWN_DELAY_SECONDS: z.coerce.number().int().min(0).max(300).default(0),
});

/** TRUST_PROXY as Fastify's `trustProxy`: "true"/"false", a hop count, or addresses and CIDRs. */
function trustProxyOf(value: string | undefined): boolean | number | string {
  if (value === undefined || value === "false") return false;
  if (value === "true") return true;
  return /^\d+$/.test(value) ? Number(value) : value;
}

/** The services a process can run (`yardmaster serve --only`, docs/deployment.md). */
export const SERVICE_NAMES = ["queue", "simulator", "activity-log"] as const;
/** One of {@link SERVICE_NAMES}: a service `serve --only` can run (docs/deployment.md). */
export type ServiceName = (typeof SERVICE_NAMES)[number];

/**
 * The settings read from the environment by {@link readSettings} (docs/deployment.md "The
 * operational contract"; variable names in `Env`): an absent DATABASE_URL means the embedded
 * PostgreSQL, an absent CLICKHOUSE_URL the embedded chdb under `<dataDir>/clickhouse`; `adminKey`
 * absent means the generated key file (admin-key.ts).
 */
export type Settings = {
  port: number;
  host: string;
  /** Absolute path of the data directory. */
  dataDir: string;
  databaseUrl?: string;
  /**
   * A ClickHouse server, or the embedded engine's data directory and the nice value of its threads
   * (`CLICKHOUSE_EMBEDDED_NICE`, 0-19, default 10; docs/activity-log.md "The embedded engine").
   */
  clickhouse:
    | { url: string; username?: string; password?: string; database?: string }
    | { embeddedPath: string; threadNice: number };
  /** A ClickHouse cluster name: the log's tables become Distributed over ReplicatedMergeTree (docs/activity-log.md). */
  clickhouseCluster?: string;
  adminKey?: string;
  forge: "local" | "github";
  /** The GitHub App; `apiUrl` is GITHUB_API_URL (absent: https://api.github.com), `spaceWrites` GITHUB_SPACE_WRITES. */
  github: { appId?: string; privateKey?: string; webhookSecret?: string; apiUrl?: string; spaceWrites: boolean };
  /**
   * Seconds between reconciliation passes (RECONCILE_INTERVAL_SECONDS; docs/github.md
   * "Reconciliation"): default 60 with FORGE=github, 0 (off) with the local forge, whose events
   * cannot be lost.
   */
  reconcileIntervalSeconds: number;
  logLevel: string;
  /** JSON lines, pretty text, or pretty when stdout is a terminal (docs/observability.md "Logs"). */
  logFormat: "auto" | "pretty" | "json";
  /** Address of the running service, for CLI clients (YARDMASTER_URL, or its default). */
  serviceUrl: string;
  /** Whether YARDMASTER_URL was set (else CLI clients look for a server in the data directory first). */
  serviceUrlGiven: boolean;
  /** Where the services this process does not run are served (split deployment); absent: not served here. */
  remotes: Partial<Record<ServiceName, string>>;
  /** The live streams' limits (LIVE_MAX_WATCHERS, LIVE_BUFFER_MESSAGES, LIVE_STALL_MS). */
  live: LiveLimits;
  /** Delay of a webhook delivery's first retry, ms (YARDMASTER_WEBHOOK_RETRY_SECONDS; doubles at each). */
  webhookRetryBaseMs: number;
  /** The URL clients reach the service at (`PUBLIC_URL`): the origin of absolute `Link` targets. */
  publicUrl?: string;
  /** Whose X-Forwarded-Proto / X-Forwarded-Host are believed (`TRUST_PROXY`, docs/deployment.md). */
  trustProxy: boolean | number | string;
  /**
   * This process among the replicas of a deployment (docs/deployment.md "Several replicas"): its
   * name in logs and metrics (`YARDMASTER_REPLICA_NAME`, default `<host name>:<pid>`), how long its
   * lease on its repositories lasts without a heartbeat (`YARDMASTER_REPLICA_LEASE_SECONDS`), and how
   * long it keeps serving, unready, after SIGTERM before it closes its port (`YARDMASTER_SHUTDOWN_DELAY_SECONDS`).
   */
  replica: { name: string; leaseSeconds: number; shutdownDelaySeconds: number };
};

/** Thrown for an invalid environment variable. */
export class SettingsError extends Error {
  override readonly name = "SettingsError";
}

/**
 * Reads the settings from an environment.
 * @throws SettingsError naming each invalid variable
 */
export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const parsed = Env.safeParse(Object.fromEntries(Object.entries(env).filter(([, v]) => v !== "")));
  if (!parsed.success) {
    throw new SettingsError(parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.YARDMASTER_DATA_DIR);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    clickhouse: e.CLICKHOUSE_URL
      ? {
          url: e.CLICKHOUSE_URL,
          username: e.CLICKHOUSE_USER,
          password: e.CLICKHOUSE_PASSWORD,
          database: e.CLICKHOUSE_DATABASE,
        }
      : { embeddedPath: path.join(dataDir, "clickhouse"), threadNice: e.CLICKHOUSE_EMBEDDED_NICE },
    clickhouseCluster: e.CLICKHOUSE_CLUSTER,
    adminKey: e.YARDMASTER_ADMIN_KEY,
    forge: e.FORGE,
    github: {
      appId: e.GITHUB_APP_ID,
      privateKey: e.GITHUB_PRIVATE_KEY,
      webhookSecret: e.GITHUB_WEBHOOK_SECRET,
      apiUrl: e.GITHUB_API_URL?.replace(/\/+$/, ""),
      spaceWrites: e.GITHUB_SPACE_WRITES === "true",
    },
    reconcileIntervalSeconds: e.RECONCILE_INTERVAL_SECONDS ?? (e.FORGE === "github" ? 60 : 0),
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT,
    serviceUrl: e.YARDMASTER_URL,
    serviceUrlGiven: env.YARDMASTER_URL !== undefined && env.YARDMASTER_URL !== "",
    live: { maxWatchers: e.LIVE_MAX_WATCHERS, maxBuffered: e.LIVE_BUFFER_MESSAGES, stallMs: e.LIVE_STALL_MS },
    webhookRetryBaseMs: Math.round(e.YARDMASTER_WEBHOOK_RETRY_SECONDS * 1000),
    remotes: Object.fromEntries(
      Object.entries({
        queue: e.YARDMASTER_QUEUE_URL,
        simulator: e.YARDMASTER_SIMULATOR_URL,
        "activity-log": e.YARDMASTER_ACTIVITY_LOG_URL,
      }).filter(([, url]) => url !== undefined),
    ),
    publicUrl: e.PUBLIC_URL,
    trustProxy: trustProxyOf(e.TRUST_PROXY),
    replica: {
      name: e.YARDMASTER_REPLICA_NAME ?? `${os.hostname()}:${process.pid}`,
      leaseSeconds: e.YARDMASTER_REPLICA_LEASE_SECONDS,
      shutdownDelaySeconds: e.YARDMASTER_SHUTDOWN_DELAY_SECONDS,
    },
  };
}
