/**
 * `yardmaster ci junit-upload --repo o/n --head-sha S --branch B FILE...` (docs/ci-insights.md
 * "Ingest"): uploads JUnit XML reports through the REST route `POST
 * /v1/repos/{owner}/{repository}/ci/junit`, one request per file, as any CI would, with the admin
 * key or `YARDMASTER_TOKEN` (a token of the repository).
 */
import { readFile } from "node:fs/promises";
import type { Command } from "commander";
import { readAdminKey } from "../admin-key.js";
import { readSettings } from "../settings.js";
import { out } from "./output.js";

/** Adds `junit-upload` to the `ci` command. */
export function registerJunitUpload(ci: Command): void {
  ci.command("junit-upload")
    .description("upload JUnit XML reports to CI Insights")
    .requiredOption("--repo <owner/name>", "the repository")
    .requiredOption("--head-sha <sha>", "the commit tested (40 hex digits)")
    .requiredOption("--branch <branch>", "the branch tested")
    .option("--pipeline <name>", "the CI pipeline (workflow)", "ci")
    .option("--job <name>", "the job that ran the tests", "tests")
    .option("--run-id <id>", "the CI run's id (re-runs share it)", "")
    .option("--attempt <n>", "the run's attempt", "1")
    .option("--framework <name>", "the test framework", "")
    .option("--pull-request <n>", "the pull request tested")
    .argument("<files...>", "JUnit XML files")
    .action(
      async (
        files: string[],
        o: {
          repo: string;
          headSha: string;
          branch: string;
          pipeline: string;
          job: string;
          runId: string;
          attempt: string;
          framework: string;
          pullRequest?: string;
        },
      ) => {
        const settings = readSettings();
        const token = process.env.YARDMASTER_TOKEN || (await readAdminKey(settings.dataDir, settings.adminKey));
        const query = new URLSearchParams({
          pipeline_name: o.pipeline,
          job_name: o.job,
          head_sha: o.headSha,
          branch: o.branch,
          run_attempt: o.attempt,
          ...(o.runId ? { run_id: o.runId } : {}),
          ...(o.framework ? { test_framework: o.framework } : {}),
          ...(o.pullRequest ? { pull_request: o.pullRequest } : {}),
        });
        for (const file of files) {
          const res = await fetch(`${settings.serviceUrl}/v1/repos/${o.repo}/ci/junit?${query}`, {
            method: "POST",
            headers: { authorization: `Bearer ${token}`, "content-type": "application/xml" },
            body: await readFile(file),
          });
          const body = (await res.json()) as { test_runs?: number; message?: string };
          if (!res.ok) throw new Error(`${file}: HTTP ${res.status}: ${body.message ?? JSON.stringify(body)}`);
          out(`${file}: ${body.test_runs} test runs stored`);
        }
      },
    );
}
