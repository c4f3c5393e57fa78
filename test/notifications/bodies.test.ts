/**
 * What a webhook receives (docs/notifications.md "Payloads", "Verifying a delivery", "Slack"):
 * the event's REST JSON, the signature a receiver checks, one sentence per event for Slack, and
 * the event type patterns a subscription may name.
 */
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import {
  deliveryBody,
  eventPattern,
  signatureMatches,
  signatureOf,
  slackText,
  typeInWords,
} from "../../services/notifications/index.js";
import type { DeliveryEvent } from "../../services/store/index.js";

const event = (over: Partial<DeliveryEvent> = {}): DeliveryEvent => ({
  id: "9007199254740993",
  receivedAt: new Date("2026-11-27T09:14:03.112Z"),
  trigger: "merge queue internal",
  repository: "acme/widgets",
  pullRequest: "42",
  baseRef: "main",
  outcome: "success",
  type: "action.queue.merged",
  metadata: '{"branch":"main","queue_name":"default","merge_commit_sha":"9c1e2f3a4b5c6d7e"}',
  ...over,
});

describe("the JSON body", () => {
  it("is the event as /logs writes it, 64-bit ids exact, with the webhook's id", () => {
    const { body, contentType } = deliveryBody("json", "hook-1", event());
    expect(contentType).toBe("application/json");
    expect(body).toContain('"id":9007199254740993');
    expect(JSON.parse(body)).toEqual({
      webhook_id: "hook-1",
      event: {
        id: 9007199254740992, // JSON.parse rounds; the text above is exact
        received_at: "2026-11-27T09:14:03.112Z",
        trigger: "merge queue internal",
        repository: "acme/widgets",
        pull_request: 42,
        base_ref: "main",
        outcome: "success",
        type: "action.queue.merged",
        metadata: { branch: "main", queue_name: "default", merge_commit_sha: "9c1e2f3a4b5c6d7e" },
      },
    });
  });

  it("writes null for a repository-level event's pull request and base", () => {
    const e = JSON.parse(deliveryBody("json", "h", event({ pullRequest: null, baseRef: null })).body).event;
    expect(e.pull_request).toBeNull();
    expect(e.base_ref).toBeNull();
  });

  it("is the same bytes at every attempt", () => {
    expect(deliveryBody("json", "h", event()).body).toBe(deliveryBody("json", "h", event()).body);
  });
});

describe("the signature", () => {
  it("is sha256= and the hex HMAC-SHA256 of the raw body with the secret, as GitHub's", () => {
    const body = deliveryBody("json", "h", event()).body;
    const hex = createHmac("sha256", "a-secret-of-16-chars").update(body).digest("hex");
    expect(signatureOf("a-secret-of-16-chars", body)).toBe(`sha256=${hex}`);
  });

  it("matches only the same body and secret", () => {
    const sig = signatureOf("a-secret-of-16-chars", "{}");
    expect(signatureMatches("a-secret-of-16-chars", "{}", sig)).toBe(true);
    expect(signatureMatches("a-secret-of-16-chars", "{ }", sig)).toBe(false);
    expect(signatureMatches("another-secret-16c", "{}", sig)).toBe(false);
    expect(signatureMatches("a-secret-of-16-chars", "{}", undefined)).toBe(false);
    expect(signatureMatches("a-secret-of-16-chars", "{}", "sha256=00")).toBe(false);
  });
});

describe("Slack sentences", () => {
  const text = (e: DeliveryEvent) => JSON.parse(deliveryBody("slack", "h", e).body).text;

  it("say what happened to the pull request, where", () => {
    expect(text(event())).toBe("*acme/widgets* #42 was merged into `main` by the merge queue (9c1e2f3a4b5c)");
    expect(
      text(
        event({
          type: "action.queue.leave",
          outcome: "failure",
          metadata: JSON.stringify({
            merged: false,
            branch: "main",
            dequeue_code: "CHECKS_FAILED",
            reason: "checks failed: test",
          }),
        }),
      ),
    ).toBe("*acme/widgets* #42 was removed from the merge queue of `main` (CHECKS_FAILED): checks failed: test");
    expect(text(event({ type: "action.queue.enter", metadata: '{"branch":"main","queue_name":"default"}' }))).toBe(
      "*acme/widgets* #42 entered the merge queue of `main` (queue rule `default`)",
    );
  });

  it("name a batch's checks, its failing checks and a bisection's culprit", () => {
    const checks = { batch_name: "Batch 3", speculative_check_pull_request: { checks_conclusion: "failure" } };
    expect(
      text(
        event({
          type: "action.queue.checks_end",
          metadata: JSON.stringify({ ...checks, unsuccessful_checks: [{ name: "test" }, { name: "lint" }] }),
        }),
      ),
    ).toBe("*acme/widgets* (#42): Batch 3's checks ended: failure (failing: test, lint)");
    expect(
      text(
        event({
          type: "action.queue.batch_bisection_end",
          metadata: JSON.stringify({ batch_name: "Batch 3", culprit_found: true, culprit_pr_numbers: [44] }),
        }),
      ),
    ).toBe("*acme/widgets* (#42): bisection of Batch 3 found the culprit: #44");
  });

  it("say a repository's pause with who and why", () => {
    const pause = event({
      type: "queue.pause.create",
      pullRequest: null,
      metadata: JSON.stringify({
        reason: "release 1.0",
        created_by: { type: "application", id: "x", name: "admin application key" },
      }),
    });
    expect(text(pause)).toBe("*acme/widgets*: merge queue paused by admin application key: release 1.0");
  });

  it("escape what users wrote, so that it cannot mention a channel or forge a link", () => {
    const pause = event({
      type: "queue.pause.create",
      pullRequest: null,
      metadata: '{"reason":"<!channel> & <http://x|y>"}',
    });
    expect(text(pause)).toBe("*acme/widgets*: merge queue paused: &lt;!channel&gt; &amp; &lt;http://x|y&gt;");
  });

  it("name any other type in words, with its trigger, and a failed action's error", () => {
    expect(typeInWords("action.queue.checks_postponed")).toBe("checks postponed");
    expect(
      slackText(event({ type: "action.label", trigger: "Rule: triage", outcome: "failure" }), {
        error: "label not found",
      }),
    ).toBe("*acme/widgets* #42: label failed: label not found (Rule: triage)");
  });

  it("never fail on metadata of an unexpected shape", () => {
    expect(text(event({ type: "action.queue.checks_end", metadata: '{"unsuccessful_checks":"x"}' }))).toBe(
      "*acme/widgets* (#42): a batch's checks ended: ended",
    );
  });
});

describe("event type patterns", () => {
  it("accept a type, a prefix of some types, or *; resolve aliases; refuse the rest", () => {
    expect(eventPattern("action.queue.merged")).toBe("action.queue.merged");
    expect(eventPattern("action.queue.checks_not_started")).toBe("action.queue.checks_postponed");
    expect(eventPattern("queue.pause.*")).toBe("queue.pause.*");
    expect(eventPattern("*")).toBe("*");
    expect(eventPattern("action.queue.mergd")).toBeUndefined();
    expect(eventPattern("nothing.*")).toBeUndefined();
    expect(eventPattern("action.queue.merged*")).toBeUndefined();
  });
});
