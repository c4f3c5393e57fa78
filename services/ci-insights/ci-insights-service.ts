/**
 * CiInsightsService (ci_insights.proto): protobuf requests and answers to and from CI Insights'
 * domain (ingest.ts, quarantine.ts, reads.ts, auto-quarantine.ts, retry-rules.ts). The caller's
 * principal (set by the gateway after authorizing the repository) is the actor of logged changes.
 */
import { create } from "@bufbuild/protobuf";
import { timestampDate, timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import {
  AutoQuarantineSettingsSchema,
  ListRetryRulesResponseSchema,
  RetryRuleSchema,
  type CiInsightsService,
} from "../../gen/yardmaster/v1/ci_insights_pb.js";
import { principalKey, type ActorInfo } from "../auth/index.js";
import { DomainError, invalidField } from "../contracts/index.js";
import { ciInsightsStore as store } from "../store/index.js";
import { updateAutoQuarantine } from "./auto-quarantine.js";
import { nowOf, type CiInsightsDeps } from "./deps.js";
import type { HealthStatus } from "./health.js";
import { ingestReport } from "./ingest.js";
import { checkQuarantines, createQuarantine, deleteQuarantine, listQuarantines } from "./quarantine.js";
import { findTests, listTests, testDetails, testRuns } from "./reads.js";
import { createRetryRule } from "./retry-rules.js";
import { quarantineView, testDetailsView, testRunView, testSummaryView } from "./views.js";

const repoOf = (req: { owner: string; repository: string }) => `${req.owner}/${req.repository}`;

function actorOf(ctx: HandlerContext): ActorInfo {
  const principal = ctx.values.get(principalKey);
  if (!principal) throw new Error("no principal on an authenticated call");
  return principal.actor;
}

/** The body of an upload RPC, or 422 naming `body` when there is none. */
function bodyOf(body: { data: Uint8Array } | undefined): Uint8Array {
  if (body === undefined || body.data.length === 0)
    throw invalidField("body", "is required: send the report as the request body");
  return body.data;
}

const settingsView = (s: store.AutoQuarantineRow) => create(AutoQuarantineSettingsSchema, s);

async function retryRulesView(deps: CiInsightsDeps, repository: string) {
  const [rules, quota, used] = await Promise.all([
    store.listRetryRules(deps.db, repository),
    store.dailyRetryQuota(deps.db, repository),
    store.retriesOn(deps.db, repository, nowOf(deps).toISOString().slice(0, 10)),
  ]);
  return create(ListRetryRulesResponseSchema, {
    rules: rules.map((r) => create(RetryRuleSchema, { ...r, createdAt: timestampFromDate(r.createdAt) })),
    dailyQuota: quota,
    retriesToday: used,
  });
}

/** Builds the service (docs/ci-insights.md). */
export function createCiInsightsService(deps: CiInsightsDeps): ServiceImpl<typeof CiInsightsService> {
  return {
    async uploadTraces(req) {
      const r = await ingestReport(deps, { repository: repoOf(req), kind: "otlp", bytes: bodyOf(req.body), run: {} });
      return {
        testRuns: BigInt(r.testRuns),
        runId: r.run.runId,
        quarantinedFailures: BigInt(r.failing.filter((f) => f.quarantined).length),
      };
    },
    async uploadJunit(req) {
      const r = await ingestReport(deps, {
        repository: repoOf(req),
        kind: "junit",
        bytes: bodyOf(req.body),
        framework: req.testFramework,
        run: {
          pipeline: req.pipelineName,
          job: req.jobName,
          headSha: req.headSha,
          branch: req.branch,
          runId: req.runId,
          attempt: req.runAttempt,
        },
        pullRequests: req.pullRequest === undefined ? [] : [Number(req.pullRequest)],
      });
      return {
        testRuns: BigInt(r.testRuns),
        runId: r.run.runId,
        quarantinedFailures: BigInt(r.failing.filter((f) => f.quarantined).length),
      };
    },
    async createQuarantine(req, ctx) {
      const q = await createQuarantine(
        deps,
        {
          repository: repoOf(req),
          testName: req.testName,
          reason: req.reason,
          branch: req.branch ?? null,
          assignee: req.assignee ?? null,
          expiresAt: req.expiresAt ? timestampDate(req.expiresAt) : null,
        },
        actorOf(ctx),
      );
      return { id: q.id };
    },
    async listQuarantines(req) {
      return { quarantinedTests: (await listQuarantines(deps, repoOf(req))).map(quarantineView) };
    },
    async deleteQuarantine(req, ctx) {
      await deleteQuarantine(deps, repoOf(req), req.id, actorOf(ctx));
      return {};
    },
    async checkQuarantines(req) {
      const r = await checkQuarantines(deps, repoOf(req), req.testsNames, req.branch);
      return { quarantinedTestsNames: r.quarantined, nonQuarantinedTestsNames: r.notQuarantined };
    },
    async searchTests(req) {
      const perPage = req.perPage || 100;
      const found = await findTests(deps, repoOf(req), {
        names: req.testName,
        pipelines: req.pipelineName,
        pipelinesExcluded: req.pipelineNameExclude,
        jobs: req.jobName,
        jobsExcluded: req.jobNameExclude,
        limit: perPage,
      });
      return {
        tests: found.map((t) => ({ testId: t.test_id, testName: t.name, pipelineName: t.pipeline, jobName: t.job })),
        size: found.length,
        perPage,
      };
    },
    async getTest(req) {
      const repository = repoOf(req);
      const d = await testDetails(deps, repository, req.testId, req.branch ?? null);
      return testDetailsView(repository, d.branch, d.health, d.pull, d.quarantine);
    },
    async listTests(req) {
      const r = await listTests(
        deps,
        repoOf(req),
        req.branch ?? null,
        req.healthStatus as HealthStatus[],
        req.perPage || 100,
        req.pageToken,
      );
      return {
        branch: r.branch,
        tests: r.tests.map((t) => testSummaryView(t.health, t.daily, t.quarantine)),
        totals: { healthy: BigInt(r.totals.healthy), flaky: BigInt(r.totals.flaky), broken: BigInt(r.totals.broken) },
        nextPageToken: r.nextPageToken,
      };
    },
    async listTestRuns(req) {
      return { runs: (await testRuns(deps, repoOf(req), req.testId, req.limit || 50)).map(testRunView) };
    },
    async getAutoQuarantine(req) {
      return settingsView(await store.autoQuarantineSettings(deps.db, repoOf(req)));
    },
    async updateAutoQuarantine(req, ctx) {
      const s = await updateAutoQuarantine(
        deps,
        repoOf(req),
        {
          enabled: req.enabled,
          windowDays: req.windowDays,
          minRuns: req.minRuns,
          flakinessThreshold: req.flakinessThreshold,
          ignoreBrokenOnDefaultBranch: req.ignoreBrokenOnDefaultBranch,
          recoveryDays: req.recoveryDays,
          expiryDays: req.expiryDays,
        },
        actorOf(ctx),
      );
      return settingsView(s);
    },
    async listRetryRules(req) {
      return retryRulesView(deps, repoOf(req));
    },
    async createRetryRule(req) {
      const r = await createRetryRule(deps, {
        repository: repoOf(req),
        name: req.name,
        jobNames: req.jobNames,
        pipelineNames: req.pipelineNames,
        branches: req.branches,
        conclusions: req.conclusions,
        logPattern: req.logPattern,
        maxRetry: req.maxRetry || 1,
        retryMode: (req.retryMode || "job") as "job" | "pipeline",
      });
      return create(RetryRuleSchema, { ...r, createdAt: timestampFromDate(r.createdAt) });
    },
    async deleteRetryRule(req) {
      if (!(await store.deleteRetryRule(deps.db, repoOf(req), req.id)))
        throw new DomainError("not_found", `no retry rule ${req.id} in ${repoOf(req)}`);
      return {};
    },
    async setRetryQuota(req) {
      await store.setDailyRetryQuota(deps.db, repoOf(req), req.dailyQuota);
      return retryRulesView(deps, repoOf(req));
    },
  };
}
