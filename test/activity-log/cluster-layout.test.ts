/**
 * The cluster layout rewrite of the ClickHouse migrations (services/activity-log/cluster-layout.ts;
 * docs/activity-log.md "Past one machine"), checked on the real migration files as text: no
 * cluster runs on this machine, so this is what can be verified here.
 */
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { clusterLayout } from "../../services/activity-log/index.js";

const DIR = path.resolve(import.meta.dirname, "../../services/activity-log/migrations");

const CI_DIR = path.resolve(import.meta.dirname, "../../services/ci-insights/migrations");

async function rewritten(dir = DIR): Promise<string[]> {
  const rewrite = clusterLayout("logs");
  const out: string[] = [];
  for (const file of (await readdir(dir)).sort()) {
    const sql = (await readFile(path.join(dir, file), "utf8")).replace(/^\s*--.*$/gm, "");
    for (const s of sql
      .split(/;[ \t]*$/m)
      .map((x) => x.trim())
      .filter(Boolean))
      out.push(...rewrite(s));
  }
  return out.map((s) => s.replace(/\s+/g, " "));
}

describe("cluster layout", () => {
  it("makes each table a replicated local table and a Distributed table sharded by repository", async () => {
    const sql = await rewritten();
    for (const [table, engine] of [
      ["events", "ReplicatedMergeTree"],
      ["events_rollup_dims", "ReplicatedSummingMergeTree"],
      ["events_rollup_pull_requests", "ReplicatedSummingMergeTree"],
      ["events_rollup_batch_pulls", "ReplicatedSummingMergeTree"],
    ]) {
      const local = sql.find((s) => s.startsWith(`CREATE TABLE IF NOT EXISTS ${table}_local ON CLUSTER 'logs' (`));
      expect(local, table).toContain(
        `ENGINE = ${engine}('/clickhouse/tables/{shard}/{database}/${table}_local', '{replica}') ORDER BY (repository,`,
      );
      expect(sql).toContain(
        `CREATE TABLE IF NOT EXISTS ${table} ON CLUSTER 'logs' AS ${table}_local ENGINE = Distributed('logs', currentDatabase(), ${table}_local, cityHash64(repository))`,
      );
    }
    expect(sql.filter((s) => / ENGINE = (MergeTree|SummingMergeTree)\b/.test(s))).toEqual([]);
  });

  it("rolls up on each node from its local events", async () => {
    const views = (await rewritten()).filter((s) => s.startsWith("CREATE MATERIALIZED VIEW"));
    expect(views).toHaveLength(3);
    for (const v of views) {
      expect(v).toMatch(/ ON CLUSTER 'logs' TO events_rollup_\w+_local AS /);
      expect(v).toContain("FROM events_local");
      expect(v).not.toMatch(/FROM events\b(?!_)/);
    }
  });

  it("alters the local and the Distributed tables alike", async () => {
    const alters = (await rewritten()).filter((s) => s.startsWith("ALTER TABLE"));
    expect(alters.map((s) => s.split(" MODIFY")[0])).toEqual([
      "ALTER TABLE events_local ON CLUSTER 'logs'",
      "ALTER TABLE events ON CLUSTER 'logs'",
    ]);
  });

  it("lays CI Insights' test runs and health states out alike, their views on each node's runs", async () => {
    const sql = await rewritten(CI_DIR);
    for (const [table, engine] of [
      ["test_runs", "ReplicatedMergeTree"],
      ["test_health_daily", "ReplicatedAggregatingMergeTree"],
      ["test_health_commits", "ReplicatedAggregatingMergeTree"],
    ]) {
      const local = sql.find((s) => s.startsWith(`CREATE TABLE IF NOT EXISTS ${table}_local ON CLUSTER 'logs' (`));
      expect(local, table).toContain(
        `ENGINE = ${engine}('/clickhouse/tables/{shard}/{database}/${table}_local', '{replica}')`,
      );
      expect(sql).toContain(
        `CREATE TABLE IF NOT EXISTS ${table} ON CLUSTER 'logs' AS ${table}_local ENGINE = Distributed('logs', currentDatabase(), ${table}_local, cityHash64(repository))`,
      );
    }
    const views = sql.filter((s) => s.startsWith("CREATE MATERIALIZED VIEW"));
    expect(views).toHaveLength(2);
    for (const v of views) {
      expect(v).toMatch(/ ON CLUSTER 'logs' TO test_health_\w+_local AS /);
      expect(v).toContain("FROM test_runs_local");
    }
    expect(sql.filter((s) => s.startsWith("ALTER TABLE"))).toEqual([
      "ALTER TABLE test_runs_local ON CLUSTER 'logs' ADD PROJECTION IF NOT EXISTS prj_branch_time (SELECT _part_offset ORDER BY repository, branch, received_at)",
      "ALTER TABLE test_runs_local ON CLUSTER 'logs' MATERIALIZE PROJECTION prj_branch_time",
    ]);
  });
});
