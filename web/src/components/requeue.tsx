/**
 * Queue, requeue and priority from the pull request page (docs/dashboard.md "Pages"): the
 * same request as the `@yardmaster queue [rule]` and `@yardmaster requeue [rule]` comments
 * (EnqueuePullRequest, through the API). A pull request's place in the queue follows its
 * effective priority, the rank of its queue rule with the priority its priority rules give it
 * (docs/merge-queue.md rule 2): queueing it again under another rule changes it; the queue
 * answers with the rule it entered and its position, or why it refused.
 */
import { ConnectError } from "@connectrpc/connect";
import { useState } from "preact/hooks";
import { queue } from "../api/clients.js";
import type { RepositoryRef } from "../api/queue-view.js";

/** The form: a rule (or the first whose queue conditions match) and one button. */
export function RequeueForm(props: {
  repo: RepositoryRef;
  number: bigint;
  queued: boolean;
  currentRule: string;
  rules: string[];
  changed: () => void;
}) {
  const [answer, setAnswer] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    const rule = String(new FormData(e.currentTarget as HTMLFormElement).get("rule") ?? "");
    setBusy(true);
    try {
      const r = await queue.enqueuePullRequest({ ...props.repo, prNumber: props.number, queueRule: rule });
      setAnswer({ ok: true, text: `Queued under ${r.queueRule}, at position ${Number(r.position) + 1}.` });
      props.changed();
    } catch (err) {
      setAnswer({ ok: false, text: ConnectError.from(err).rawMessage });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="inline" onSubmit={submit} aria-label="Queue again" data-testid="requeue">
      <label>
        {props.queued ? "Queue again under" : "Queue under"}
        <select name="rule" defaultValue={props.queued ? props.currentRule : ""}>
          <option value="">the first queue rule whose conditions match</option>
          {props.rules.map((r) => (
            <option key={r} value={r}>
              {r}
              {r === props.currentRule && props.queued ? " (its rule now)" : ""}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" disabled={busy}>
        {props.queued ? "Queue again" : "Queue"}
      </button>
      {answer && (
        <p role={answer.ok ? "status" : "alert"} class={answer.ok ? "" : "error"} data-testid="requeue-answer">
          {answer.text}
        </p>
      )}
    </form>
  );
}
