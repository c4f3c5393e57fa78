/**
 * CI Insights in the running service (docs/ci-insights.md): its ClickHouse migrations, the
 * CiInsightsService, the sweep (auto-quarantine, expiry, recovery; every
 * `YARDMASTER_CI_INSIGHTS_SWEEP_SECONDS`, default 60), the list of tests kept between reads, the
 * `/metrics` figures, and the local CI's
 * reports and retries. It runs where the activity log runs (it needs ClickHouse); the forge it
 * asks for default branches and pull requests is set once it exists.
 */
import type { Logger } from "pino";
import { CiInsightsService } from "../../gen/yardmaster/v1/ci_insights_pb.js";
import { clusterLayout, type ClickHouseClient } from "../activity-log/index.js";
import {
  checkTestFacts,
  createCiInsightsService,
  createKeptHealth,
  decideRetry,
  flakyTestFiles,
  retriesWanted,
  ingestReport,
  migrateTestRuns,
  sweepCiInsights,
  type CiInsightsDeps,
  type CheckTestsAnswer,
  type CheckTestsQuery,
  type FlakyTestFilesQuery,
} from "../ci-insights/index.js";
import type {
  ForgePort,
  GithubJobRetryHook,
  LocalCiInsights,
  LocalCiJob,
  ReportsInput,
  ReportsVerdict,
} from "../forge/index.js";
import type { ServiceBinding } from "../gateway/index.js";
import type { Metrics } from "../metrics/index.js";
import { batchOfCheckBranch, ciInsightsStore, localForgeStore, type Pool } from "../store/index.js";

/** The pipeline name of the local CI's test runs (its jobs are the checks of `.yardmaster/ci.yml`). */
export const LOCAL_PIPELINE = "yardmaster-ci";

/** What {@link wireCiInsights} gives the server. */
export interface CiInsightsWiring {
  /** The local CI's hooks (FORGE=local). */
  localCi: LocalCiInsights;
  /** The retry decision of a failed GitHub Actions job (FORGE=github). */
  githubRetries: GithubJobRetryHook;
  /** Sets the forge asked for default branches and pull requests. */
  setForge(forge: ForgePort): void;
  /** The facts the merge queue reads about a failed check (docs/merge-queue.md "Verdicts from test results"). */
  testResults(query: CheckTestsQuery): Promise<CheckTestsAnswer | null>;
  /**
   * The files of the tests known flaky on a base branch, from the kept list of tests; null when CI
   * Insights is off for the repository (docs/merge-queue.md "Risk-aware batching").
   */
  flakyTestFiles(query: FlakyTestFilesQuery): Promise<ReadonlySet<string> | null>;
}

/** Seconds between two sweeps: `YARDMASTER_CI_INSIGHTS_SWEEP_SECONDS` (1-3600), default 60. */
function sweepSeconds(): number {
  const n = Number(process.env.YARDMASTER_CI_INSIGHTS_SWEEP_SECONDS);
  return Number.isInteger(n) && n >= 1 && n <= 3600 ? n : 60;
}

/**
 * Migrates, builds the service and starts the sweep; adds the service to `bindings` and its stop to
 * `cleanups`.
 */
export async function wireCiInsights(
  input: {
    db: Pool;
    clickhouse: ClickHouseClient;
    cluster?: string;
    logger: Logger;
    eventsWritten: () => void;
    metrics: Metrics;
  },
  bindings: ServiceBinding[],
  cleanups: (() => Promise<void>)[],
): Promise<CiInsightsWiring> {
  const logger = input.logger.child({ component: "ci-insights" });
  const applied = await migrateTestRuns(input.clickhouse, input.cluster ? clusterLayout(input.cluster) : undefined);
  if (applied.length) logger.info({ migrations: applied }, "CI Insights ClickHouse migrations applied");
  let forge: ForgePort | null = null;
  const keptHealth = createKeptHealth(input.clickhouse, {
    onError: (err, key) =>
      logger.warn({ err, ...key }, "CI Insights list of tests not recomputed; the last one is served"),
  });
  const deps: CiInsightsDeps = {
    keptHealth,
    db: input.db,
    clickhouse: input.clickhouse,
    logger,
    eventsWritten: input.eventsWritten,
    figures: { testRunsStored: (o) => input.metrics.ciInsights.testRunsStored(o) },
    defaultBranch: async (repository) => (forge ? forge.getDefaultBranch(repository) : null),
    describePull: async (repository, number) => {
      if (!forge) return null;
      const p = await forge.getPullRequest(repository, number);
      return { id: p.number, number: p.number, title: p.title, user: { id: p.author.id, login: p.author.login } };
    },
  };
  input.metrics.ciInsights.watchQuarantines(() => ciInsightsStore.quarantineCounts(input.db));
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    if (running !== null) return;
    running = sweepCiInsights(deps)
      .catch((e) => logger.warn({ err: e }, "CI Insights sweep failed; it runs again later"))
      .finally(() => (running = null));
  }, sweepSeconds() * 1000);
  timer.unref();
  bindings.push({ service: CiInsightsService, impl: createCiInsightsService(deps) } as ServiceBinding);
  cleanups.push(async () => {
    clearInterval(timer);
    await running;
    await keptHealth.close();
  });
  return {
    localCi: localCiInsights(deps),
    githubRetries: {
      wanted: (repository) => retriesWanted(deps, repository),
      decide: async (job) => {
        const decision = await decideRetry(deps, job);
        return decision.retry ? { mode: decision.mode, replayed: decision.replayed === true } : null;
      },
    },
    setForge: (f) => void (forge = f),
    testResults: (query) => checkTestFacts(deps, query),
    flakyTestFiles: (query) => flakyTestFiles(deps, query),
  };
}

/** Where a local CI job's runs belong: the batch checked on its branch, or the pull requests whose head it is. */
async function jobContext(deps: CiInsightsDeps, job: LocalCiJob) {
  if (job.branch === null) return { batchId: "", pullRequests: [] as number[], baseBranch: "" };
  const batch = await batchOfCheckBranch(deps.db, job.repository, job.branch);
  if (batch) return { batchId: batch.id, pullRequests: batch.members, baseBranch: batch.baseBranch };
  const repo = await localForgeStore.findLocalRepository(deps.db, job.repository);
  const pulls = repo ? await localForgeStore.openPullsWithHead(deps.db, repo.id, job.branch) : [];
  return { batchId: "", pullRequests: pulls.map((p) => p.number), baseBranch: pulls[0]?.baseBranch ?? "" };
}

/**
 * The local CI's CI Insights: its reports stored per file, a pull request check's quarantined
 * failures passed (a batch's are the queue's to judge), retries decided.
 */
function localCiInsights(deps: CiInsightsDeps): LocalCiInsights {
  return {
    async reports(job: LocalCiJob, r: ReportsInput): Promise<ReportsVerdict> {
      const where = await jobContext(deps, job);
      const lines = [...r.notes];
      const failing = new Map<string, boolean>();
      let stored = 0;
      for (const file of r.files) {
        try {
          const result = await ingestReport(deps, {
            repository: job.repository,
            kind: "junit",
            bytes: file.bytes,
            run: {
              pipeline: LOCAL_PIPELINE,
              job: r.check,
              headSha: job.sha,
              branch: job.branch ?? "",
              baseBranch: where.baseBranch,
              runId: String(job.jobId),
              attempt: job.attempt,
            },
            batchId: where.batchId,
            pullRequests: where.pullRequests,
          });
          stored += result.testRuns;
          for (const f of result.failing) failing.set(f.name, f.quarantined);
        } catch (e) {
          lines.push(`${file.path} was not stored: ${(e as Error).message}`);
        }
      }
      if (r.files.length) lines.push(`CI Insights stored ${stored} test runs from ${r.files.length} JUnit report(s)`);
      const quarantined = [...failing].filter(([, q]) => q).map(([n]) => n);
      const blocking = [...failing].filter(([, q]) => !q).map(([n]) => n);
      // A batch's verdict is the merge queue's (docs/merge-queue.md "Verdicts from test results"):
      // its check keeps failing here, and the queue ignores quarantined failures itself.
      const batch = where.batchId !== "";
      const only = r.state === "failure" && quarantined.length > 0 && blocking.length === 0 && !batch;
      const what = only
        ? "passed: its only failing tests are quarantined"
        : batch
          ? "quarantined failing tests, left to the merge queue's verdict"
          : "quarantined failing tests";
      if (quarantined.length)
        lines.push(
          `${what} (${quarantined.length}): ${quarantined.slice(0, 20).join(", ")}${quarantined.length > 20 ? ", ..." : ""}`,
        );
      return { lines, onlyQuarantinedFailures: only };
    },
    async retry(job, result) {
      const decision = await decideRetry(deps, {
        repository: job.repository,
        pipeline: LOCAL_PIPELINE,
        job: result.name,
        branch: job.branch ?? "",
        headSha: job.sha,
        conclusion: result.state,
        log: result.output,
        workflowRunId: null,
        jobUrl: null,
      });
      return decision.retry ? decision.mode : null;
    },
  };
}
