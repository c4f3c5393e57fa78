/**
 * The files of the tests known flaky on a branch (docs/ci-insights.md "For the merge queue";
 * docs/merge-queue.md "Risk-aware batching"): what the merge queue compares with a pull request's
 * diff when it enters a queue whose rule has `risk_aware_batching`. "Known flaky" is the health
 * the queue's verdicts use (health.ts: `flaky` on the branch over the repository's window), read
 * from the list of tests kept between reads (kept-health.ts), so an enqueue costs no ClickHouse
 * scan of its own: the first read of a branch computes its list (as the Tests page would), later
 * ones are served the kept list. Paths are normalised as the queue's verdicts do (`./a` = `a`);
 * a test whose report named no file is left out.
 */
import { productStates, ciInsightsStore as store } from "../store/index.js";
import { nowOf, type CiInsightsDeps } from "./deps.js";
import { healthList, type HealthList } from "./health-page.js";

/** The most files a branch's set holds: the list's order puts the most failing flaky tests first. */
export const MAX_FLAKY_TEST_FILES = 10_000;

/** What is asked: the repository and the branch health is read on (the queue's base branch). */
export interface FlakyTestFilesQuery {
  repository: string;
  baseBranch: string;
}

/** A test file's path as the queue compares it: without a leading `./` (`./a` = `a`). */
export const normaliseTestPath = (path: string): string => path.replace(/^(\.\/)+/, "");

/** Per kept list, its set (computed once per list computation, not once per read). */
const sets = new WeakMap<HealthList, ReadonlySet<string>>();

/** The files of the flaky tests of `list`, at most {@link MAX_FLAKY_TEST_FILES}, in list order. */
export function flakyFilesOf(list: HealthList): ReadonlySet<string> {
  const kept = sets.get(list);
  if (kept) return kept;
  const files = new Set<string>();
  for (const t of list.tests) {
    if (files.size >= MAX_FLAKY_TEST_FILES) break;
    if (t.status !== "flaky") continue;
    const file = normaliseTestPath(t.file);
    if (file !== "") files.add(file);
  }
  sets.set(list, files);
  return files;
}

/**
 * The normalised files of the tests whose health on `q.baseBranch` is `flaky` over the
 * repository's window (auto-quarantine settings, default 14 days); null when CI Insights is off
 * for the repository. With `deps.keptHealth` the kept list is read (computed now only when there
 * is none yet); without it the list is computed.
 * @throws ClickHouseError when the list has to be computed and a query fails; a PostgreSQL error
 *   when the product state or settings cannot be read
 */
export async function flakyTestFiles(
  deps: CiInsightsDeps,
  q: FlakyTestFilesQuery,
): Promise<ReadonlySet<string> | null> {
  if (!(await productStates(deps.db, q.repository)).ci_insights) return null;
  const windowDays = (await store.autoQuarantineSettings(deps.db, q.repository)).windowDays;
  const now = nowOf(deps);
  const list = deps.keptHealth
    ? await deps.keptHealth.list({ repository: q.repository, branch: q.baseBranch, windowDays })
    : await healthList(
        deps.clickhouse,
        { repository: q.repository, branch: q.baseBranch, from: new Date(now.getTime() - windowDays * 86_400_000) },
        now,
      );
  return flakyFilesOf(list);
}
