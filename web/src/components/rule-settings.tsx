/**
 * The settings a queue rule runs with, from its API `config` (docs/configuration.md "API output
 * of queue rules"): batch size, batch wait, parallel checks, checks timeout. For a self-tuned rule
 * (its `self_tuning` key, docs/self-tuning.md "Where it shows") the configured values beside them
 * and the observed traffic they were chosen from, or a note that they are the static defaults.
 */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import { duration, when } from "../format.js";

interface Tunable {
  batch_size: { min: number; max: number };
  batch_max_wait_time: number;
  max_parallel_checks: number;
}
interface SelfTuning extends Tunable {
  configured: Tunable;
  observed: { arrivals_per_hour: number; ci_duration: number; failure_rate: number; computed_at: string | null } | null;
}

const num = (v: JsonValue | undefined): number | null => (typeof v === "number" ? v : null);

function rows(config: JsonObject, tuning: SelfTuning | null): [string, string, string | null][] {
  const text = (n: number | null, f: (n: number) => string) => (n === null ? "—" : f(n));
  const seconds = (n: number) => duration(n);
  const parallel = tuning?.max_parallel_checks ?? num(config.max_parallel_checks);
  const timeout = num(config.checks_timeout);
  const timeoutText = timeout === 0 ? "none" : text(timeout, seconds);
  const c = tuning?.configured;
  return [
    [
      "Batch size",
      `${text(num(config.batch_size_min), String)}–${text(num(config.batch_size_max), String)}`,
      c ? `${c.batch_size.min}–${c.batch_size.max}` : null,
    ],
    ["Batch max wait time", text(num(config.batch_max_wait_time), seconds), c ? seconds(c.batch_max_wait_time) : null],
    ["Max parallel checks", text(parallel, String), c ? String(c.max_parallel_checks) : null],
    // Not tuned: the configured timeout is the running one.
    ["Checks timeout", timeoutText, c ? timeoutText : null],
  ];
}

function Observed({ tuning }: { tuning: SelfTuning }) {
  const o = tuning.observed;
  if (!o)
    return (
      <p data-testid="self-tuning">
        <span class="badge">self-tuned</span> Static defaults: the repository has too little recorded traffic yet (20
        resolved pull requests and 5 concluded checks in 7 days).
      </p>
    );
  const at = o.computed_at ? new Date(o.computed_at) : undefined;
  return (
    <div data-testid="self-tuning">
      <p>
        <span class="badge ok">self-tuned</span> Chosen by self-tuning from the traffic of the last 7 days:
      </p>
      <dl class="config">
        <div>
          <dt>Arrival rate</dt>
          <dd data-testid="arrival-rate">{o.arrivals_per_hour.toFixed(1)} pull requests per hour</dd>
        </div>
        <div>
          <dt>CI duration (median)</dt>
          <dd data-testid="ci-duration">{duration(o.ci_duration)}</dd>
        </div>
        <div>
          <dt>Failure rate</dt>
          <dd data-testid="failure-rate">{(o.failure_rate * 100).toFixed(1)}%</dd>
        </div>
        <div>
          <dt>Computed</dt>
          <dd data-testid="computed-at">
            <time dateTime={o.computed_at ?? undefined} title={o.computed_at ?? undefined}>
              {when(at)}
            </time>
          </dd>
        </div>
      </dl>
    </div>
  );
}

/** The running settings of the queue rule `name` with API config `config`. */
export function RuleSettings({ name, config }: { name: string; config: JsonObject }) {
  const tuning = (config.self_tuning ?? null) as SelfTuning | null;
  return (
    <>
      <table data-testid="rule-settings">
        <caption class="sr-only">Settings of {name}</caption>
        <thead>
          <tr>
            <th scope="col">Setting</th>
            <th scope="col">Running</th>
            {tuning && <th scope="col">Configured</th>}
          </tr>
        </thead>
        <tbody>
          {rows(config, tuning).map(([label, running, configured]) => (
            <tr key={label}>
              <th scope="row">{label}</th>
              <td>{running}</td>
              {tuning && <td>{configured}</td>}
            </tr>
          ))}
        </tbody>
      </table>
      {tuning && <Observed tuning={tuning} />}
    </>
  );
}
