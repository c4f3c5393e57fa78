/**
 * The auto-quarantine settings of a repository on the Tests page (docs/ci-insights.md
 * "Auto-quarantine"): on/off, the health window, minimum runs, flakiness threshold, whether broken
 * tests are left alone, the recovery window and the expiry of an automatic quarantine. "Save" sends
 * every field with UpdateAutoQuarantine (which logs `ci_insights.auto_quarantine.enabled`,
 * `.disabled` or `.modified`); the service's refusal (a field out of range) shows beside the form.
 */
import type { AutoQuarantineSettings } from "../../../gen/yardmaster/v1/ci_insights_pb.js";
import { ciInsights } from "../api/ci-insights-client.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { ErrorNote } from "./status.js";
import { useAction } from "./use-action.js";

function NumberField(props: { name: string; label: string; value: number; min: number; max: number; step?: string }) {
  return (
    <label>
      {props.label}{" "}
      <input
        name={props.name}
        type="number"
        required
        min={props.min}
        max={props.max}
        step={props.step ?? "1"}
        defaultValue={String(props.value)}
      />
    </label>
  );
}

/** The settings form, filled with `settings` (re-filled when they change on the server). */
export function AutoQuarantineForm(props: {
  repo: RepositoryRef;
  settings: AutoQuarantineSettings;
  saved: () => void;
}) {
  const { error, busy, run } = useAction(props.saved);
  const s = props.settings;
  // A new key re-creates the uncontrolled inputs when the stored settings change elsewhere.
  const key = [
    s.enabled,
    s.windowDays,
    s.minRuns,
    s.flakinessThreshold,
    s.ignoreBrokenOnDefaultBranch,
    s.recoveryDays,
    s.expiryDays,
  ].join("|");
  return (
    <form
      key={key}
      class="inline"
      aria-label="Auto-quarantine settings"
      onSubmit={async (e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget as HTMLFormElement);
        const num = (k: string) => Number(data.get(k));
        await run(() =>
          ciInsights.updateAutoQuarantine({
            ...props.repo,
            enabled: data.get("enabled") === "on",
            windowDays: num("window_days"),
            minRuns: num("min_runs"),
            flakinessThreshold: num("flakiness_threshold"),
            ignoreBrokenOnDefaultBranch: data.get("ignore_broken") === "on",
            recoveryDays: num("recovery_days"),
            expiryDays: num("expiry_days"),
          }),
        );
      }}
    >
      <label>
        <input name="enabled" type="checkbox" defaultChecked={s.enabled} /> Quarantine flaky tests automatically
      </label>
      <NumberField name="window_days" label="Window (days)" value={s.windowDays} min={1} max={90} />
      <NumberField name="min_runs" label="Minimum runs" value={s.minRuns} min={1} max={10000} />
      <NumberField
        name="flakiness_threshold"
        label="Flakiness threshold (0-1)"
        value={s.flakinessThreshold}
        min={0}
        max={1}
        step="0.01"
      />
      <label>
        <input name="ignore_broken" type="checkbox" defaultChecked={s.ignoreBrokenOnDefaultBranch} /> Leave broken tests
        of the default branch failing
      </label>
      <NumberField name="recovery_days" label="Recovery window (days)" value={s.recoveryDays} min={1} max={90} />
      <NumberField name="expiry_days" label="Expiry (days, 0 = until lifted)" value={s.expiryDays} min={0} max={365} />
      <button type="submit" disabled={busy}>
        Save
      </button>
      <ErrorNote error={error} />
    </form>
  );
}
