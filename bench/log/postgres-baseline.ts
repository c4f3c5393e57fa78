/**
 * The PostgreSQL baseline of the log benchmark: the same events (exported from ClickHouse as CSV,
 * loaded with COPY in key order) in a table of the same columns with the indexes
 * docs/activity-log.md "Benchmark" describes (a covering (repository, received_at, id) index with the facet columns
 * INCLUDEd for index-only scans, partial pull request and batch pull request indexes, a type index),
 * and the 30-day aggregate of the hot repository computed two ways — one GROUPING SETS statement,
 * and six GROUP BYs run concurrently on six connections — of which the faster is the baseline.
 * Both give the same numbers as ClickHouse (checked once, printed).
 * An embedded server gets shared_buffers 4 GB and work_mem 256 MB, as docs/activity-log.md "Benchmark" says.
 */
import { chmod, rm } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { create } from "@bufbuild/protobuf";
import { timestampFromMs } from "@bufbuild/protobuf/wkt";
import { AggregateLogsRequestSchema, AggregateLogsResponseSchema } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { aggregateLogsHandler, histogramLayout, type ClickHouseClient } from "../../services/activity-log/index.js";
import { startEmbeddedPostgres } from "../../services/store/index.js";
import { measure, seededRandom, type Latency } from "./percentiles.js";
import { HOT } from "./clickhouse-scenarios.js";

const DAY = 86_400_000;
const REPO = `${HOT.owner}/${HOT.repository}`;

async function openServer(dir: string, print: (l: string) => void): Promise<{ url: string; stop(): Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: async () => {} };
  await chmod(dir, 0o755);
  const pgDir = path.join(dir, "postgres");
  let server = await startEmbeddedPostgres(pgDir);
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  const current = (await admin.query("SHOW shared_buffers")).rows[0].shared_buffers;
  if (current !== "4GB") {
    for (const [k, v] of [
      ["shared_buffers", "4GB"],
      ["work_mem", "256MB"],
      ["effective_cache_size", "12GB"],
      ["max_parallel_workers_per_gather", "2"],
    ]) {
      await admin.query(`ALTER SYSTEM SET ${k} = '${v}'`);
    }
    await admin.end();
    await server.stop();
    server = await startEmbeddedPostgres(pgDir);
  } else await admin.end();
  print(`PostgreSQL (embedded, ${pgDir}): shared_buffers 4GB, work_mem 256MB`);
  return server;
}

async function load(
  pool: pg.Pool,
  client: ClickHouseClient,
  dir: string,
  n: number,
  print: (l: string) => void,
): Promise<void> {
  const have = await pool.query("SELECT count(*)::bigint AS c FROM events").then(
    (r) => Number(r.rows[0].c),
    () => -1,
  );
  if (have === n) return print(`  reused ${n.toLocaleString("en")} events already loaded`);
  const csv = path.join(dir, "events.csv");
  let t = performance.now();
  await client.command({
    query: `SELECT id, concat(toString(received_at), '+00'), repository, trigger, if(pull_request = -1, NULL, pull_request), nullIf(base_ref, ''),
              toString(outcome), toString(type), if(batch_pull = -1, NULL, batch_pull), metadata
            FROM events ORDER BY repository, received_at, id INTO OUTFILE '${csv}' TRUNCATE FORMAT CSV`,
  });
  await chmod(csv, 0o644);
  const exported = performance.now() - t;
  t = performance.now();
  await pool.query("DROP TABLE IF EXISTS events");
  await pool.query(`CREATE TABLE events (id bigint NOT NULL, received_at timestamptz NOT NULL, repository text NOT NULL, trigger text NOT NULL,
    pull_request bigint, base_ref text, outcome text NOT NULL, type text NOT NULL, batch_pull bigint, metadata jsonb NOT NULL)`);
  await pool.query(`COPY events FROM '${csv}' WITH (FORMAT csv, NULL '\\N')`);
  const copied = performance.now() - t;
  t = performance.now();
  await pool.query("ALTER TABLE events ADD PRIMARY KEY (id)");
  await pool.query(
    "CREATE INDEX events_page ON events (repository, received_at DESC, id DESC) INCLUDE (type, outcome, trigger, pull_request, batch_pull)",
  );
  await pool.query(
    "CREATE INDEX events_pull ON events (repository, pull_request, received_at DESC, id DESC) WHERE pull_request IS NOT NULL",
  );
  await pool.query(
    "CREATE INDEX events_batch_pull ON events (repository, batch_pull, received_at DESC, id DESC) WHERE batch_pull IS NOT NULL",
  );
  await pool.query("CREATE INDEX events_type ON events (repository, type, received_at DESC, id DESC)");
  await pool.query("VACUUM ANALYZE events");
  const size = (await pool.query("SELECT pg_size_pretty(pg_total_relation_size('events')) AS s")).rows[0].s;
  await rm(csv, { force: true });
  print(
    `  loaded ${n.toLocaleString("en")} events: CSV export ${(exported / 1000).toFixed(1)} s, COPY ${(copied / 1000).toFixed(1)} s, indexes + VACUUM ANALYZE ${((performance.now() - t) / 1000).toFixed(1)} s; ${size}`,
  );
}

/** The facets and histogram of a window, as rows (kind, value, count), top 200 per facet. */
type Counts = Map<string, [string, number][]>;

const WINDOW =
  "repository = $1 AND received_at >= to_timestamp($2::double precision / 1000) AND received_at < to_timestamp($3::double precision / 1000)";
const BUCKET = "floor((extract(epoch FROM received_at) * 1000 - $4) / $5)::bigint";

async function groupingSets(pool: pg.Pool, fromMs: number, toMs: number): Promise<Counts> {
  const { firstStartMs, stepMs } = histogramLayout({ fromMs, toMs });
  const rows = (
    await pool.query(
      `WITH g AS (
       SELECT GROUPING(bucket, type, outcome, trigger, pull_request, batch_pull) AS gm, bucket, type, outcome, trigger, pull_request, batch_pull, count(*) AS c
       FROM (SELECT ${BUCKET} AS bucket, type, outcome, trigger, pull_request, batch_pull FROM events WHERE ${WINDOW}) w
       GROUP BY GROUPING SETS ((bucket), (type), (outcome), (trigger), (pull_request), (batch_pull)))
     SELECT gm, coalesce(bucket::text, type, outcome, trigger, pull_request::text, batch_pull::text) AS k, c FROM (
       SELECT g.*, row_number() OVER (PARTITION BY gm ORDER BY c DESC, pull_request, batch_pull, type COLLATE "C", outcome COLLATE "C", trigger COLLATE "C", bucket) AS rn
       FROM g WHERE NOT (gm = 61 AND pull_request IS NULL) AND NOT (gm = 62 AND batch_pull IS NULL)) x
     WHERE rn <= 200 OR gm = 31`,
      [REPO, fromMs, toMs, firstStartMs, stepMs],
    )
  ).rows as { gm: number; k: string; c: string }[];
  const names: Record<number, string> = {
    31: "histogram",
    47: "type",
    55: "outcome",
    59: "trigger",
    61: "pull_request",
    62: "batch_pull",
  };
  const out: Counts = new Map();
  for (const r of rows) {
    const list = out.get(names[r.gm]) ?? [];
    list.push([r.k, Number(r.c)]);
    out.set(names[r.gm], list);
  }
  return out;
}

async function sixQueries(pool: pg.Pool, fromMs: number, toMs: number): Promise<Counts> {
  const { firstStartMs, stepMs } = histogramLayout({ fromMs, toMs });
  const q = (key: string, extra = "", limit = "LIMIT 200") =>
    pool.query(
      `SELECT ${key} AS k, count(*) AS c FROM events WHERE ${WINDOW} ${extra} GROUP BY 1 ORDER BY 2 DESC, 1 ${limit}`,
      [REPO, fromMs, toMs, ...(key === BUCKET ? [firstStartMs, stepMs] : [])],
    );
  const [h, t, o, tr, p, b] = await Promise.all([
    q(BUCKET, "", ""),
    q(`type COLLATE "C"`),
    q(`outcome COLLATE "C"`),
    q(`trigger COLLATE "C"`),
    q("pull_request", "AND pull_request IS NOT NULL"),
    q("batch_pull", "AND batch_pull IS NOT NULL"),
  ]);
  const rows = (r: pg.QueryResult) => r.rows.map((x) => [String(x.k), Number(x.c)] as [string, number]);
  return new Map([
    ["histogram", rows(h)],
    ["type", rows(t)],
    ["outcome", rows(o)],
    ["trigger", rows(tr)],
    ["pull_request", rows(p)],
    ["batch_pull", rows(b)],
  ]);
}

/** Whether PostgreSQL's counts equal the service's aggregate (histogram compared as a multiset of bucket counts). */
async function agrees(client: ClickHouseClient, pool: pg.Pool, fromMs: number, toMs: number): Promise<boolean> {
  const agg = create(
    AggregateLogsResponseSchema,
    await aggregateLogsHandler({ clickhouse: client, now: () => new Date(toMs) })(
      create(AggregateLogsRequestSchema, {
        ...HOT,
        receivedFrom: timestampFromMs(fromMs),
        receivedTo: timestampFromMs(toMs),
      }),
    ),
  );
  const pgCounts = await groupingSets(pool, fromMs, toMs);
  const facets = (xs: { value: string; count: bigint }[] | undefined) =>
    JSON.stringify((xs ?? []).map((x) => [x.value, Number(x.count)]));
  const same = (name: string, xs: { value: string; count: bigint }[] | undefined) =>
    facets(xs) === JSON.stringify(pgCounts.get(name) ?? []);
  const hist = agg.histogram
    .map((b) => Number(b.count))
    .filter((c) => c > 0)
    .sort()
    .join();
  const pgHist = (pgCounts.get("histogram") ?? [])
    .map(([, c]) => c)
    .sort()
    .join();
  return (
    hist === pgHist &&
    same("type", agg.byEventType) &&
    same("outcome", agg.byOutcome) &&
    same("trigger", agg.byTrigger) &&
    same("pull_request", agg.byPullRequest) &&
    same("batch_pull", agg.byBatchPullRequest)
  );
}

/**
 * Loads PostgreSQL and times its 30-day aggregate of the hot repository.
 * @returns the faster formulation's latency and name
 */
export async function postgresBaseline(
  client: ClickHouseClient,
  dir: string,
  endMs: number,
  n: number,
  runs: number,
  print: (l: string) => void,
): Promise<{ best: Latency; bestName: string }> {
  const server = await openServer(dir, print);
  const admin = new pg.Client({ connectionString: server.url });
  await admin.connect();
  const exists = (await admin.query("SELECT 1 FROM pg_database WHERE datname = 'ym_bench_log'")).rowCount;
  if (!exists) await admin.query("CREATE DATABASE ym_bench_log");
  await admin.end();
  const pool = new pg.Pool({ connectionString: server.url.replace(/\/[^/?]+(\?|$)/, "/ym_bench_log$1"), max: 6 });
  // Idle connections closed by the server's shutdown are expected at the end.
  pool.on("error", () => {});
  try {
    await load(pool, client, dir, n, print);
    const rnd = seededRandom(7);
    const month = () => {
      const shift = Math.floor(rnd() * 3_600_000);
      return [endMs - 30 * DAY - shift, endMs - shift] as const;
    };
    const gs = await measure(() => groupingSets(pool, ...month()), runs);
    const six = await measure(() => sixQueries(pool, ...month()), runs);
    print(
      `  30-day aggregate, one GROUPING SETS statement        p50 ${gs.p50.toFixed(1)} ms  p95 ${gs.p95.toFixed(1)} ms  (${gs.runs} samples)`,
    );
    print(
      `  30-day aggregate, six GROUP BYs on six connections   p50 ${six.p50.toFixed(1)} ms  p95 ${six.p95.toFixed(1)} ms  (${six.runs} samples)`,
    );
    print(
      `  PostgreSQL and ClickHouse give the same 30-day counts: ${(await agrees(client, pool, endMs - 30 * DAY, endMs)) ? "yes" : "NO"}`,
    );
    return six.p95 < gs.p95
      ? { best: six, bestName: "six concurrent GROUP BYs" }
      : { best: gs, bestName: "GROUPING SETS" };
  } finally {
    await pool.end();
    await server.stop();
  }
}
