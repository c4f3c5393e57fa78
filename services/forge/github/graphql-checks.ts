/**
 * A commit's check runs and commit statuses as GitHub's GraphQL API gives them
 * (https://docs.github.com/en/graphql/reference/objects#commit: `checkSuites`, `status`), in the
 * port's terms (check-states.ts gives the mapping of states), and the fields the queries ask for.
 * REST's `filter=latest` is the latest run of each name per app: the same is kept here.
 */
import type { CheckRun } from "../types.js";
import { checkRunState, OWN_CHECK_APP } from "./check-states.js";

/** The selection of a `Commit` the queries use (inside `... on Commit { }`). */
export const COMMIT_CHECK_FIELDS = `checkSuites(first: 50) {
          pageInfo { hasNextPage }
          nodes {
            app { databaseId slug }
            checkRuns(first: 100, filterBy: { checkType: LATEST }) {
              pageInfo { hasNextPage }
              nodes { name status conclusion title detailsUrl permalink startedAt completedAt }
            }
          }
        }
        status { contexts { context state description targetUrl createdAt } }`;

/** What {@link COMMIT_CHECK_FIELDS} answers. */
export interface GqlCommitChecks {
  checkSuites?: {
    pageInfo: { hasNextPage: boolean };
    nodes: {
      app: { databaseId: number | null; slug: string } | null;
      checkRuns: {
        pageInfo: { hasNextPage: boolean };
        nodes: {
          name: string;
          status: string;
          conclusion: string | null;
          title: string | null;
          detailsUrl: string | null;
          permalink: string | null;
          startedAt: string | null;
          completedAt: string | null;
        }[];
      };
    }[];
  };
  status?: {
    contexts: {
      context: string;
      state: string;
      description: string | null;
      targetUrl: string | null;
      createdAt: string;
    }[];
  } | null;
}

const date = (text: string | null | undefined) => (text ? new Date(text) : null);

/** Whether the answer holds every run (no second page of suites or runs). */
export function complete(c: GqlCommitChecks | null | undefined): boolean {
  const suites = c?.checkSuites;
  if (!suites) return true;
  return !suites.pageInfo.hasNextPage && !suites.nodes.some((s) => s.checkRuns.pageInfo.hasNextPage);
}

/** The check runs (latest per app and name), in GitHub's order; `ownAppId`'s report app "yardmaster". */
export function checkRunsOf(c: GqlCommitChecks | null | undefined, ownAppId: number): CheckRun[] {
  const latest = new Map<string, { run: CheckRun; startedAt: number }>();
  for (const suite of c?.checkSuites?.nodes ?? []) {
    for (const r of suite.checkRuns.nodes) {
      const key = `${suite.app?.databaseId ?? ""}\u0000${r.name}`;
      const startedAt = date(r.startedAt)?.getTime() ?? 0;
      const prev = latest.get(key);
      if (prev && prev.startedAt > startedAt) continue;
      latest.set(key, {
        startedAt,
        run: {
          name: r.name,
          state: checkRunState(r.status.toLowerCase(), r.conclusion?.toLowerCase()),
          description: r.title ?? "",
          detailsUrl: r.detailsUrl ?? r.permalink ?? null,
          app: suite.app?.databaseId === ownAppId ? OWN_CHECK_APP : (suite.app?.slug ?? ""),
          startedAt: date(r.startedAt),
          completedAt: date(r.completedAt),
        },
      });
    }
  }
  return [...latest.values()].map((x) => x.run);
}

/** The commit statuses (latest per context, as GitHub's combined status gives them). */
export function statusesOf(c: GqlCommitChecks | null | undefined): CheckRun[] {
  return (c?.status?.contexts ?? []).map((s) => {
    const state =
      s.state === "SUCCESS" ? "success" : s.state === "FAILURE" ? "failure" : s.state === "ERROR" ? "error" : "pending";
    return {
      name: s.context,
      state,
      description: s.description ?? "",
      detailsUrl: s.targetUrl ?? null,
      app: "",
      startedAt: date(s.createdAt),
      completedAt: state === "pending" ? null : date(s.createdAt),
    };
  });
}
