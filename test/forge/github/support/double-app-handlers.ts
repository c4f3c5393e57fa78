/**
 * The GitHub test double's App-level answers: the App's installations with the permissions and
 * events each granted (`GET /app/installations`, with the App's JWT:
 * https://docs.github.com/en/rest/apps/apps#list-installations-for-the-authenticated-app), and the
 * GraphQL mutations that turn a pull request into a draft and back
 * (`convertPullRequestToDraft`, `markPullRequestReadyForReview`:
 * https://docs.github.com/en/graphql/reference/mutations#markpullrequestreadyforreview), which
 * the pull request's node id (`PR_<repository id>_<n>`) names.
 */
import { DRAFT_MUTATION, READY_MUTATION } from "../../../../services/forge/github/workflow-actions.js";
import { NEEDED_EVENTS, NEEDED_PERMISSIONS } from "../../../../services/forge/github/app-manifest.js";
import { example, type Answer, type Handler } from "./double-answers.js";
import { iso } from "./double-json.js";
import type { GithubDouble } from "./github-double.js";

/** What the App's installations granted (every installation alike); default: what the App asks for. */
export interface AppGrants {
  permissions: Record<string, string>;
  events: string[];
}

const GRANTS = new WeakMap<GithubDouble, AppGrants>();

/** The grants of the double's App installations, which a test may change. */
export function grantsOf(double: GithubDouble): AppGrants {
  let g = GRANTS.get(double);
  if (!g) {
    g = {
      permissions: Object.fromEntries(NEEDED_PERMISSIONS.map((p) => [p.name, p.level])),
      events: NEEDED_EVENTS.map((e) => e.name),
    };
    GRANTS.set(double, g);
  }
  return g;
}

export const appHandlers: Record<string, Handler> = {
  "apps/list-installations": (ctx) => {
    const t = example("apps/list-installations", 200)[0];
    const grants = grantsOf(ctx.double);
    const byInstallation = new Map<number, string>();
    for (const repo of ctx.double.allRepos()) byInstallation.set(repo.installationId, repo.owner);
    return {
      status: 200,
      body: [...byInstallation].map(([id, owner]) => ({
        ...t,
        id,
        app_id: ctx.double.appId,
        app_slug: ctx.double.appSlug,
        // GitHub's description inlines the account as allOf [simple user, enterprise] (a drift: it is
        // either), so the enterprise's required fields are given too.
        account: {
          ...t.account,
          login: owner,
          id: id + 2_000_000,
          node_id: `O_${id}`,
          type: "Organization",
          name: owner,
          slug: owner,
          created_at: iso(ctx.double.now()),
          updated_at: iso(ctx.double.now()),
        },
        permissions: grants.permissions,
        events: grants.events,
        created_at: iso(ctx.double.now()),
        updated_at: iso(ctx.double.now()),
      })),
    };
  },
};

/**
 * Answers the draft mutations; null for any other GraphQL request (the double's own queries).
 * Needs an installation token, as every GraphQL request.
 */
export async function answerDraftMutation(
  double: GithubDouble,
  body: { query?: string; variables?: Record<string, unknown> } | undefined,
  authorization: string,
): Promise<Answer | null> {
  const query = body?.query;
  if (query !== READY_MUTATION && query !== DRAFT_MUTATION) return null;
  if (!double.isInstallationToken(authorization.split(" ")[1] ?? ""))
    return { status: 401, body: { message: "Bad credentials" } };
  const id = String(body?.variables?.id ?? "");
  const [, repoId, number] = /^PR_(\d+)_(\d+)$/.exec(id) ?? [];
  const pull = double
    .allRepos()
    .find((r) => String(r.id) === repoId)
    ?.pull(Number(number));
  if (!pull) {
    return {
      status: 200,
      body: {
        data: null,
        errors: [
          {
            type: "NOT_FOUND",
            path: ["pullRequest"],
            message: `Could not resolve to a node with the global id of '${id}'`,
          },
        ],
      },
    };
  }
  pull.draft = query === DRAFT_MUTATION;
  const field = query === READY_MUTATION ? "markPullRequestReadyForReview" : "convertPullRequestToDraft";
  return { status: 200, body: { data: { [field]: { clientMutationId: null } } } };
}
