/** Small shared views: a failed call's message, the live indicator, a state badge, the not-found page. */
import { Code, ConnectError } from "@connectrpc/connect";
import type { ComponentChildren } from "preact";
import { Link } from "../router.js";

/** The service's message for a failed call, in an alert, with what it means for the page. */
export function ErrorNote({ error }: { error: Error | undefined }) {
  if (!error) return null;
  const e = error instanceof ConnectError ? error : null;
  const prefix =
    e?.code === Code.PermissionDenied || e?.code === Code.Unauthenticated
      ? "Not allowed: "
      : e?.code === Code.NotFound
        ? "Not found: "
        : "";
  return (
    <p role="alert" class="error">
      {prefix}
      {e ? e.rawMessage : error.message}
    </p>
  );
}

/**
 * "live" while the page's source answers; "connecting" before its first answer; "reconnecting"
 * while it is retried after an error; "stopped" after a refusal that trying again cannot change.
 */
export function LiveBadge(props: { live: boolean; stopped?: boolean; error?: Error | undefined }) {
  const { live, stopped = false, error } = props;
  const text = live ? "live" : stopped ? "stopped" : error ? "reconnecting" : "connecting";
  return (
    <span class={`badge ${live ? "ok" : stopped ? "bad" : error ? "warn" : "idle"}`} data-testid="live">
      {text}
    </span>
  );
}

const TONE: Record<string, string> = {
  success: "ok",
  passed: "ok",
  healthy: "ok",
  flaky: "warn",
  broken: "bad",
  merged: "ok",
  waiting_for_merge: "ok",
  running: "run",
  pending: "run",
  preparing: "run",
  bisecting: "warn",
  frozen: "warn",
  waiting_schedule: "warn",
  failure: "bad",
  failed: "bad",
  waiting_for_previous_batches: "bad",
  error: "bad",
  timed_out: "bad",
  cancelled: "bad",
};

/** A state or status code as a coloured badge; the text carries the meaning, not the colour. */
export function StateBadge({ state, label }: { state: string; label?: string }) {
  return <span class={`badge ${TONE[state] ?? "idle"}`}>{label ?? state.replaceAll("_", " ")}</span>;
}

/** Whether `e` is the service's NOT_FOUND. */
export const isNotFound = (e: Error | undefined) => e instanceof ConnectError && e.code === Code.NotFound;

/** The page shown for a repository or an object the service does not know. */
export function NotFound({ what, children }: { what: string; children?: ComponentChildren }) {
  return (
    <section aria-labelledby="not-found" data-testid="not-found">
      <h1 id="not-found">Not found</h1>
      <p>{what}</p>
      {children}
      <p>
        <Link href="/">Your repositories</Link>
      </p>
    </section>
  );
}
