/**
 * The ClickHouse table of test runs (`test_runs`, migrations/ of this folder; docs/ci-insights.md
 * "Storage"): its migrations, the insert of an upload's rows (one block, so all or nothing), and
 * the reads that are not health (search, one test's runs). Every value travels as a query
 * parameter, never spliced into SQL.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { clickHouseTime, insertRaw, migrateClickHouse, type ClickHouseClient } from "../activity-log/index.js";

const DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), "migrations");

/** The table recording which of this folder's ClickHouse migrations ran. */
export const MIGRATIONS_TABLE = "ci_insights_schema_migrations";

/**
 * Applies this folder's ClickHouse migrations (`rewrite`: the cluster layout, as for the log).
 * @returns file names applied now
 */
export function migrateTestRuns(
  client: ClickHouseClient,
  rewrite?: (sql: string) => string | string[],
): Promise<string[]> {
  return migrateClickHouse(client, rewrite, { dir: DIR, table: MIGRATIONS_TABLE });
}

/** Whether an upload with this id was stored already (the bloom filter index finds it). */
export async function uploadStored(client: ClickHouseClient, repository: string, uploadId: string): Promise<boolean> {
  const rs = await client.query({
    query:
      "SELECT count() AS n FROM test_runs WHERE repository = {repo:String} AND upload_id = {upload:String} LIMIT 1",
    query_params: { repo: repository, upload: uploadId },
    format: "JSONEachRow",
  });
  const [row] = await rs.json<{ n: string }>();
  return Number(row?.n ?? 0) > 0;
}

/**
 * Inserts JSONEachRow rows, UTF-8 bytes serialised in a worker thread, as one block (at most
 * 500,000 rows, test-reports' limit): all stored or none. The bytes go to ClickHouse as they are
 * (insertRaw): neither the client's insert() (which would encode the rows again, row by row) nor a
 * query string of megabytes runs on the event loop (docs/ci-insights.md "Ingest").
 * @throws ClickHouseError (or chdb's error) when the insert fails
 */
export async function insertTestRuns(client: ClickHouseClient, data: Uint8Array): Promise<void> {
  await insertRaw(client, "test_runs", "JSONEachRow", data);
}

/** A test's identity as searched. */
export interface TestIdentityRow {
  test_id: string;
  name: string;
  pipeline: string;
  job: string;
}

/** Filters of a test search; empty lists do not filter. */
export interface TestSearch {
  names: string[];
  pipelines: string[];
  pipelinesExcluded: string[];
  jobs: string[];
  jobsExcluded: string[];
  limit: number;
}

/** Tests of the repository matching the filters (within the table's 90 days), by name. */
export async function searchTests(
  client: ClickHouseClient,
  repository: string,
  s: TestSearch,
): Promise<TestIdentityRow[]> {
  const where = ["repository = {repo:String}"];
  if (s.names.length) where.push("name IN {names:Array(String)}");
  if (s.pipelines.length) where.push("pipeline IN {pipelines:Array(String)}");
  if (s.pipelinesExcluded.length) where.push("pipeline NOT IN {pipelinesExcluded:Array(String)}");
  if (s.jobs.length) where.push("job IN {jobs:Array(String)}");
  if (s.jobsExcluded.length) where.push("job NOT IN {jobsExcluded:Array(String)}");
  const rs = await client.query({
    // Aliases differ from the columns: an alias named like a column would replace it in WHERE.
    query: `SELECT toString(test_id) AS id, any(name) AS test_name, any(pipeline) AS pipeline_name, any(job) AS job_name
            FROM test_runs WHERE ${where.join(" AND ")} GROUP BY test_id ORDER BY test_name, pipeline_name, job_name
            LIMIT {limit:UInt32}`,
    query_params: { repo: repository, ...s },
    format: "JSONEachRow",
  });
  const rows = await rs.json<{ id: string; test_name: string; pipeline_name: string; job_name: string }>();
  return rows.map((r) => ({ test_id: r.id, name: r.test_name, pipeline: r.pipeline_name, job: r.job_name }));
}

/** One stored execution, as read back. */
export interface TestRunRow {
  name: string;
  pipeline: string;
  job: string;
  file: string;
  outcome: "passed" | "failed" | "skipped" | "error";
  duration_ms: number;
  head_sha: string;
  branch: string;
  run_id: string;
  attempt: number;
  batch_id: string;
  pull_requests: string[];
  framework: string;
  language: string;
  failure_message: string;
  received_at: string;
}

/** The latest runs of a test on every branch, newest first. */
export async function runsOfTest(
  client: ClickHouseClient,
  repository: string,
  testId: string,
  limit: number,
): Promise<TestRunRow[]> {
  const rs = await client.query({
    query: `SELECT name, pipeline, job, file, toString(outcome) AS outcome, duration_ms, head_sha, toString(branch) AS branch, run_id, attempt,
              batch_id, pull_requests, toString(framework) AS framework, toString(language) AS language, failure_message,
              toString(received_at) AS received_at
            FROM test_runs WHERE repository = {repo:String} AND test_id = {id:UUID}
            ORDER BY received_at DESC LIMIT {limit:UInt32}`,
    query_params: { repo: repository, id: testId, limit },
    format: "JSONEachRow",
  });
  return rs.json<TestRunRow>();
}

/** A ClickHouse DateTime64(3) text (UTC) as a Date. */
export function fromClickHouseTime(text: string): Date {
  return new Date(`${text.replace(" ", "T")}Z`);
}

export { clickHouseTime };
