/**
 * Reporting the merge protections of a pull request (docs/merge-protections.md "How it runs"), in
 * the round's transaction: the verdict (evaluate.ts) is compared with the report last decided
 * (`merge_protection_reports`); a new conclusion, title, summary or head decides a new report (an
 * effect, effect.ts), with a comment when the protections start failing and `post_comment` is on.
 * The `Depends-On:` pull requests are recorded for the reverse lookup, the clock's next change of
 * the verdict is kept as a durable timer (`protections/<number>`, like the timers of workflow
 * automation), and a queued pull request is held or released (merge_protections_evaluated).
 * Closed pull requests keep no timer; the queue's own drafts are not evaluated.
 */
import type { PullRequestSnapshot } from "../../forge/index.js";
import {
  cancelTimer,
  lastProtectionReport,
  replaceProtectionDependencies,
  saveProtectionReport,
  setTimer,
  type ProtectionReport,
} from "../../store/index.js";
import type { ProtectionsVerdict } from "../../config/index.js";
import type { IngressEnv } from "../ingress-env.js";
import { isQueueDraft } from "../rule-actions/trigger.js";
import { autoMergeDirectly } from "./auto-merge.js";
import { holdOf, protectionsOf } from "./evaluate.js";

/** Key prefix of the timer that evaluates a pull request's protections again (then its number). */
export const PROTECTIONS_TIMER_PREFIX = "protections/";

/** The pull request number of a timer key, or null when the timer is not a protections timer. */
export function protectionsTimerNumber(key: string): number | null {
  if (!key.startsWith(PROTECTIONS_TIMER_PREFIX)) return null;
  const n = Number(key.slice(PROTECTIONS_TIMER_PREFIX.length));
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

const same = (last: ProtectionReport | null, headSha: string, v: ProtectionsVerdict) =>
  last !== null &&
  last.headSha === headSha &&
  last.conclusion === v.conclusion &&
  last.title === v.title &&
  last.summary === v.summary;

/**
 * Evaluates and reports the protections of `pr` (nothing when the product is disabled).
 * @throws ForgeError when the forge cannot be read; the database's error
 */
export async function reportProtections(env: IngressEnv, pr: PullRequestSnapshot): Promise<void> {
  if (!env.products.merge_protections) return;
  const timer = `${PROTECTIONS_TIMER_PREFIX}${pr.number}`;
  if (pr.state !== "open") {
    await cancelTimer(env.client, env.repository, timer);
    await replaceProtectionDependencies(env.client, env.repository, pr.number, []);
    return;
  }
  if (isQueueDraft(env, pr)) return;
  const { verdict, facts } = await protectionsOf(env, pr);
  await replaceProtectionDependencies(env.client, env.repository, pr.number, facts.dependsOn);
  const last = await lastProtectionReport(env.client, env.repository, pr.number);
  if (!same(last, pr.headSha, verdict)) {
    const seq = (last?.seq ?? 0) + 1;
    const report = {
      headSha: pr.headSha,
      conclusion: verdict.conclusion,
      title: verdict.title,
      summary: verdict.summary,
    };
    await saveProtectionReport(env.client, env.repository, pr.number, { ...report, seq });
    const settings = env.config.config.merge_protections_settings;
    const startsFailing =
      verdict.conclusion === "failure" && !(last?.conclusion === "failure" && last.headSha === pr.headSha);
    env.ruleEffect({
      kind: "protections_report",
      key: `${env.repository}#${pr.number}#protections#${seq}`,
      number: pr.number,
      baseRef: pr.base,
      ...report,
      method: settings.reporting_method,
      comment: settings.post_comment && startsFailing,
    });
  }
  if (verdict.nextChangeAt === null) await cancelTimer(env.client, env.repository, timer);
  else await setTimer(env.client, env.repository, timer, verdict.nextChangeAt);
  holdQueued(env, pr.number, holdOf(verdict));
  await autoMergeDirectly(env, pr, verdict);
}

/** Tells the engine that merge protections hold queued pull request `number` (or no longer do). */
export function holdQueued(env: IngressEnv, number: number, hold: string | null): void {
  const entry = env.state().pulls[String(number)];
  if (!entry || (entry.protectionsHold ?? null) === hold) return;
  env.emit({ type: "merge_protections_evaluated", number, hold });
}
