/**
 * A GitHub Actions job's log, read for a retry rule's `log_pattern` (docs/ci-insights.md "Job
 * retries", docs/github.md "Operations"). `GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs`
 * answers 302 with a short-lived signed URL of the plain-text log
 * (<https://docs.github.com/en/rest/actions/workflow-jobs#download-job-logs-for-a-workflow-run>,
 * "Actions: read"); the URL is fetched without the installation token (it carries its own
 * signature, and the token must not leave GitHub's API).
 *
 * A log is untrusted and may be large: it is streamed, at most {@link LOG_READ_LIMIT} bytes are
 * read (the rest is not downloaded) within {@link LOG_TIME_LIMIT_MS}, and only the last
 * {@link LOG_TAIL_BYTES} bytes read are kept (where a job's error is). The pattern itself is
 * searched by CI Insights in a worker thread under a time limit.
 */
import { ForgeError } from "../types.js";
import type { GithubOctokit } from "./client.js";
import type { RepoParams } from "./repo-name.js";

/** Bytes of a log's end kept for the search: 1 MiB. */
export const LOG_TAIL_BYTES = 1024 * 1024;
/** Bytes of a log read at most: 64 MiB (a longer log's tail is that of its first 64 MiB). */
export const LOG_READ_LIMIT = 64 * 1024 * 1024;
/** Time the download may take, ms. */
export const LOG_TIME_LIMIT_MS = 30_000;

/** What {@link readJobLogTail} may be told. */
export interface LogLimits {
  tailBytes?: number;
  readLimit?: number;
  timeoutMs?: number;
}

/** The last `tailBytes` of `chunks` (oldest first), dropping older chunks as they pass. */
class Tail {
  private chunks: Uint8Array[] = [];
  private size = 0;
  constructor(private readonly limit: number) {}
  push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.size += chunk.byteLength;
    while (this.chunks.length > 1 && this.size - this.chunks[0]!.byteLength >= this.limit)
      this.size -= this.chunks.shift()!.byteLength;
  }
  text(): string {
    const all = Buffer.concat(this.chunks);
    return all.subarray(Math.max(0, all.byteLength - this.limit)).toString("utf8");
  }
}

/**
 * The end of job `jobId`'s log, as UTF-8 text (at most `tailBytes`, default 1 MiB).
 * @param fetchFn the fetch of the App's client (a test's double), used for the signed URL
 * @throws ForgeError not_found when GitHub has no log (expired, or the job never ran); Octokit's
 *   RequestError for another refusal (403 without "Actions: read"); transient when the download
 *   fails or takes longer than `timeoutMs`
 */
export async function readJobLogTail(
  gh: GithubOctokit,
  fetchFn: typeof fetch,
  p: RepoParams,
  jobId: number,
  limits: LogLimits = {},
): Promise<string> {
  const res = await gh.request("GET /repos/{owner}/{repo}/actions/jobs/{job_id}/logs", {
    ...p,
    job_id: jobId,
    request: { redirect: "manual" },
  });
  const location = (res.headers as Record<string, string | undefined>).location;
  if (!location) throw new ForgeError("not_found", `job ${jobId} has no log to download (no redirect)`);
  const timeoutMs = limits.timeoutMs ?? LOG_TIME_LIMIT_MS;
  const readLimit = limits.readLimit ?? LOG_READ_LIMIT;
  const tail = new Tail(limits.tailBytes ?? LOG_TAIL_BYTES);
  try {
    const log = await fetchFn(location, { signal: AbortSignal.timeout(timeoutMs) });
    if (log.status === 404 || log.status === 410) throw new ForgeError("not_found", `job ${jobId}'s log is gone`);
    if (!log.ok || !log.body) throw new ForgeError("transient", `job ${jobId}'s log: HTTP ${log.status}`);
    let read = 0;
    const reader = log.body.getReader();
    while (read < readLimit) {
      const { done, value } = await reader.read();
      if (done) break;
      const part = value.byteLength > readLimit - read ? value.subarray(0, readLimit - read) : value;
      read += part.byteLength;
      tail.push(part);
    }
    await reader.cancel().catch(() => {});
  } catch (e) {
    if (e instanceof ForgeError) throw e;
    throw new ForgeError("transient", `job ${jobId}'s log could not be read: ${(e as Error).message}`);
  }
  return tail.text();
}
