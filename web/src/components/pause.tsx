/**
 * The pause banner and controls of a repository's queue (docs/pause.md): the reason and since
 * when, "Unpause" while paused; a reason field and "Pause" otherwise. The banner follows the
 * page's live snapshot, so a pause made elsewhere shows too.
 */
import { useState } from "preact/hooks";
import type { GetMergeQueuePauseResponse } from "../../../gen/yardmaster/v1/queue_pb.js";
import { queue } from "../api/clients.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { toDate, when } from "../format.js";
import { ErrorNote } from "./status.js";

/** The banner and the pause / unpause controls; `changed` asks the page for a new snapshot. */
export function PauseControls(props: { repo: RepositoryRef; pause: GetMergeQueuePauseResponse; changed: () => void }) {
  const [error, setError] = useState<Error>();
  const [busy, setBusy] = useState(false);
  const act = async (call: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await call();
      setError(undefined);
      props.changed();
    } catch (e) {
      setError(e as Error);
    } finally {
      setBusy(false);
    }
  };
  const { pause } = props;
  if (pause.paused)
    return (
      <section class="banner" role="status" aria-label="Queue paused">
        <p>
          <strong>The queue is paused</strong>: {pause.reason}{" "}
          <time dateTime={toDate(pause.pausedAt)?.toISOString()}>(since {when(toDate(pause.pausedAt))})</time>
        </p>
        <button type="button" disabled={busy} onClick={() => act(() => queue.unpauseMergeQueue(props.repo))}>
          Unpause
        </button>
        <ErrorNote error={error} />
      </section>
    );
  return (
    <form
      class="inline"
      onSubmit={(e) => {
        e.preventDefault();
        const reason = new FormData(e.currentTarget as HTMLFormElement).get("reason") as string;
        act(() => queue.pauseMergeQueue({ ...props.repo, reason }));
      }}
    >
      <label>
        Pause reason <input name="reason" required maxLength={255} />
      </label>
      <button type="submit" disabled={busy}>
        Pause the queue
      </button>
      <ErrorNote error={error} />
    </form>
  );
}
