/**
 * `mergify ci junit-process` and `mergify tests quarantine|unquarantine|quarantined|show`: the
 * requests the client builds and the structs it decodes the answers with, translated from its
 * sources (SOURCES.junitUpload, SOURCES.junitQuarantine, SOURCES.testsQuarantine,
 * SOURCES.testsShow). `DateTime<Utc>` is chrono's RFC 3339 parse; serde enums with
 * `#[serde(other)]` accept any string.
 */
import { z } from "zod";
import { opt, u64 } from "./serde.js";

const rfc3339 = z.string().refine((s) => /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(s), {
  message: "not an RFC 3339 date-time (chrono DateTime<Utc>)",
});

/** upload.rs `endpoint_url` and `upload`: the trace upload's path and headers (no JSON). */
export const tracesPath = (repo: string) => `/v1/repos/${repo}/ci/traces`;
export const traceHeaders = (token: string) => ({
  authorization: `Bearer ${token}`,
  "content-type": "application/x-protobuf",
  "content-encoding": "gzip",
});

/** quarantine.rs `check`: POST /v1/ci/{owner}/repositories/{repo}/quarantines/check {tests_names, branch}. */
export const checkPath = (owner: string, repo: string) => `/v1/ci/${owner}/repositories/${repo}/quarantines/check`;
/** quarantine.rs `CheckResponse`. */
export const CheckResponse = z.object({
  quarantined_tests_names: z.array(z.string()),
  non_quarantined_tests_names: z.array(z.string()),
});

/** tests_quarantine.rs: the quarantines path (POST add, GET list) and DELETE by id. */
export const quarantinesPath = (owner: string, repo: string) => `/v1/ci/${owner}/repositories/${repo}/quarantines`;
/** tests_quarantine.rs `AddQuarantineRequest` (branch skipped when None). */
export const addQuarantine = (test_name: string, reason: string, branch?: string) => ({
  test_name,
  reason,
  ...(branch === undefined ? {} : { branch }),
});
/** tests_quarantine.rs `AddQuarantineResponse`. */
export const AddQuarantineResponse = z.object({ id: z.string() });
/** tests_quarantine.rs `QuarantinedTest` (source defaults to "manual"). */
export const QuarantinedTest = z.object({
  id: z.string(),
  test_name: z.string(),
  reason: z.string(),
  branch: z.string().nullable(),
  created_at: rfc3339,
  source: z.string().default("manual"),
  is_recovered: z.boolean(),
});
/** tests_quarantine.rs `QuarantineList<QuarantinedTest>`. */
export const QuarantineList = z.object({ quarantined_tests: z.array(QuarantinedTest) });
/** tests_quarantine.rs `looks_like_uuid`: the id `unquarantine` deletes directly. */
export const looksLikeUuid = (v: string) =>
  /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/.test(v);

/** tests_show.rs: GET .../search/tests, then GET .../tests/{test_id}. */
export const searchPath = (owner: string, repo: string) => `/v1/ci/${owner}/repositories/${repo}/search/tests`;
export const detailsPath = (owner: string, repo: string, id: string) =>
  `/v1/ci/${owner}/repositories/${repo}/tests/${id}`;
/** tests_show.rs `SearchTestsResponse`. */
export const SearchTestsResponse = z.object({
  tests: z.array(z.object({ test_id: z.string(), pipeline_name: z.string(), job_name: z.string() })),
});
/** tests_show.rs `TestDetailsPull`. */
const TestDetailsPull = z.object({
  id: u64,
  number: u64,
  title: z.string(),
  user: z.object({ id: u64, login: z.string() }),
});
/** tests_show.rs `TestDetails` (`HealthStatus` and `LastConclusion` fall back to Unknown). */
export const TestDetails = z.object({
  repository: z.string(),
  test_name: z.string(),
  test_id: z.string(),
  health_status: z.string(),
  last_conclusion: z.string(),
  failure_ratio: z.number(),
  flakiness_ratio: z.number(),
  success_ratio: z.number(),
  flaky_detection_enabled: z.boolean(),
  first_failure_at: rfc3339.nullable(),
  first_failure_commit: z.string().nullable(),
  first_failure_pull: TestDetailsPull.nullable(),
  last_failure_at: rfc3339.nullable(),
  last_success_at: rfc3339.nullable(),
  test_framework: opt(z.string()),
  test_framework_version: opt(z.string()),
  test_programming_language: opt(z.string()),
  test_filepath: opt(z.string()),
  test_function_name: opt(z.string()),
});

/** http.rs `error_message`: the `detail` of a JSON error body, else the body text. */
export const errorText = (body: unknown) =>
  body !== null && typeof body === "object" && typeof (body as { detail?: unknown }).detail === "string"
    ? (body as { detail: string }).detail
    : JSON.stringify(body);
