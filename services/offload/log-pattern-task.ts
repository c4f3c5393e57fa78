/**
 * A retry rule's log pattern searched in a job's log, as a task for a worker thread
 * (docs/ci-insights.md "Job retries"): the pattern is a repository's regular expression and the
 * log up to a mebibyte, so a pattern that backtracks can only hit the pool's time limit, never
 * hold the event loop.
 */

/** What crosses to the thread. */
export interface LogPatternTask {
  /** An ECMAScript regular expression, without flags. */
  pattern: string;
  text: string;
}

/** The first match (its first 200 characters), or null; a pattern that does not compile is null too. */
export function matchLogPattern(task: LogPatternTask): string | null {
  let re: RegExp;
  try {
    re = new RegExp(task.pattern, "m");
  } catch {
    return null;
  }
  const m = re.exec(task.text);
  return m === null ? null : m[0].slice(0, 200);
}
