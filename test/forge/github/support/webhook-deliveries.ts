/**
 * GitHub's webhook deliveries to `yardmaster serve` processes, as GitHub sends them
 * (https://docs.github.com/en/webhooks/webhook-events-and-payloads#delivery-headers): a JSON body
 * signed with the App's secret (`X-Hub-Signature-256`, HMAC-SHA256,
 * https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries), the event in
 * `X-GitHub-Event` and a fresh `X-GitHub-Delivery` id. Several processes stand behind one address,
 * as behind a load balancer: each delivery goes to the next process in turn, and one that refuses
 * the connection, resets it, does not answer within the timeout or answers 5xx is skipped for the
 * next (what a load balancer's retry on another backend does); the same delivery id is sent each
 * time, so a process that did receive it takes it once. The payload builders fill only what the
 * webhook route reads (services/forge/github/webhook-events.ts).
 */
import { createHmac, randomUUID } from "node:crypto";
import type { DoubleRepo } from "./double-state.js";

/** How a delivery ended: the answer that was kept, and how many processes were tried. */
export interface Delivery {
  id: string;
  event: string;
  /** The payload's `repository.full_name`. */
  repository: string;
  /** When the first attempt began (epoch ms). */
  sentAt: number;
  status: number;
  /** The webhook route's JSON answer (`status`: processed, duplicate, ignored...). */
  body: { status?: string };
  attempts: number;
  /** The process that answered (its base URL). */
  target: string;
}

/** Delivers signed webhooks to the processes `targets()` lists at each attempt. */
export class WebhookSender {
  private next = 0;

  constructor(
    private readonly secret: string,
    private readonly targets: () => string[],
    private readonly opts: { attemptTimeoutMs?: number; maxAttempts?: number } = {},
  ) {}

  /** The `X-Hub-Signature-256` of `body`. */
  signature(body: string): string {
    return `sha256=${createHmac("sha256", this.secret).update(body).digest("hex")}`;
  }

  /**
   * Delivers one event, trying process after process until one answers below 500.
   * @throws Error when every attempt failed (the last failure in the message)
   */
  async deliver(event: string, payload: object): Promise<Delivery> {
    const id = randomUUID();
    const body = JSON.stringify(payload);
    const headers = {
      "content-type": "application/json",
      "user-agent": "GitHub-Hookshot/test",
      "x-github-event": event,
      "x-github-delivery": id,
      "x-hub-signature-256": this.signature(body),
    };
    const repository = String((payload as { repository?: { full_name?: string } }).repository?.full_name);
    const sentAt = Date.now();
    const max = this.opts.maxAttempts ?? 100;
    let last = "no process to deliver to";
    for (let attempt = 1; attempt <= max; attempt++) {
      const targets = this.targets();
      if (targets.length === 0) {
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      const target = targets[this.next++ % targets.length];
      try {
        const res = await fetch(`${target}/webhooks/github`, {
          method: "POST",
          headers,
          body,
          signal: AbortSignal.timeout(this.opts.attemptTimeoutMs ?? 5000),
        });
        const answer = (await res.json().catch(() => ({}))) as Delivery["body"];
        if (res.status < 500)
          return { id, event, repository, sentAt, status: res.status, body: answer, attempts: attempt, target };
        last = `${target} answered ${res.status}`;
      } catch (e) {
        last = `${target}: ${(e as Error).message}`;
      }
      if (attempt % targets.length === 0) await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`delivery ${id} (${event}) failed ${max} times; last: ${last}`);
  }
}

/** `issue_comment` created on pull request `number` by `login` (a User). */
export function commentPayload(repo: DoubleRepo, number: number, body: string, login = "octocat"): object {
  return {
    action: "created",
    repository: { full_name: repo.fullName, id: repo.id },
    issue: { number, pull_request: { url: `https://api.github.com/repos/${repo.fullName}/pulls/${number}` } },
    comment: {
      id: Math.floor(Math.random() * 2 ** 40) + 1,
      body,
      html_url: null,
      user: { login, id: 583231, type: "User" },
    },
    sender: { login },
  };
}

/** `pull_request` with `action` (opened, synchronize, labeled, ...) for pull request `number` at `headSha`. */
export function pullRequestPayload(repo: DoubleRepo, number: number, action: string, headSha: string): object {
  return {
    action,
    number,
    repository: { full_name: repo.fullName, id: repo.id },
    pull_request: { number, head: { sha: headSha }, merged: false, merge_commit_sha: null },
    sender: { login: "octocat" },
  };
}

/** `check_run` with `action` (completed, ...) on commit `headSha`. */
export function checkRunPayload(repo: DoubleRepo, headSha: string, action = "completed"): object {
  return {
    action,
    repository: { full_name: repo.fullName, id: repo.id },
    check_run: { head_sha: headSha, name: "ci", status: "completed", conclusion: "success" },
    sender: { login: "github-actions[bot]" },
  };
}
