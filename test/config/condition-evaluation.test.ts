/**
 * Evaluation of conditions against a pull request (docs/conditions.md "Evaluation",
 * docs/domain.md §2.3): truth tables per operator over scalars, lists, empty lists and nulls,
 * attribute values built from a forge snapshot, teams, templates, groups and evaluation errors.
 */
import { describe, expect, it } from "vitest";
import {
  evaluateCondition,
  evaluateConditions,
  parseCondition,
  parseConditionList,
  type Condition,
  type EvaluationContext,
} from "../../services/config/index.js";
import { checkRun, commit, contextFor, labels, pullRequest, review } from "./builders.js";

function truth(text: string, ctx: EvaluationContext): boolean | "pending" {
  return evaluateCondition(parseCondition(text), ctx).match;
}

function table(ctx: EvaluationContext, rows: [string, boolean][]): void {
  for (const [text, expected] of rows) expect([text, truth(text, ctx)]).toEqual([text, expected]);
}

describe('operators on a text scalar (title = "Add the widget")', () => {
  const ctx = contextFor(pullRequest({ title: "Add the widget" }));
  it("compares, searches and globs", () => {
    table(ctx, [
      ["title=Add the widget", true],
      ["title=add the widget", false],
      ["title!=Add the widget", false],
      ["title!=Something else", true],
      ["title~=widget$", true],
      ["title~=^widget", false],
      ["title*=Add*", true],
      ["title*=*gadget", false],
      ["title>A", true],
      ["title<B", true],
      ["title<A", false],
      ["title>=Add the widget", true],
      ["title<=Add", false],
      ["-title=Add the widget", false],
      ["-title~=wip", true],
      ["#title=14", true],
      ["#title>14", false],
    ]);
  });
});

describe("operators on a list (labels bug, ui)", () => {
  const ctx = contextFor(pullRequest({ labels: labels("bug", "ui") }));
  it("matches any element, except != which needs all elements to differ", () => {
    table(ctx, [
      ["label=bug", true],
      ["label=BUG", true],
      ["label=nope", false],
      ["label!=bug", false],
      ["label!=nope", true],
      ["label~=^u", true],
      ["label~=^z", false],
      ["label*=b*", true],
      ["label>c", true],
      ["label<a", false],
      ["label>=ui", true],
      ["label<=bug", true],
      ["#label=2", true],
      ["#label>=3", false],
      ["-label=bug", false],
      ["-label=nope", true],
    ]);
  });
});

describe("operators on an empty list (no labels)", () => {
  const ctx = contextFor(pullRequest({ labels: [] }));
  it("any-element operators are false, != is true, the length is 0", () => {
    table(ctx, [
      ["label=bug", false],
      ["label!=bug", true],
      ["label~=.", false],
      ["label*=*", false],
      ["label<z", false],
      ["label>=a", false],
      ["#label=0", true],
      ["-label=bug", true],
    ]);
  });
});

describe("operators on a null value (no milestone, not merged)", () => {
  const ctx = contextFor(pullRequest({ milestone: null, mergedBy: null }));
  it("never satisfies =, <, >, <=, >=, ~=, *= and always satisfies !=", () => {
    table(ctx, [
      ["milestone=v1", false],
      ["milestone!=v1", true],
      ["milestone<v1", false],
      ["milestone>v1", false],
      ["milestone<=v1", false],
      ["milestone>=v1", false],
      ["milestone~=.", false],
      ["#milestone=0", true],
      ["-milestone=v1", true],
      ["merged-by*=*", false],
      ["merged-by!=bob", true],
    ]);
  });
});

describe("numbers, booleans and permissions", () => {
  it("compares numbers", () => {
    table(contextFor(pullRequest({ number: 42 })), [
      ["number=42", true],
      ["number!=42", false],
      ["number>41", true],
      ["number<42", false],
      ["number>=42", true],
      ["number<=41", false],
      ["-number=42", false],
      ["queue-position=-1", true],
    ]);
  });

  it("reads booleans bare or negated", () => {
    table(contextFor(pullRequest({ draft: true, conflict: false, locked: false })), [
      ["draft", true],
      ["-draft", false],
      ["conflict", false],
      ["-conflict", true],
      ["locked", false],
    ]);
  });

  it("orders permissions none < read < triage < write < maintain < admin", () => {
    const ctx = contextFor(pullRequest(), { queue: { sender: "bob", senderPermission: "write" } });
    table(ctx, [
      ["sender-permission>=write", true],
      ["sender-permission>=maintain", false],
      ["sender-permission<admin", true],
      ["sender-permission>triage", true],
      ["sender-permission=write", true],
      ["sender-permission!=write", false],
      ["-sender-permission>=write", false],
    ]);
    table(contextFor(pullRequest()), [
      ["sender-permission>=none", false],
      ["sender-permission!=admin", true],
    ]);
  });
});

describe("attribute values built from the snapshot", () => {
  it("keeps the latest decisive review per user and comments apart", () => {
    const ctx = contextFor(
      pullRequest({
        reviews: [
          review("bob", "APPROVED", 1),
          review("bob", "COMMENTED", 2),
          review("carol", "APPROVED", 1),
          review("carol", "CHANGES_REQUESTED", 3),
          review("dave", "DISMISSED", 4),
        ],
      }),
    );
    table(ctx, [
      ["approved-reviews-by=bob", true],
      ["commented-reviews-by=bob", true],
      ["approved-reviews-by=carol", false],
      ["changes-requested-reviews-by=carol", true],
      ["dismissed-reviews-by=dave", true],
      ["#approved-reviews-by=1", true],
      ["#changes-requested-reviews-by=0", false],
    ]);
  });

  it("removes HTML comments from body but not from body-raw", () => {
    const ctx = contextFor(pullRequest({ body: "Hello <!-- secret --> there" }));
    table(ctx, [
      ["body~=secret", false],
      ["body=Hello  there", true],
      ["body-raw~=secret", true],
    ]);
  });

  it("files by kind, lines by count, commits behind", () => {
    const ctx = contextFor(
      pullRequest({
        files: ["a.py", "docs/b.md"],
        addedFiles: ["docs/b.md"],
        modifiedFiles: ["a.py"],
        addedLines: 120,
        deletedLines: 30,
        commitsBehind: 3,
      }),
    );
    table(ctx, [
      ["files~=\\.py$", true],
      ["added-files=docs/b.md", true],
      ["modified-files=docs/b.md", false],
      ["#removed-files=0", true],
      ["#files=2", true],
      ["#added-lines>100", true],
      ["#deleted-lines=30", true],
      ["#modified-lines=150", true],
      ["#commits-behind>0", true],
    ]);
  });

  it("sorts checks by state; failure includes cancelled, timed out and action required; own checks are ignored", () => {
    const ctx = contextFor(
      pullRequest({
        checks: [
          checkRun("build", "success"),
          checkRun("lint", "neutral"),
          checkRun("e2e", "cancelled"),
          checkRun("deploy", "action_required"),
          checkRun("docs", "skipped"),
          checkRun("Summary", "failure", "yardmaster"),
        ],
      }),
    );
    table(ctx, [
      ["check-success=build", true],
      ["check-neutral=lint", true],
      ["check-failure=e2e", true],
      ["check-cancelled=e2e", true],
      ["check-failure=deploy", true],
      ["check-skipped=docs", true],
      ["check-success-or-neutral=lint", true],
      ["status-success=build", true],
      ["#check-failure=2", true],
      ["check=docs", true],
      ["#check=5", true],
    ]);
  });

  it("computes linear history, fork, configuration change and Dependabot fields from commits and files", () => {
    const ctx = contextFor(
      pullRequest({
        fromFork: true,
        files: [".yardmaster.yml"],
        commits: [
          commit({
            message:
              "Bump lodash\n\n---\nupdated-dependencies:\n- dependency-name: lodash\n  dependency-type: direct:production\n  update-type: version-update:semver-patch\n...",
          }),
          commit({
            sha: "e".repeat(40),
            parents: ["1".repeat(40), "2".repeat(40)],
            author: "bob",
            verified: false,
            message: "Merge main",
          }),
        ],
      }),
    );
    table(ctx, [
      ["linear-history", false],
      ["from-fork", true],
      ["yardmaster-configuration-changed", true],
      ["mergify-configuration-changed", true],
      ["dependabot-dependency-name=lodash", true],
      ["dependabot-dependency-type=direct:production", true],
      ["dependabot-update-type~=semver-patch$", true],
      ["#commits=2", true],
      ["commits[0].author=alice", true],
      ["commits[-1].author=bob", true],
      ["commits[*].author=bob", true],
      ["commits[*].author!=carol", true],
      ["commits[5].author=alice", false],
      ["commits[*].commit_verification_verified", true],
      ["commits[1].commit_verification_verified", false],
      ["commits-unverified=Merge main", true],
    ]);
  });

  it("reads the queue context: position, queue name, dequeue reason, scopes, dependencies", () => {
    const queued = contextFor(pullRequest(), {
      queue: {
        queueName: "default",
        queuePosition: 0,
        dequeueReason: "CHECKS_FAILED",
        scopes: ["frontend"],
        mergedDependencies: ["acme/widgets#12", "acme/other#3"],
      },
    });
    table(queued, [
      ["queue-position=0", true],
      ["queue-name=default", true],
      ["queue-dequeue-reason=checks-failed", true],
      ["queue-dequeue-reason!=none", true],
      ["scope=frontend", true],
      ["depends-on=#12", true],
      ["depends-on=acme/widgets#12", true],
      ["depends-on=acme/other#3", true],
      ["depends-on=#13", false],
      ["#depends-on=2", true],
    ]);
    table(contextFor(pullRequest()), [
      ["queue-dequeue-reason=none", true],
      ["queue-position<0", true],
      ["queue-name=default", false],
    ]);
  });
});

describe("templates and teams", () => {
  it("resolves {{ author }} against the pull request author", () => {
    table(contextFor(pullRequest(), { queue: { sender: "alice" } }), [["sender={{author}}", true]]);
    table(contextFor(pullRequest(), { queue: { sender: "bob" } }), [["sender={{ author }}", false]]);
  });

  it("matches logins against team members, case-insensitively", () => {
    const ctx = contextFor(pullRequest({ reviews: [review("Bob", "APPROVED")] }), {
      teams: { "@acme/core": ["bob", "ALICE"] },
    });
    table(ctx, [
      ["author=@acme/core", true],
      ["author!=@acme/core", false],
      ["approved-reviews-by=@ACME/core", true],
      ["author=ALICE", true],
    ]);
  });

  it("makes a leaf naming an unknown team false, with an evaluation error", () => {
    const result = evaluateCondition(parseCondition("author=@acme/ghosts"), contextFor());
    expect(result.match).toBe(false);
    expect(result.error).toBe("unknown team @acme/ghosts: its members are not known");
  });
});

function list(...items: unknown[]): Condition[] {
  const parsed = parseConditionList(items);
  if (parsed.conditions === null || parsed.conditions === true) throw new Error(JSON.stringify(parsed.issues));
  return parsed.conditions;
}

describe("groups", () => {
  const ctx = contextFor(pullRequest({ labels: labels("bug") }));
  it("and / or / not combine, a list is an implicit and, an empty list matches", () => {
    expect(evaluateConditions(list("label=bug", "base=main"), ctx).match).toBe(true);
    expect(evaluateConditions(list("label=bug", "base=dev"), ctx).match).toBe(false);
    expect(evaluateConditions(list({ or: ["label=x", "base=main"] }), ctx).match).toBe(true);
    expect(evaluateConditions(list({ or: ["label=x", "base=dev"] }), ctx).match).toBe(false);
    expect(evaluateConditions(list({ not: "label=bug" }), ctx).match).toBe(false);
    expect(evaluateConditions(list({ not: { or: ["label=x", "base=dev"] } }), ctx).match).toBe(true);
    expect(evaluateConditions(list({ and: [] }), ctx).match).toBe(true);
    expect(evaluateConditions(list({ or: [] }), ctx).match).toBe(false);
    expect(evaluateConditions([], ctx).match).toBe(true);
  });

  it("keeps the tree: one evaluated node per condition, in order", () => {
    const tree = evaluateConditions(list("label=bug", { or: ["base=dev", { not: "draft" }] }), ctx);
    expect(tree.subconditions.map((s) => s.match)).toEqual([true, true]);
    expect(tree.subconditions[1].subconditions.map((s) => s.match)).toEqual([false, true]);
    expect(tree.subconditions[1].subconditions[1].subconditions[0].match).toBe(false);
  });

  it("an error inside a group makes only its leaf false", () => {
    const tree = evaluateConditions(list({ or: ["author=@nobody", "label=bug"] }), ctx);
    expect(tree.match).toBe(true);
    expect(tree.subconditions[0].subconditions[0].error).toBe("unknown team @nobody: its members are not known");
  });
});
