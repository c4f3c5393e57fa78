/**
 * Dequeue with its impact shown first (docs/api.md "Dequeue impact"): the button opens a modal
 * dialog that loads GetDequeueImpact (batches interrupted, pull requests rechecked, stacked pull
 * requests dequeued too) and dequeues only when the user confirms. Escape or Cancel closes it.
 */
import { useRef, useState } from "preact/hooks";
import type { GetDequeueImpactResponse } from "../../../gen/yardmaster/v1/queue_pb.js";
import { queue } from "../api/clients.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { ErrorNote } from "./status.js";

/** A "Dequeue" button for pull request `number`; `changed` asks the page for a new snapshot. */
export function DequeueButton(props: { repo: RepositoryRef; number: bigint; changed: () => void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  const [impact, setImpact] = useState<GetDequeueImpactResponse>();
  const [error, setError] = useState<Error>();
  const req = { ...props.repo, prNumber: props.number };
  const open = async () => {
    setImpact(undefined);
    setError(undefined);
    dialog.current?.showModal();
    try {
      setImpact(await queue.getDequeueImpact(req));
    } catch (e) {
      setError(e as Error);
    }
  };
  const confirm = async () => {
    try {
      await queue.dequeuePullRequest(req);
      dialog.current?.close();
      props.changed();
    } catch (e) {
      setError(e as Error);
    }
  };
  return (
    <>
      <button type="button" class="small" onClick={open} aria-label={`Dequeue #${props.number}`}>
        Dequeue
      </button>
      <dialog ref={dialog} aria-labelledby={`dq-${props.number}`}>
        <h2 id={`dq-${props.number}`}>Dequeue #{String(props.number)}?</h2>
        {impact ? (
          <ul data-testid="dequeue-impact">
            <li>{impact.interruptedBatches} batch(es) in progress interrupted and restarted</li>
            <li>{impact.recheckedPullRequests} other pull request(s) rechecked</li>
            <li>{impact.cascadedPullRequests} stacked pull request(s) dequeued too</li>
          </ul>
        ) : (
          !error && <p>Computing the impact…</p>
        )}
        <ErrorNote error={error} />
        <div class="actions">
          <button type="button" disabled={!impact} onClick={confirm}>
            Dequeue
          </button>
          <button type="button" onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
