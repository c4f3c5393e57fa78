import { GithubOpenApi } from "./support/openapi.js";
const t0 = Date.now();
const api = GithubOpenApi.load();
console.log("load ms", Date.now() - t0, api.operations.length);
const ops: [string, number][] = [["apps/get-repo-installation",200],["apps/create-installation-access-token",201],["repos/get",200],["git/get-ref",200],["git/create-ref",201],["git/update-ref",200],["repos/merge",201],["git/create-commit",201],["repos/get-content",200],["git/get-blob",200],["repos/compare-commits-with-basehead",200],["repos/get-combined-status-for-ref",200],["checks/list-for-ref",200],["checks/create",201],["checks/update",200],["repos/get-collaborator-permission-level",200],["users/get-authenticated",200],["apps/list-repos-accessible-to-installation",200],["pulls/get",200],["pulls/list",200],["pulls/list-files",200],["pulls/list-commits",200],["pulls/list-reviews",200],["pulls/create",201],["pulls/update",200],["pulls/merge",200],["pulls/update-branch",202],["issues/create-comment",201],["issues/add-labels",200]];
for (const [id, st] of ops) {
  const t = Date.now();
  let ex; try { ex = api.example(id, st); } catch (e) { console.log(id, "NO EXAMPLE"); continue; }
  const p = api.checkResponse(api.operation(id), st, ex);
  console.log(id, st, Date.now()-t, "ms", p.join(" | ").slice(0, 300));
}
