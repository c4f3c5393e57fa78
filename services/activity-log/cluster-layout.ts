/**
 * The cluster layout of the activity log (docs/activity-log.md "Past one machine"): a rewrite of
 * the ClickHouse migrations, for `migrateClickHouse(client, clusterLayout(name))`, that turns the
 * single-server schema into
 * - `<table>_local` on every node: ReplicatedMergeTree (ReplicatedSummingMergeTree for the
 *   rollups), replicated per shard through ClickHouse Keeper at
 *   `/clickhouse/tables/{shard}/{database}/<table>_local` with replica `{replica}` (the
 *   macros each node defines);
 * - `<table>`: a Distributed table over them, sharded by `cityHash64(repository)`, so every
 *   event of a repository lives on one shard and each repository's pages and aggregates are
 *   computed whole on it (with `optimize_skip_unused_shards = 1` only that shard is asked);
 * - the materialized views on the local tables (each node rolls up the rows it stores);
 * - ALTERs applied to the local tables and to the Distributed table alike, but for projections
 *   and skip indexes (local tables only: a Distributed table stores no parts);
 * every DDL statement `ON CLUSTER`. The service keeps using the table names it knows: reads and
 * the relay's inserts go through the Distributed tables.
 * Inserted blocks are deduplicated by ReplicatedMergeTree (a block re-sent after an unclear
 * failure is recognised by its checksum; the relay re-sends batches unchanged), in addition to
 * the relay's own id check (event-store.ts). Run the Distributed inserts synchronously
 * (`insert_distributed_sync = 1`) so that an acknowledgement means the shard has the rows.
 * Not exercised here (no cluster on this machine): the output is checked as text by
 * test/activity-log/cluster-layout.test.ts.
 */

/**
 * The log's tables, and CI Insights' test runs and their health states (docs/ci-insights.md
 * "Storage"), sharded alike by repository.
 */
const TABLES = new Set([
  "events",
  "events_rollup_dims",
  "events_rollup_pull_requests",
  "events_rollup_batch_pulls",
  "test_runs",
  "test_health_daily",
  "test_health_commits",
]);

function createTable(name: string, body: string, engine: string, rest: string, cluster: string): string[] {
  const c = `'${cluster.replace(/'/g, "")}'`;
  const local = `${name}_local`;
  return [
    `CREATE TABLE IF NOT EXISTS ${local} ON CLUSTER ${c} ${body} ENGINE = Replicated${engine}('/clickhouse/tables/{shard}/{database}/${local}', '{replica}') ${rest}`,
    `CREATE TABLE IF NOT EXISTS ${name} ON CLUSTER ${c} AS ${local} ENGINE = Distributed(${c}, currentDatabase(), ${local}, cityHash64(repository))`,
  ];
}

/**
 * The rewrite of one migration statement for the cluster named `cluster` (see the module comment).
 * Statements on other objects pass through with `ON CLUSTER` added to DDL.
 * @throws Error for a CREATE TABLE of the log whose engine is not a MergeTree family engine
 */
export function clusterLayout(cluster: string): (sql: string) => string[] {
  const c = `'${cluster.replace(/'/g, "")}'`;
  return (sql) => {
    const create = /^CREATE TABLE IF NOT EXISTS (\w+) (\([\s\S]*\))\s*ENGINE = (\w*MergeTree)\s*([\s\S]*)$/.exec(sql);
    if (create && TABLES.has(create[1])) return createTable(create[1], create[2], create[3], create[4].trim(), cluster);
    if (
      /^CREATE TABLE/.test(sql) &&
      [...TABLES].some((t) => new RegExp(`^CREATE TABLE IF NOT EXISTS ${t}\\b`).test(sql))
    ) {
      throw new Error(`cluster layout: cannot rewrite ${sql.slice(0, 60)}…`);
    }
    const view = /^CREATE MATERIALIZED VIEW IF NOT EXISTS (\w+) TO (\w+) AS\s*([\s\S]*)$/.exec(sql);
    if (view) {
      const select = view[3].replace(/\bFROM (events|test_runs)\b/g, "FROM $1_local");
      return [`CREATE MATERIALIZED VIEW IF NOT EXISTS ${view[1]} ON CLUSTER ${c} TO ${view[2]}_local AS ${select}`];
    }
    const alter = /^ALTER TABLE (\w+)\s+([\s\S]*)$/.exec(sql);
    // Projections and skip indexes belong to the stored parts: the local tables only.
    if (alter && TABLES.has(alter[1]) && /^(ADD|MATERIALIZE|DROP) (PROJECTION|INDEX)\b/.test(alter[2])) {
      return [`ALTER TABLE ${alter[1]}_local ON CLUSTER ${c} ${alter[2]}`];
    }
    if (alter && TABLES.has(alter[1])) {
      return [
        `ALTER TABLE ${alter[1]}_local ON CLUSTER ${c} ${alter[2]}`,
        `ALTER TABLE ${alter[1]} ON CLUSTER ${c} ${alter[2]}`,
      ];
    }
    // INSERT … SELECT backfills go through the Distributed tables, sharded like the events.
    return [sql];
  };
}
