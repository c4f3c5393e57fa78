/**
 * GitHub webhook payloads as forge events (services/forge/github/webhook-events.ts), with the real
 * payloads of `@octokit/webhooks-examples` 7.6.1: every example of the followed events maps without
 * throwing to the expected kind or is ignored by rule, and a selection maps to exact events.
 */
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import { mapGithubWebhook, WebhookPayloadError } from "../../../services/forge/github/index.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Example = { name: string; examples: any[] };
const examples: Example[] = createRequire(import.meta.url)("@octokit/webhooks-examples/api.github.com/index.json");
const of = (name: string) => examples.find((e) => e.name === name)!.examples;
const first = (name: string, action?: string) =>
  structuredClone(of(name).find((p) => action === undefined || p.action === action));

/** The expected outcome of an example: a forge event kind, or "ignored". */
function expectedKind(event: string, p: any): string {
  switch (event) {
    case "pull_request":
      return (
        (
          {
            opened: "pull_request_opened",
            reopened: "pull_request_opened",
            synchronize: "pull_request_synchronized",
            edited: "pull_request_edited",
            ready_for_review: "pull_request_edited",
            converted_to_draft: "pull_request_edited",
            locked: "pull_request_edited",
            unlocked: "pull_request_edited",
            closed: "pull_request_closed",
            labeled: "pull_request_labeled",
            unlabeled: "pull_request_labeled",
            assigned: "pull_request_labeled",
            unassigned: "pull_request_labeled",
            review_requested: "pull_request_labeled",
            review_request_removed: "pull_request_labeled",
          } as Record<string, string>
        )[p.action] ?? "ignored"
      );
    case "pull_request_review":
    case "pull_request_review_thread":
      return "pull_request_reviewed";
    case "issue_comment":
      return p.issue.pull_request && p.action === "created" ? "comment_created" : "ignored";
    case "check_run":
      return p.action === "requested_action" ? "ignored" : "checks_changed";
    case "check_suite":
      return p.action === "completed" ? "checks_changed" : "ignored";
    case "status":
      return "checks_changed";
    case "push":
      return p.ref.startsWith("refs/heads/") ? "branch_pushed" : "ignored";
    case "workflow_run":
      return p.action === "completed" && ["failure", "timed_out", "cancelled"].includes(p.workflow_run.conclusion)
        ? "workflow_run"
        : "ignored";
    default:
      return "ignored";
  }
}

const FOLLOWED = [
  "pull_request",
  "pull_request_review",
  "pull_request_review_thread",
  "issue_comment",
  "check_run",
  "check_suite",
  "status",
  "push",
  "workflow_run",
];

describe("every real example payload", () => {
  const all = examples.flatMap((e) => e.examples.map((p, i) => [e.name, p.action ?? "-", i, p] as const));

  it("covers the followed events", () => {
    const counts = Object.fromEntries(FOLLOWED.map((name) => [name, of(name).length]));
    expect(counts).toEqual({
      pull_request: 29,
      pull_request_review: 4,
      pull_request_review_thread: 3,
      issue_comment: 9,
      check_run: 9,
      check_suite: 9,
      status: 4,
      push: 7,
      workflow_run: 5,
    });
  });

  it.each(all)("%s %s #%i maps to its expected kind or is ignored", (name, _action, _i, payload) => {
    const mapping = mapGithubWebhook(name, payload);
    const expected = expectedKind(name, payload);
    if (expected === "ignored") expect(mapping.kind).toBe("ignored");
    else if (expected === "workflow_run") expect(mapping.kind).toBe("workflow_run");
    else expect(mapping.kind === "events" && mapping.events.map((e) => e.kind)).toEqual([expected]);
    if (mapping.kind === "events") for (const e of mapping.events) expect(e.repo).toBe(payload.repository.full_name);
  });
});

describe("exact events", () => {
  it("workflow_run completed without success, for CI Insights' job retries; a success or a request is ignored", () => {
    const run = first("workflow_run", "completed");
    run.workflow_run.conclusion = "failure";
    run.workflow_run.run_attempt = 2;
    expect(mapGithubWebhook("workflow_run", run)).toEqual({
      kind: "workflow_run",
      run: {
        repo: run.repository.full_name,
        runId: run.workflow_run.id,
        attempt: 2,
        workflow: "Manually triggered workflow",
        headSha: run.workflow_run.head_sha,
        branch: "main",
        conclusion: "failure",
        url: run.workflow_run.html_url,
      },
    });
    run.workflow_run.conclusion = "success";
    expect(mapGithubWebhook("workflow_run", run).kind).toBe("ignored");
    expect(mapGithubWebhook("workflow_run", first("workflow_run", "requested")).kind).toBe("ignored");
    expect(() => mapGithubWebhook("workflow_run", { action: "completed", repository: run.repository })).toThrow(
      /workflow_run payload: workflow_run: /,
    );
  });

  it("pull_request opened, synchronize and closed", () => {
    const opened = first("pull_request", "opened");
    expect(mapGithubWebhook("pull_request", opened)).toEqual({
      kind: "events",
      events: [
        { kind: "pull_request_opened", repo: "Codertocat/Hello-World", number: 2, head: opened.pull_request.head.ref },
      ],
    });
    const sync = first("pull_request", "synchronize");
    expect(mapGithubWebhook("pull_request", sync)).toEqual({
      kind: "events",
      events: [
        {
          kind: "pull_request_synchronized",
          repo: sync.repository.full_name,
          number: sync.number,
          headSha: sync.pull_request.head.sha,
          by: sync.sender.login,
          head: sync.pull_request.head.ref,
        },
      ],
    });
    const closed = first("pull_request", "closed");
    expect(mapGithubWebhook("pull_request", closed)).toEqual({
      kind: "events",
      events: [
        {
          kind: "pull_request_closed",
          repo: "Codertocat/Hello-World",
          number: 2,
          merged: false,
          mergeCommitSha: null,
          head: closed.pull_request.head.ref,
        },
      ],
    });
  });

  it("a merged pull request carries its merge commit (the closed example, as GitHub sends it once merged)", () => {
    const merged = first("pull_request", "closed");
    merged.pull_request.merged = true;
    expect(mapGithubWebhook("pull_request", merged)).toEqual({
      kind: "events",
      events: [
        {
          kind: "pull_request_closed",
          repo: "Codertocat/Hello-World",
          number: 2,
          merged: true,
          mergeCommitSha: merged.pull_request.merge_commit_sha,
          head: merged.pull_request.head.ref,
        },
      ],
    });
  });

  it("a comment on a pull request carries the command text and its author", () => {
    // The examples' comments are all on issues; GitHub marks a pull request's issue with
    // `issue.pull_request` (its URLs), added here to a real payload.
    const p = first("issue_comment", "created");
    expect(mapGithubWebhook("issue_comment", p)).toEqual({
      kind: "ignored",
      reason: "comment on an issue, not a pull request",
    });
    const base = `https://api.github.com/repos/${p.repository.full_name}/pulls/${p.issue.number}`;
    p.issue.pull_request = {
      url: base,
      html_url: p.issue.html_url,
      diff_url: `${p.issue.html_url}.diff`,
      patch_url: `${p.issue.html_url}.patch`,
      merged_at: null,
    };
    p.comment.body = "@yardmaster queue default";
    expect(mapGithubWebhook("issue_comment", p)).toEqual({
      kind: "events",
      events: [
        {
          kind: "comment_created",
          repo: "Codertocat/Hello-World",
          number: p.issue.number,
          commentId: p.comment.id,
          body: "@yardmaster queue default",
          author: {
            login: p.comment.user.login,
            id: p.comment.user.id,
            type: "User",
            avatarUrl: p.comment.user.avatar_url,
          },
          url: p.comment.html_url,
        },
      ],
    });
  });

  it("a label added or removed is named, with its direction", () => {
    const labeled = first("pull_request", "labeled");
    const [event] = (mapGithubWebhook("pull_request", labeled) as { events: any[] }).events;
    expect(event).toMatchObject({ kind: "pull_request_labeled", label: { name: labeled.label.name, added: true } });
    const unlabeled = { ...labeled, action: "unlabeled" };
    const [removed] = (mapGithubWebhook("pull_request", unlabeled) as { events: any[] }).events;
    expect(removed.label).toEqual({ name: labeled.label.name, added: false });
    const assigned = first("pull_request", "assigned");
    const [other] = (mapGithubWebhook("pull_request", assigned) as { events: any[] }).events;
    expect(other.label).toBeUndefined();
  });

  it("ignores the App's own check runs and check suites: no condition reads them", () => {
    const run = first("check_run", "completed");
    const suite = first("check_suite", "completed");
    const ownRun = mapGithubWebhook("check_run", run, { appId: run.check_run.app.id });
    expect(ownRun).toMatchObject({ kind: "ignored", reason: expect.stringContaining("own check") });
    expect(mapGithubWebhook("check_suite", suite, { appId: suite.check_suite.app.id }).kind).toBe("ignored");
    expect(mapGithubWebhook("check_run", run, { appId: run.check_run.app.id + 1 }).kind).toBe("events");
  });

  it("check runs, check suites and statuses name the commit", () => {
    const run = first("check_run", "completed");
    expect(mapGithubWebhook("check_run", run)).toEqual({
      kind: "events",
      events: [
        { kind: "checks_changed", repo: "Codertocat/Hello-World", sha: "ec26c3e57ca3a959ca5aad62de7213c562f8c821" },
      ],
    });
    const suite = first("check_suite", "completed");
    expect(mapGithubWebhook("check_suite", suite)).toEqual({
      kind: "events",
      events: [{ kind: "checks_changed", repo: "Codertocat/Hello-World", sha: suite.check_suite.head_sha }],
    });
    const status = first("status");
    expect(mapGithubWebhook("status", status)).toEqual({
      kind: "events",
      events: [
        { kind: "checks_changed", repo: "Codertocat/Hello-World", sha: "6113728f27ae82c7b1a177c8d03f9e96e0adf246" },
      ],
    });
  });

  it("a branch push; a branch creation has no before; a tag push is ignored", () => {
    const created = of("push").find((p) => p.ref === "refs/heads/master");
    expect(mapGithubWebhook("push", created)).toEqual({
      kind: "events",
      events: [
        {
          kind: "branch_pushed",
          repo: "Codertocat/Hello-World",
          branch: "master",
          before: null,
          after: "6113728f27ae82c7b1a177c8d03f9e96e0adf246",
          forced: false,
        },
      ],
    });
    const deletedTag = of("push").find((p) => p.deleted);
    expect(mapGithubWebhook("push", deletedTag)).toEqual({
      kind: "ignored",
      reason: "push to refs/tags/simple-tag: not a branch",
    });
    const deletedBranch = { ...structuredClone(deletedTag), ref: "refs/heads/gone", forced: true };
    expect(mapGithubWebhook("push", deletedBranch)).toMatchObject({
      events: [{ branch: "gone", before: deletedTag.before, after: null, forced: true }],
    });
  });

  it("a review and a resolved review thread", () => {
    const review = first("pull_request_review", "dismissed");
    expect(mapGithubWebhook("pull_request_review", review)).toEqual({
      kind: "events",
      events: [
        { kind: "pull_request_reviewed", repo: review.repository.full_name, number: review.pull_request.number },
      ],
    });
    const thread = first("pull_request_review_thread", "resolved");
    expect(mapGithubWebhook("pull_request_review_thread", thread)).toMatchObject({
      events: [{ kind: "pull_request_reviewed", number: thread.pull_request.number }],
    });
  });
});

describe("malformed payloads", () => {
  const cases: [string, string, (p: any) => void][] = [
    ["pull_request", "number", (p: any) => delete p.number],
    ["pull_request", "pull_request.head.sha", (p: any) => (p.pull_request.head.sha = "abc")],
    ["check_run", "repository", (p: any) => delete p.repository],
    ["push", "after", (p: any) => (p.after = 42)],
  ];
  it.each(cases)("%s without a readable %s names the field", (name, path, spoil) => {
    const p = first(name);
    spoil(p);
    let err: unknown = null;
    try {
      mapGithubWebhook(name, p);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(WebhookPayloadError);
    expect((err as WebhookPayloadError).path).toBe(path);
  });
});
