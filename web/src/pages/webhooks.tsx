/**
 * The webhooks of a repository (docs/dashboard.md "Pages", docs/notifications.md): its
 * subscriptions (URL, format, event types) with a form to add one and a button to remove one, and
 * the delivery log, newest first, each delivery with its attempts (time, duration, status or
 * failure) and a "Redeliver" button. Refreshed every 3 s, so a retry or a redelivery shows.
 */
import { useState } from "preact/hooks";
import { WebhookFormat, type WebhookDelivery } from "../../../gen/yardmaster/v1/webhooks_pb.js";
import { poll, useLive } from "../api/live.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { webhooks } from "../api/webhooks-client.js";
import { toDate, when } from "../format.js";
import { ErrorNote, StateBadge } from "../components/status.js";
import { useAction } from "../components/use-action.js";

function AddWebhook({ repo, added }: { repo: RepositoryRef; added: () => void }) {
  const { error, busy, run } = useAction(added);
  const [secret, setSecret] = useState<string>();
  return (
    <form
      class="inline"
      aria-label="Add a webhook"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = e.currentTarget as HTMLFormElement;
        const data = new FormData(form);
        const res = await run(() =>
          webhooks.createWebhook({
            ...repo,
            url: String(data.get("url")),
            eventTypes: String(data.get("events"))
              .split(/[\s,]+/)
              .filter((t) => t !== ""),
            format: data.get("format") === "slack" ? WebhookFormat.slack : WebhookFormat.json,
          }),
        );
        if (res) {
          setSecret(res.secret);
          form.reset();
        }
      }}
    >
      <label>
        URL <input name="url" type="url" required placeholder="https://example.com/hooks" />
      </label>
      <label>
        Events <input name="events" required placeholder="action.queue.merged, action.queue.leave" />
      </label>
      <label>
        Format{" "}
        <select name="format">
          <option value="json">JSON (signed)</option>
          <option value="slack">Slack message</option>
        </select>
      </label>
      <button type="submit" disabled={busy}>
        Add webhook
      </button>
      {secret && (
        <p role="status">
          Signing secret, shown only now: <code>{secret}</code>
        </p>
      )}
      <ErrorNote error={error} />
    </form>
  );
}

function DeliveryRow(props: { d: WebhookDelivery; url: string; redeliver: () => void; busy: boolean }) {
  const { d, redeliver, busy } = props;
  const last = d.attempts.at(-1);
  return (
    <tr data-delivery={d.id}>
      <td>
        <time title={toDate(d.createdAt)?.toISOString()}>{when(toDate(d.createdAt))}</time>
      </td>
      <td>
        {d.eventType}
        {d.pullRequest !== undefined && ` #${d.pullRequest}`}
      </td>
      <td style={{ overflowWrap: "anywhere" }}>{props.url}</td>
      <td>
        <StateBadge state={d.state} />
      </td>
      <td>
        <details>
          <summary>
            {d.attempts.length} attempt{d.attempts.length === 1 ? "" : "s"}
            {last && `: ${last.statusCode !== undefined ? `status ${last.statusCode}` : (last.error ?? "")}`}
          </summary>
          <ol>
            {d.attempts.map((a) => (
              <li key={a.attempt}>
                {when(toDate(a.startedAt))}, {a.durationMs} ms,{" "}
                {a.statusCode !== undefined ? `status ${a.statusCode}` : a.error}
                {a.redelivery && " (redelivery)"}
              </li>
            ))}
          </ol>
        </details>
      </td>
      <td>
        <button type="button" disabled={busy} onClick={redeliver}>
          Redeliver
        </button>
      </td>
    </tr>
  );
}

/** The webhooks page of `repo`. */
export function WebhooksPage({ repo }: { repo: RepositoryRef }) {
  const live = useLive(
    poll(async (signal) => {
      const [hooks, log] = await Promise.all([
        webhooks.listWebhooks(repo, { signal }),
        webhooks.listWebhookDeliveries({ ...repo, perPage: 50 }, { signal }),
      ]);
      return { hooks: hooks.webhooks, deliveries: log.deliveries };
    }, 3000),
    [repo.owner, repo.repository],
  );
  const action = useAction(live.refresh);
  const value = live.value;
  return (
    <>
      <h1>Webhooks</h1>
      <ErrorNote error={live.error ?? action.error} />
      <section aria-labelledby="subscriptions">
        <h2 id="subscriptions">Subscriptions</h2>
        {value && value.hooks.length === 0 && <p>No webhooks: events reach nobody outside the dashboard.</p>}
        {value && value.hooks.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">URL</th>
                <th scope="col">Format</th>
                <th scope="col">Events</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {value.hooks.map((w) => (
                <tr key={w.id} data-webhook={w.id}>
                  <td style={{ overflowWrap: "anywhere" }}>{w.url}</td>
                  <td>{w.format === WebhookFormat.slack ? "Slack" : "JSON"}</td>
                  <td style={{ overflowWrap: "anywhere" }}>{w.eventTypes.join(", ")}</td>
                  <td>
                    <button
                      type="button"
                      disabled={action.busy}
                      onClick={() => action.run(() => webhooks.deleteWebhook({ ...repo, id: w.id }))}
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <AddWebhook repo={repo} added={live.refresh} />
      </section>
      <section aria-labelledby="deliveries">
        <h2 id="deliveries">Delivery log</h2>
        {value && value.deliveries.length === 0 && <p>No deliveries yet.</p>}
        {value && value.deliveries.length > 0 && (
          <table>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Event</th>
                <th scope="col">Webhook</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {value.deliveries.map((d) => (
                <DeliveryRow
                  key={d.id}
                  d={d}
                  url={value.hooks.find((w) => w.id === d.webhookId)?.url ?? d.webhookId}
                  busy={action.busy}
                  redeliver={() => action.run(() => webhooks.redeliverWebhookDelivery({ ...repo, id: d.id }))}
                />
              ))}
            </tbody>
          </table>
        )}
      </section>
    </>
  );
}
