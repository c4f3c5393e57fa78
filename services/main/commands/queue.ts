/**
 * `yardmaster queue status|pause|unpause|dequeue owner/name`: the merge queue of a repository from
 * a terminal, through QueueService on the running service (the same RPCs as REST's
 * `/merge-queue/...` routes; docs/pause.md, docs/merge-queue.md). `status --json` prints the
 * response in protobuf's JSON mapping with proto field names, every field present (64-bit
 * integers as strings, as that mapping writes them), for scripts.
 */
import { toJson } from "@bufbuild/protobuf";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { Command } from "commander";
import {
  GetMergeQueueStatusResponseSchema,
  QueueService,
  type Batch,
  type BatchPullRequest,
  type GetMergeQueueStatusResponse,
} from "../../../gen/yardmaster/v1/queue_pb.js";
import { serviceClient } from "../rpc-client.js";
import { readSettings } from "../settings.js";
import { out } from "./output.js";
import { parseNumberArgument, parseRepoArgument } from "./repo.js";

type Repo = { owner: string; repository: string };

const client = () => serviceClient(QueueService, readSettings());
const utc = (t: Timestamp | undefined) =>
  t === undefined
    ? ""
    : timestampDate(t)
        .toISOString()
        .replace(/\.\d{3}Z$/, "Z");
const pull = (p: BatchPullRequest) => `#${p.number} ${p.title}${p.author ? ` (${p.author.login})` : ""}`;

/** The lines of one batch and its sub-batches, indented by depth. */
function batchLines(b: Batch, depth: number): string[] {
  const pad = "  ".repeat(depth);
  const checks = b.checksSummary;
  const passed = checks && checks.total > 0 ? `, checks ${checks.passed}/${checks.total} passed` : "";
  const eta = b.estimatedMergeAt ? `, merge estimated ${utc(b.estimatedMergeAt)}` : "";
  return [
    `${pad}${b.name} [${b.status?.code ?? "unknown"}] ${b.queueRuleName}${passed}${eta}`,
    ...b.pullRequests.map((p) => `${pad}  ${pull(p)}`),
    ...b.subBatches.flatMap((s) => batchLines(s, depth + 1)),
  ];
}

/** The text of `queue status` for one repository (exported for tests). */
export function statusLines(repo: string, branch: string | undefined, s: GetMergeQueueStatusResponse): string[] {
  const lines = [`${repo}${branch ? ` (${branch})` : ""}: ${s.mode} queue`];
  lines.push(s.pause ? `paused since ${utc(s.pause.pausedAt)}: ${s.pause.reason}` : "not paused");
  if (s.batches.length === 0 && s.waitingPullRequests.length === 0) lines.push("the queue is empty");
  if (s.batches.length > 0) lines.push("batches:", ...s.batches.flatMap((b) => batchLines(b, 1)));
  if (s.waitingPullRequests.length > 0)
    lines.push("waiting:", ...s.waitingPullRequests.map((p, i) => `  ${i + 1}. ${pull(p)}`));
  return lines;
}

/** Adds `queue status|pause|unpause|dequeue` to the CLI. */
export function registerQueue(program: Command): void {
  const queue = program.command("queue").description("a repository's merge queue: status, pause, unpause, dequeue");
  queue
    .command("status")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .option("--branch <name>", "only this base branch (default: every branch)")
    .option("--json", "print the response as JSON (proto field names; 64-bit integers as strings)")
    .description("batches being checked, their pull requests, the pull requests waiting, and the pause")
    .action(async (repo: Repo, o: { branch?: string; json?: boolean }) => {
      const res = await (await client()).getMergeQueueStatus({ ...repo, branch: o.branch });
      if (o.json)
        out(
          JSON.stringify(
            toJson(GetMergeQueueStatusResponseSchema, res, { useProtoFieldName: true, alwaysEmitImplicit: true }),
          ),
        );
      else for (const line of statusLines(`${repo.owner}/${repo.repository}`, o.branch, res)) out(line);
    });
  queue
    .command("pause")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .requiredOption("--reason <text>", "why (1-255 characters), shown with the pause")
    .description("pause the queue: checks go on, nothing merges until it is unpaused (docs/pause.md)")
    .action(async (repo: Repo, o: { reason: string }) => {
      const res = await (await client()).pauseMergeQueue({ ...repo, reason: o.reason });
      out(`${repo.owner}/${repo.repository} paused since ${utc(res.pausedAt)}: ${res.reason ?? o.reason}`);
    });
  queue
    .command("unpause")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .description("unpause the queue (nothing happens when it is not paused)")
    .action(async (repo: Repo) => {
      await (await client()).unpauseMergeQueue(repo);
      out(`${repo.owner}/${repo.repository} unpaused`);
    });
  queue
    .command("dequeue")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<number>", "the pull request", parseNumberArgument)
    .description("take a pull request out of the queue; says first what it interrupts")
    .action(async (repo: Repo, number: bigint) => {
      const c = await client();
      const impact = await c.getDequeueImpact({ ...repo, prNumber: number });
      await c.dequeuePullRequest({ ...repo, prNumber: number });
      const effects = [
        impact.interruptedBatches > 0 ? `${impact.interruptedBatches} batch(es) restarted` : "",
        impact.recheckedPullRequests > 0 ? `${impact.recheckedPullRequests} other pull request(s) rechecked` : "",
        impact.cascadedPullRequests > 0 ? `${impact.cascadedPullRequests} stacked pull request(s) dequeued too` : "",
      ].filter((x) => x !== "");
      out(
        `#${number} dequeued from ${repo.owner}/${repo.repository}${effects.length ? `: ${effects.join(", ")}` : ""}`,
      );
    });
}
