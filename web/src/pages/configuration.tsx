/**
 * The configuration (docs/dashboard.md "Pages"): the active queue rules (GetQueuesConfiguration,
 * refreshed live), each with the settings it runs with (self-tuned ones with the traffic they were
 * chosen from) and every key with its default filled, and the configuration simulator.
 */
import type { JsonValue } from "@bufbuild/protobuf";
import { queue } from "../api/clients.js";
import { poll, useLive } from "../api/live.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { RuleSettings } from "../components/rule-settings.js";
import { Simulator } from "../components/simulator.js";
import { ErrorNote } from "../components/status.js";

const EXAMPLE =
  'queue_rules:\n  - name: default\n    batch_size: 2\n    merge_conditions:\n      - "#approved-reviews-by>=1"\n';

function show(v: JsonValue | undefined): string {
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** The configuration page of `repo`. */
export function ConfigurationPage({ repo }: { repo: RepositoryRef }) {
  const { value, error } = useLive(
    poll((signal) => queue.getQueuesConfiguration(repo, { signal }), 5000),
    [repo.owner, repo.repository],
  );
  return (
    <>
      <h1>Configuration</h1>
      <section aria-labelledby="active">
        <h2 id="active">Active queue rules</h2>
        <ErrorNote error={error} />
        {value && value.configuration.length === 0 && <p>No configuration file: the defaults apply.</p>}
        {value?.configuration.map((rule, i) => (
          <section key={rule.name} aria-labelledby={`rule-${i}`} data-rule={rule.name}>
            <h3 id={`rule-${i}`}>{rule.name}</h3>
            <RuleSettings name={rule.name} config={rule.config ?? {}} />
            <details>
              <summary>Every key of {rule.name}</summary>
              <dl class="config">
                {Object.entries(rule.config ?? {}).map(([k, v]) => (
                  <div key={k}>
                    <dt>{k}</dt>
                    <dd>
                      <code>{show(v)}</code>
                    </dd>
                  </div>
                ))}
              </dl>
            </details>
          </section>
        ))}
      </section>
      <section aria-labelledby="simulator">
        <h2 id="simulator">Simulator</h2>
        <Simulator repo={repo} initial={EXAMPLE} />
      </section>
    </>
  );
}
