import type { Command } from "commander";
import { timestampDate, type Timestamp } from "@bufbuild/protobuf/wkt";
import type { LocalPullRequest } from "../../../gen/yardmaster/v1/forge_pb.js";
import { out } from "./output.js";
import { forgeClient, parseNumberArgument, parseRepoArgument } from "./repo.js";

type Repo = { owner: string; repository: string };

const when = (t: Timestamp | undefined) =>
  t === undefined
    ? ""
    : timestampDate(t)
        .toISOString()
        .replace(/\.000Z$/, "Z");
const short = (sha: string) => sha.slice(0, 12);
const collect = (value: string, previous: string[]) => [...previous, value];
/**
 * A comment's text as a forge renders it: Markdown's HTML comments (such as the idempotency marker
 * `<!-- yardmaster:effect <id> -->` of the queue's comments, docs/reliability.md) are not shown,
 * nor the blank lines they leave at the end.
 */
const rendered = (body: string) => body.replace(/<!--[\s\S]*?-->/g, "").replace(/\s+$/, "");

/**
 * The human-readable page of one pull request (`yardmaster pr show`): state, head, checks (with
 * their links, and with `withOutput` their captured output indented below), labels, assignees,
 * requested reviewers, reviews, comments (as rendered: HTML comments hidden).
 */
export function renderPullRequest(repo: string, pr: LocalPullRequest, withOutput = false): string[] {
  const lines = [
    `${repo}#${pr.number}: ${pr.title}`,
    `state:    ${pr.state}${pr.draft ? " (draft)" : ""}${pr.conflict ? ", conflicts with its base" : ""}`,
    `author:   ${pr.author}`,
    `head:     ${pr.head} at ${pr.headSha} -> ${pr.base}`,
    `created:  ${when(pr.createdAt)}`,
  ];
  if (pr.mergedAt !== undefined) lines.push(`merged:   ${when(pr.mergedAt)} as ${pr.mergeCommitSha ?? "?"}`);
  lines.push(`labels:   ${pr.labels.length === 0 ? "(none)" : pr.labels.join(", ")}`);
  lines.push(`assignees: ${pr.assignees.length === 0 ? "(none)" : pr.assignees.join(", ")}`);
  lines.push(`review requested: ${pr.requestedReviewers.length === 0 ? "(none)" : pr.requestedReviewers.join(", ")}`);
  lines.push(`checks:${pr.checks.length === 0 ? "   (none)" : ""}`);
  const width = Math.max(0, ...pr.checks.map((c) => c.name.length));
  for (const c of pr.checks) {
    lines.push(
      `  ${c.name.padEnd(width)}  ${c.state.padEnd(9)}  ${c.description}${c.app ? `  [${c.app}]` : ""}${c.detailsUrl ? `  ${c.detailsUrl}` : ""}`,
    );
    if (withOutput && c.output !== "")
      for (const line of c.output.replace(/\n$/, "").split("\n")) lines.push(`    | ${line}`);
  }
  lines.push(`reviews:${pr.reviews.length === 0 ? "  (none)" : ""}`);
  for (const r of pr.reviews) lines.push(`  ${r.author}: ${r.state} (${when(r.submittedAt)})`);
  lines.push(`comments:${pr.comments.length === 0 ? " (none)" : ""}`);
  for (const c of pr.comments) {
    lines.push(`  ${c.author} (${when(c.createdAt)}, id ${c.id}):`);
    for (const line of rendered(c.body).split("\n")) lines.push(`    ${line}`);
  }
  return lines;
}

/** One line of `yardmaster pr list`. */
export function renderPullRequestLine(pr: LocalPullRequest): string {
  const passed = pr.checks.filter((c) => c.state === "success").length;
  const checks = pr.checks.length === 0 ? "no checks" : `checks ${passed}/${pr.checks.length} passed`;
  const labels = pr.labels.length === 0 ? "" : `  [${pr.labels.join(", ")}]`;
  const people = pr.assignees.length === 0 ? "" : `  assigned: ${pr.assignees.join(", ")}`;
  return `#${pr.number}  ${pr.state}${pr.draft ? " draft" : ""}  ${pr.head} -> ${pr.base}  ${pr.title}  (${pr.author}, ${checks})${labels}${people}`;
}

/**
 * `yardmaster pr open|comment|review|label|close|edit|show|list`: pull requests of the local forge
 * (docs/local-forge.md "CLI"), through ForgeService. Each action emits the forge events a GitHub
 * webhook would, so `pr comment owner/name 1 "@yardmaster queue"` queues a pull request.
 */
export function registerPr(program: Command): void {
  const pr = program.command("pr").description("pull requests of the local forge (FORGE=local)");
  pr.command("open")
    .description("open a pull request from --head into --base")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .requiredOption("--head <branch>", "the branch with the changes")
    .option("--base <branch>", "the branch to merge into", "main")
    .option("--title <text>", "title (default: the head branch)", "")
    .option("--body <text>", "description", "")
    .option("--author <login>", "who opens it (a local user, created on first use; default local-user)", "")
    .option("--draft", "open it as a draft", false)
    .action(
      async (
        repo: Repo,
        opts: { head: string; base: string; title: string; body: string; author: string; draft: boolean },
      ) => {
        const client = await forgeClient();
        const res = await client.openPullRequest({ ...repo, ...opts });
        const p = res.pullRequest!;
        out(`#${p.number} opened: ${p.title} (${p.head} -> ${p.base}, head ${short(p.headSha)})`);
      },
    );
  pr.command("comment")
    .description('comment on a pull request (commands such as "@yardmaster queue" arrive this way)')
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<number>", "the pull request", parseNumberArgument)
    .argument("<text>", "the comment")
    .option("--author <login>", "who comments (default local-user)", "")
    .action(async (repo: Repo, number: bigint, text: string, opts: { author: string }) => {
      const client = await forgeClient();
      const res = await client.commentPullRequest({ ...repo, number, body: text, author: opts.author });
      out(`comment ${res.commentId} on #${number}`);
    });
  pr.command("review")
    .description("review a pull request: exactly one of --approve, --request-changes, --comment")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<number>", "the pull request", parseNumberArgument)
    .option("--approve", "approve it")
    .option("--request-changes", "request changes (needs --body)")
    .option("--comment", "comment without a verdict (needs --body)")
    .option("--body <text>", "the review's text", "")
    .option("--author <login>", "who reviews (default local-user; one cannot approve one's own pull request)", "")
    .action(
      async (
        repo: Repo,
        number: bigint,
        opts: { approve?: boolean; requestChanges?: boolean; comment?: boolean; body: string; author: string },
      ) => {
        const chosen = [
          opts.approve && "APPROVE",
          opts.requestChanges && "REQUEST_CHANGES",
          opts.comment && "COMMENT",
        ].filter((v): v is string => Boolean(v));
        if (chosen.length !== 1) throw new Error("give exactly one of --approve, --request-changes, --comment");
        const client = await forgeClient();
        await client.reviewPullRequest({ ...repo, number, event: chosen[0]!, body: opts.body, author: opts.author });
        out(`review ${chosen[0]} on #${number}`);
      },
    );
  pr.command("label")
    .description("add and remove labels (created on first use)")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<number>", "the pull request", parseNumberArgument)
    .option("--add <label>", "a label to add (repeatable)", collect, [] as string[])
    .option("--remove <label>", "a label to remove (repeatable)", collect, [] as string[])
    .action(async (repo: Repo, number: bigint, opts: { add: string[]; remove: string[] }) => {
      if (opts.add.length === 0 && opts.remove.length === 0) throw new Error("give --add or --remove");
      const client = await forgeClient();
      const res = await client.labelPullRequest({ ...repo, number, add: opts.add, remove: opts.remove });
      out(`#${number} labels: ${res.labels.length === 0 ? "(none)" : res.labels.join(", ")}`);
    });
  pr.command("close")
    .description("close a pull request without merging it")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<number>", "the pull request", parseNumberArgument)
    .action(async (repo: Repo, number: bigint) => {
      const client = await forgeClient();
      await client.closePullRequest({ ...repo, number });
      out(`#${number} closed`);
    });
  pr.command("edit")
    .description("change a pull request's title, body or base branch (retarget it)")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<number>", "the pull request", parseNumberArgument)
    .option("--title <text>", "the new title")
    .option("--body <text>", "the new description")
    .option("--base <branch>", "the branch to merge into from now on (the pull request must be open)")
    .action(async (repo: Repo, number: bigint, opts: { title?: string; body?: string; base?: string }) => {
      if (opts.title === undefined && opts.body === undefined && opts.base === undefined)
        throw new Error("give --title, --body or --base");
      const client = await forgeClient();
      const res = await client.editPullRequest({
        ...repo,
        number,
        title: opts.title,
        body: opts.body,
        base: opts.base,
      });
      const p = res.pullRequest!;
      out(opts.base === undefined ? `#${p.number} edited: ${p.title}` : `#${p.number} now targets ${p.base}`);
    });
  pr.command("show")
    .description("a pull request: state, head, checks, labels, reviews, comments")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .argument("<number>", "the pull request", parseNumberArgument)
    .option("--output", "print each check's captured output under it", false)
    .action(async (repo: Repo, number: bigint, opts: { output: boolean }) => {
      const client = await forgeClient();
      const res = await client.getPullRequest({ ...repo, number });
      for (const line of renderPullRequest(`${repo.owner}/${repo.repository}`, res.pullRequest!, opts.output))
        out(line);
    });
  pr.command("list")
    .description("pull requests of a repository, newest first")
    .argument("<owner/name>", "the repository", parseRepoArgument)
    .option("--state <state>", "open, closed or merged (default: all)", "")
    .action(async (repo: Repo, opts: { state: string }) => {
      const client = await forgeClient();
      const res = await client.listPullRequests({ ...repo, state: opts.state });
      if (res.pullRequests.length === 0) out("(no pull requests)");
      for (const p of res.pullRequests) out(renderPullRequestLine(p));
    });
}
