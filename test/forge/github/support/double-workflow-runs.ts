/**
 * GitHub Actions workflow runs in the test double: each run of a job (double-actions.ts) is a
 * workflow run with attempts, as GitHub documents
 * (https://docs.github.com/en/rest/actions/workflow-runs, .../workflow-jobs):
 * - a run has an id, the workflow's name, its head SHA and branch, an attempt number (1, then one
 *   more per re-run) and the jobs of each attempt; a job's id is its check run's id;
 * - `GET .../actions/runs/{run_id}` describes the run (its latest `run_attempt`);
 * - `GET .../actions/runs/{run_id}/attempts/{n}/jobs` lists an attempt's jobs;
 * - `GET .../actions/jobs/{job_id}/logs` answers 302 to the job's plain-text log at a signed URL
 *   (here `/_double/actions-logs/...` on the double's origin), which is fetched without a token:
 *   a request carrying one is a problem the test sees;
 * - `POST .../actions/jobs/{job_id}/rerun`, `.../actions/runs/{run_id}/rerun` and
 *   `.../rerun-failed-jobs` start the next attempt with the jobs asked (the others keep their
 *   result), each job again a new check run.
 * The run's `workflow_run` completed event is emitted by double-events.ts.
 */
import { DOCS, example, linkHeaders, notFound, page, type Answer, type Handler } from "./double-answers.js";
import { iso } from "./double-json.js";
import type { DoubleRepo } from "./double-state.js";
import type { GithubDouble } from "./github-double.js";

/** One job of one attempt. */
export interface DoubleRunJob {
  /** Its check run's id. */
  id: number;
  name: string;
  status: "in_progress" | "completed";
  conclusion: string | null;
  startedAt: Date;
  completedAt: Date | null;
  /** Its log (plain text), once completed. */
  log: string;
}

/** A workflow run. */
export interface DoubleWorkflowRun {
  id: number;
  /** The workflow's name. */
  name: string;
  headSha: string;
  headBranch: string;
  event: string;
  /** The jobs of each attempt; `attempts.length` is the run's attempt number. */
  attempts: DoubleRunJob[][];
}

/** What re-runs a run's jobs (DoubleActions). */
export interface DoubleRerunner {
  rerun(repo: DoubleRepo, run: DoubleWorkflowRun, which: (job: DoubleRunJob) => boolean): Promise<void>;
}

/** Where the double serves job logs. */
export const ACTIONS_LOG_PATH = "/_double/actions-logs/";

/** The latest attempt's jobs. */
export const latest = (run: DoubleWorkflowRun) => run.attempts.at(-1)!;
/** Whether every job of the latest attempt completed. */
export const runCompleted = (run: DoubleWorkflowRun) => latest(run).every((j) => j.status === "completed");
/** A completed run's conclusion: failure when a job failed, else success. */
export const runConclusion = (run: DoubleWorkflowRun) =>
  !runCompleted(run) ? null : latest(run).some((j) => j.conclusion !== "success") ? "failure" : "success";

function findJob(repo: DoubleRepo, jobId: number): { run: DoubleWorkflowRun; job: DoubleRunJob } | null {
  for (const run of repo.workflowRuns)
    for (const attempt of run.attempts) for (const job of attempt) if (job.id === jobId) return { run, job };
  return null;
}

/** `workflow_run` as webhook payloads and the runs API carry it (the fields the adapter reads, and their neighbours). */
export function workflowRunJson(repo: DoubleRepo, run: DoubleWorkflowRun): Record<string, unknown> {
  return {
    id: run.id,
    name: run.name,
    head_sha: run.headSha,
    head_branch: run.headBranch,
    event: run.event,
    run_attempt: run.attempts.length,
    status: runCompleted(run) ? "completed" : "in_progress",
    conclusion: runConclusion(run),
    html_url: `https://github.com/${repo.fullName}/actions/runs/${run.id}`,
  };
}

function jobJson(ctx: Parameters<Handler>[0], run: DoubleWorkflowRun, job: DoubleRunJob, attempt: number) {
  const t = example("actions/list-jobs-for-workflow-run-attempt", 200).jobs[0];
  const r = ctx.repo.fullName;
  return {
    ...t,
    id: job.id,
    run_id: run.id,
    run_attempt: attempt,
    name: job.name,
    workflow_name: run.name,
    head_sha: run.headSha,
    head_branch: run.headBranch,
    status: job.status,
    conclusion: job.conclusion,
    created_at: iso(job.startedAt),
    started_at: iso(job.startedAt),
    completed_at: job.completedAt ? iso(job.completedAt) : null,
    url: `https://api.github.com/repos/${r}/actions/jobs/${job.id}`,
    html_url: `https://github.com/${r}/actions/runs/${run.id}/job/${job.id}`,
    run_url: `https://api.github.com/repos/${r}/actions/runs/${run.id}`,
    check_run_url: `https://api.github.com/repos/${r}/check-runs/${job.id}`,
  };
}

const rerunner = (ctx: Parameters<Handler>[0]) => {
  if (!ctx.double.rerunner) throw new Error("the double's Actions are not running (DoubleActions)");
  return ctx.double.rerunner;
};
const forbidden = (message: string): Answer => ({ status: 403, body: { message, documentation_url: DOCS } });

export const workflowRunHandlers: Record<string, Handler> = {
  "actions/get-workflow-run": (ctx) => {
    const run = ctx.repo.workflowRuns.find((r) => r.id === Number(ctx.params.run_id));
    if (!run) return notFound();
    return { status: 200, body: { ...example("actions/get-workflow-run", 200), ...workflowRunJson(ctx.repo, run) } };
  },

  "actions/list-jobs-for-workflow-run-attempt": (ctx) => {
    const run = ctx.repo.workflowRuns.find((r) => r.id === Number(ctx.params.run_id));
    const n = Number(ctx.params.attempt_number);
    const jobs = run?.attempts[n - 1];
    if (!run || !jobs) return notFound();
    const all = jobs.map((j) => jobJson(ctx, run, j, n));
    return {
      status: 200,
      body: { total_count: all.length, jobs: page(all, ctx.query) },
      headers: linkHeaders(ctx, all.length),
    };
  },

  "actions/download-job-logs-for-workflow-run": (ctx) => {
    const found = findJob(ctx.repo, Number(ctx.params.job_id));
    if (!found || found.job.status !== "completed") return notFound();
    const signed = `${ACTIONS_LOG_PATH}${ctx.repo.fullName}/${found.job.id}?sig=double`;
    return { status: 302, headers: { location: `https://api.github.com${signed}` } };
  },

  "actions/re-run-job-for-workflow-run": async (ctx) => {
    const found = findJob(ctx.repo, Number(ctx.params.job_id));
    if (!found) return notFound();
    if (!runCompleted(found.run)) return forbidden("This workflow run is not completed");
    await rerunner(ctx).rerun(ctx.repo, found.run, (j) => j.name === found.job.name);
    return { status: 201, body: {} };
  },

  "actions/re-run-workflow": async (ctx) => {
    const run = ctx.repo.workflowRuns.find((r) => r.id === Number(ctx.params.run_id));
    if (!run) return notFound();
    await rerunner(ctx).rerun(ctx.repo, run, () => true);
    return { status: 201, body: {} };
  },

  "actions/re-run-workflow-failed-jobs": async (ctx) => {
    const run = ctx.repo.workflowRuns.find((r) => r.id === Number(ctx.params.run_id));
    if (!run) return notFound();
    await rerunner(ctx).rerun(ctx.repo, run, (j) => j.conclusion !== "success");
    return { status: 201, body: {} };
  },
};

/**
 * The answer to a request of a job log's signed URL (not an API operation): the log as plain text,
 * 404 for an unknown job; a request carrying an `Authorization` header is recorded as a problem.
 */
export function serveJobLog(double: GithubDouble, url: URL, authorization: string | null): Response {
  if (authorization) double.problems.push(`${url.pathname}: a job log's signed URL was fetched with a token`);
  const [owner, name, id] = url.pathname.slice(ACTIONS_LOG_PATH.length).split("/");
  const repo = double.repo(owner ?? "", name ?? "");
  const found = repo ? findJob(repo, Number(id)) : null;
  if (!found) return new Response("Not Found", { status: 404 });
  return new Response(found.job.log, { status: 200, headers: { "content-type": "text/plain; charset=utf-8" } });
}
