/**
 * What the dashboard's state tests (test/e2e/dashboard-states.test.ts) set up on a real server:
 * a local-forge repository holding one queued pull request whose batch's check runs until the
 * test ends (its CI sleeps on the queue's merge commits only, so the pull request's own head
 * passes at once), with two queue rules to queue it again under; tokens through TokenService; and
 * in-page navigation (the History API, as a click on a link does), so the page is never reloaded.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Page } from "playwright-core";
import { TokenService } from "../../gen/yardmaster/v1/admin_pb.js";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import { gitWorkdir } from "./git-workdir.js";
import { grpcClient, grpcUnary } from "./grpc-client.js";
import type { ServerProcess } from "./server-process.js";

/** The held repository's configuration: two rules, the local CI's check required to merge only. */
export const HOLD_CONFIG = `queue_rules:
  - name: default
    branch_protection_injection_mode: merge
  - name: urgent
    branch_protection_injection_mode: merge
`;

/** Its CI: the check `test` passes at once on a head, and runs for ten minutes on a queue's merge commit. */
export const HOLD_CI = `checks:
  - name: test
    run: |
      if git log -1 --format=%s | grep -q '^Merge of'; then sleep 600; fi
`;

/**
 * Creates `owner/repository` with pull request #1 ("Add the feature", by ada) and queues it by
 * comment. Returns a function that removes the work directory.
 */
export async function heldRepository(server: ServerProcess, owner: string, repository: string) {
  const work = await mkdtemp(path.join(os.tmpdir(), "ym-e2e-hold-"));
  const src = await gitWorkdir(path.join(work, repository));
  await src.commit("Initial commit", {
    "README.md": "held\n",
    ".yardmaster.yml": HOLD_CONFIG,
    ".yardmaster/ci.yml": HOLD_CI,
  });
  src.git("switch", "--quiet", "-c", "feature", "main");
  await src.commit("Add the feature", { "feature.txt": "1\n" });
  src.git("switch", "--quiet", "main");
  const forge = grpcClient(ForgeService, `127.0.0.1:${server.port}`);
  const at = { owner, repository };
  try {
    await grpcUnary(forge, "createRepository", { ...at, fromPath: src.path }, server.adminKey);
    const opened = { ...at, head: "feature", base: "main", title: "Add the feature", author: "ada" };
    const { number } = (await grpcUnary(forge, "openPullRequest", opened, server.adminKey)).pullRequest;
    await grpcUnary(forge, "commentPullRequest", { ...at, number, body: "@yardmaster queue" }, server.adminKey);
  } finally {
    forge.close();
  }
  return () => rm(work, { recursive: true, force: true });
}

/** Issues a token for `repository`: its secret and id. */
export async function issueToken(server: ServerProcess, repository: string): Promise<{ secret: string; id: string }> {
  const tokens = grpcClient(TokenService, `127.0.0.1:${server.port}`);
  try {
    const res = await grpcUnary(
      tokens,
      "createToken",
      { repositories: [repository], description: "dashboard test" },
      server.adminKey,
    );
    return { secret: res.secret, id: res.token.id };
  } finally {
    tokens.close();
  }
}

/** Revokes token `id`. */
export async function revokeToken(server: ServerProcess, id: string): Promise<void> {
  const tokens = grpcClient(TokenService, `127.0.0.1:${server.port}`);
  try {
    await grpcUnary(tokens, "revokeToken", { id }, server.adminKey);
  } finally {
    tokens.close();
  }
}

/** Goes to `path` of the dashboard in place (the History API), as a click on a link there does. */
export async function goInPage(page: Page, to: string): Promise<void> {
  await page.evaluate(
    `history.pushState(null, "", ${JSON.stringify(to)}); dispatchEvent(new PopStateEvent("popstate"))`,
  );
}
