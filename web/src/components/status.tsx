/** Small shared views: a failed call's message, the live indicator, a state badge. */
import { ConnectError } from "@connectrpc/connect";

/** The service's message for a failed call, in an alert. */
export function ErrorNote({ error }: { error: Error | undefined }) {
  if (!error) return null;
  const text =
    error instanceof ConnectError
      ? `${error.code === 16 || error.code === 7 ? "Not allowed: " : ""}${error.rawMessage}`
      : error.message;
  return (
    <p role="alert" class="error">
      {text}
    </p>
  );
}

/** "live" while the page's source answers, "reconnecting" otherwise. */
export function LiveBadge({ live }: { live: boolean }) {
  return (
    <span class={`badge ${live ? "ok" : "warn"}`} data-testid="live">
      {live ? "live" : "reconnecting"}
    </span>
  );
}

const TONE: Record<string, string> = {
  success: "ok",
  merged: "ok",
  running: "run",
  pending: "run",
  preparing: "run",
  bisecting: "warn",
  failure: "bad",
  failed: "bad",
  error: "bad",
  timed_out: "bad",
  cancelled: "bad",
};

/** A state or status code as a coloured badge (the text carries the meaning, not the colour). */
export function StateBadge({ state }: { state: string }) {
  return <span class={`badge ${TONE[state] ?? "idle"}`}>{state.replaceAll("_", " ")}</span>;
}
