/**
 * The GitHub test double's `updateRefs` mutation (services/forge/github/ref-updates.ts;
 * https://docs.github.com/en/graphql/reference/mutations#updaterefs): the repository named by its
 * node id (`R_<id>`, as the double's `repos/get` gives it), then every update checked before any is
 * applied, so that "if one of them is rejected, no other ref will be modified": an `afterOid` of
 * forty zeros deletes a ref that must exist; otherwise the object must exist, and a ref that exists
 * moves only by a fast-forward unless `force`. Each update is then applied through the REST
 * handlers (create, update, delete a ref), branch protection and rulesets included, so both APIs
 * behave alike. A refusal is a GraphQL error answer (HTTP 200 with `errors`).
 */
import { findCommit, isAncestor, readRef } from "../../../../services/forge/local/git/index.js";
import { DELETED_OID } from "../../../../services/forge/github/ref-updates.js";
import type { Answer, HandlerContext } from "./double-answers.js";
import { handlers } from "./double-handlers.js";
import type { GithubDouble } from "./github-double.js";

type Update = { name: string; afterOid: string; force?: boolean };

const refused = (type: string, message: string): Answer => ({
  status: 200,
  body: { data: { updateRefs: null }, errors: [{ type, path: ["updateRefs"], message }] },
});

/** `UpdateRefs` with `v.repositoryId` and `v.refUpdates`, as the installation `token`. */
export async function updateRefsAnswer(
  double: GithubDouble,
  v: Record<string, unknown>,
  token: string,
): Promise<Answer> {
  const id = String(v.repositoryId ?? "");
  const repo = double.allRepos().find((r) => `R_${r.id}` === id);
  if (!repo) return refused("NOT_FOUND", `Could not resolve to a node with the global id of '${id}'`);
  const updates = (v.refUpdates ?? []) as Update[];
  for (const u of updates) {
    if (!/^refs\/.+\/.+/.test(u.name)) return refused("UNPROCESSABLE", `${u.name} is not a valid ref name`);
    const current = await readRef(repo.git, u.name);
    if (u.afterOid === DELETED_OID) {
      if (!current) return refused("UNPROCESSABLE", `${u.name} does not exist`);
      continue;
    }
    if (!(await findCommit(repo.git, u.afterOid)))
      return refused("UNPROCESSABLE", `Object ${u.afterOid} does not exist`);
    if (current && !u.force && !(await isAncestor(repo.git, current, u.afterOid)))
      return refused("UNPROCESSABLE", `${u.name}: update is not a fast forward`);
  }
  for (const u of updates) {
    const current = await readRef(repo.git, u.name);
    const short = u.name.slice("refs/".length);
    const [operationId, params, body] =
      u.afterOid === DELETED_OID
        ? ["git/delete-ref", { ref: short }, {}]
        : current
          ? ["git/update-ref", { ref: short }, { sha: u.afterOid, force: true }]
          : ["git/create-ref", {}, { ref: u.name, sha: u.afterOid }];
    const ctx: HandlerContext = {
      double,
      repo,
      params: { owner: repo.owner, repo: repo.name, ...params },
      query: new URLSearchParams(),
      body,
      token,
    };
    const answer = await handlers[operationId](ctx);
    if (answer.status >= 300) return refused("UNPROCESSABLE", `${u.name}: ${JSON.stringify(answer.body)}`);
  }
  return { status: 200, body: { data: { updateRefs: { clientMutationId: null } } } };
}
