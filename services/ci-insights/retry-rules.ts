/**
 * Job retry rules (docs/ci-insights.md "Job retries"): a job that ended failed (or timed out,
 * cancelled, errored: the rule's `conclusions`) and matches a rule's job, pipeline and branch
 * globs and its log pattern is re-run — the job alone or its whole pipeline (`retry_mode`) — at
 * most `max_retry` times per job and commit, and at most the repository's daily quota (UTC days)
 * of retries in all. The first matching rule decides; its decision is logged as
 * ci_insights.job_retried with the outcome `retried` or `skipped_quota_exceeded`, in the
 * transaction that counts it. Nothing is retried while CI Insights is disabled.
 */
import { randomUUID } from "node:crypto";
import { DomainError, invalidField } from "../contracts/index.js";
import { matchLogPatternBounded } from "../offload/index.js";
import { appendToOutbox, ciInsightsStore as store, productStates, withTransaction } from "../store/index.js";
import { nowOf, type CiInsightsDeps } from "./deps.js";
import { jobRetriedEvent } from "./events.js";

type RetryRuleRow = store.RetryRuleRow;

/** A rule as a person creates it. */
export type RetryRuleInput = Omit<RetryRuleRow, "id" | "createdAt">;

/**
 * Adds a rule.
 * @throws InvalidArgumentError naming log_pattern when it does not compile; DomainError
 *   already_exists for a name in use
 */
export async function createRetryRule(deps: CiInsightsDeps, input: RetryRuleInput): Promise<RetryRuleRow> {
  try {
    new RegExp(input.logPattern, "m");
  } catch (e) {
    throw invalidField("log_pattern", `is not a regular expression: ${(e as Error).message}`);
  }
  const row = await store.insertRetryRule(deps.db, { ...input, id: randomUUID(), createdAt: nowOf(deps) });
  if (row === null) throw new DomainError("already_exists", `a retry rule named "${input.name}" exists already`);
  return row;
}

/** A finished job, as the CI that ran it says it. */
export interface FinishedJob {
  repository: string;
  pipeline: string;
  job: string;
  branch: string;
  headSha: string;
  /** failure, timed_out, cancelled or error (success is never retried). */
  conclusion: string;
  /**
   * The job's log (its last mebibyte), or how to read it: called once, and only when a rule with a
   * `log_pattern` matches the job otherwise (a GitHub job's log is a download).
   */
  log: string | (() => Promise<string>);
  workflowRunId: number | null;
  jobUrl: string | null;
  /**
   * The decision's idempotency key, when the same finished job may be handed over again (on GitHub
   * a webhook delivered twice or redelivered: the check run's id and the run's attempt). A second
   * decision for a key answers the first one's outcome, counting and logging nothing.
   */
  decisionKey?: string;
}

/** What to do with a finished job. */
export type RetryDecision =
  | { retry: true; mode: "job" | "pipeline"; rule: string; attempt: number; replayed?: true }
  | {
      retry: false;
      reason: "disabled" | "no_rule" | "exhausted" | "skipped_quota_exceeded";
      rule?: string;
      replayed?: true;
    };

/** `*` any run of characters, `?` one; everything else literal; whole string. */
function globMatches(glob: string, value: string): boolean {
  const re = glob
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  return new RegExp(`^${re}$`, "s").test(value);
}

const anyGlob = (globs: readonly string[], value: string) =>
  globs.length === 0 || globs.some((g) => globMatches(g, value));

/**
 * Whether a finished job of `repository` could be retried at all: CI Insights is enabled there and
 * it has a retry rule. A CI whose jobs cost requests to describe (GitHub Actions) asks this first.
 */
export async function retriesWanted(deps: CiInsightsDeps, repository: string): Promise<boolean> {
  if (!(await productStates(deps.db, repository)).ci_insights) return false;
  return (await store.listRetryRules(deps.db, repository)).length > 0;
}

/**
 * Decides whether to retry `job`, counts and logs the decision (see the module comment). With a
 * `decisionKey` already decided, answers that decision again (`replayed`), counting and logging
 * nothing: a redelivered webhook costs no second unit of quota.
 */
export async function decideRetry(deps: CiInsightsDeps, job: FinishedJob): Promise<RetryDecision> {
  if (job.conclusion === "success") return { retry: false, reason: "no_rule" };
  if (!(await productStates(deps.db, job.repository)).ci_insights) return { retry: false, reason: "disabled" };
  let log: Promise<string> | undefined;
  for (const rule of await store.listRetryRules(deps.db, job.repository)) {
    const conclusions = rule.conclusions.length ? rule.conclusions : ["failure"];
    if (!conclusions.includes(job.conclusion)) continue;
    if (!anyGlob(rule.jobNames, job.job) || !anyGlob(rule.pipelineNames, job.pipeline)) continue;
    if (!anyGlob(rule.branches, job.branch)) continue;
    const matches: Record<string, unknown>[] = [
      {
        type: "simple",
        job_name: job.job,
        pipeline_name: job.pipeline,
        branch: job.branch,
        conclusion: job.conclusion,
      },
    ];
    if (rule.logPattern !== "") {
      log ??= typeof job.log === "string" ? Promise.resolve(job.log) : job.log();
      const text = await log.catch((e: unknown) => {
        deps.logger.warn({ err: e, job: job.job }, "the job's log could not be read: its log patterns do not match");
        return null;
      });
      if (text === null) continue;
      const found = await matchLogPatternBounded(rule.logPattern, text).catch(() => null);
      if (found === null) continue;
      matches.push({ type: "log_pattern_on_job_log", pattern: rule.logPattern, match: found });
    }
    const now = nowOf(deps);
    const key = job.decisionKey;
    const taken = await withTransaction(deps.db, async (client) => {
      const prior = key === undefined ? null : await store.claimRetryDecision(client, job.repository, key, now);
      if (prior !== null) return { outcome: "replayed" as const, prior };
      const quota = await store.dailyRetryQuota(client, job.repository);
      const t = await store.takeRetry(client, {
        repository: job.repository,
        day: now.toISOString().slice(0, 10),
        quota,
        // JSON, not NUL separators: PostgreSQL's text holds no NUL, and names may hold any other character.
        jobKey: JSON.stringify([job.pipeline, job.job, job.headSha]),
        maxRetry: rule.maxRetry,
        now,
      });
      if (key !== undefined)
        await store.recordRetryDecision(client, job.repository, key, {
          outcome: t.outcome,
          ruleName: rule.name,
          retryMode: rule.retryMode,
          attempt: t.outcome === "retried" ? t.attempt : 0,
        });
      if (t.outcome === "exhausted") return t;
      await appendToOutbox(client, [
        jobRetriedEvent({
          repository: job.repository,
          branch: job.branch || null,
          ruleId: rule.id,
          ruleName: rule.name,
          maxRetry: rule.maxRetry,
          retryMode: rule.retryMode,
          attempt: t.outcome === "retried" ? t.attempt : 0,
          conditionMatches: matches,
          outcome: t.outcome,
          workflowRunId: job.workflowRunId,
          jobUrl: job.jobUrl,
        }),
      ]);
      return t;
    });
    if (taken.outcome === "replayed") {
      const p = taken.prior;
      if (p.outcome === "retried")
        return { retry: true, mode: p.retryMode, rule: p.ruleName, attempt: p.attempt, replayed: true };
      return { retry: false, reason: p.outcome, rule: p.ruleName, replayed: true };
    }
    if (taken.outcome !== "exhausted") deps.eventsWritten();
    if (taken.outcome === "retried")
      return { retry: true, mode: rule.retryMode, rule: rule.name, attempt: taken.attempt };
    return { retry: false, reason: taken.outcome, rule: rule.name };
  }
  return { retry: false, reason: "no_rule" };
}
