/**
 * A check run's log (docs/dashboard.md "Pages"), where a local CI check's link leads
 * (`local-forge://owner/name/check-runs/ID`): its name, state, commit, times and the captured
 * output (ForgeService.GetCheckRunLog), read again every {@link LOG_POLL_MS} until it concludes.
 */
import { forge } from "../api/clients.js";
import { useLive, sleep } from "../api/live.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { ErrorNote, isNotFound, LiveBadge, NotFound, StateBadge } from "../components/status.js";
import { duration, toDate, when } from "../format.js";

/** How often an unfinished run is read again, in milliseconds. */
export const LOG_POLL_MS = 2000;

/** Check run `id` of `repo`. */
export function CheckRunPage({ repo, id }: { repo: RepositoryRef; id: bigint }) {
  const { value, error, live, stopped } = useLive(
    async function* (signal) {
      for (;;) {
        const run = await forge.getCheckRunLog({ ...repo, checkRunId: id }, { signal });
        yield run;
        if (run.completedAt || signal.aborted) return;
        await sleep(LOG_POLL_MS, signal);
      }
    },
    [repo.owner, repo.repository, id],
  );
  if (isNotFound(error)) return <NotFound what={`${repo.owner}/${repo.repository} has no check run ${id}.`} />;
  const started = toDate(value?.startedAt);
  const completed = toDate(value?.completedAt);
  return (
    <>
      <h1>
        <span>{value ? value.name : `Check run ${id}`}</span>{" "}
        {value && !value.completedAt && <LiveBadge live={live} stopped={stopped} error={error} />}
      </h1>
      <ErrorNote error={error} />
      {value && (
        <>
          <p>
            <StateBadge state={value.state} /> {value.description}
          </p>
          <dl>
            <dt>Commit</dt>
            <dd>
              <code>{value.sha.slice(0, 12)}</code>
            </dd>
            <dt>Run by</dt>
            <dd>{value.app}</dd>
            <dt>Started</dt>
            <dd>{when(started)}</dd>
            <dt>Ended</dt>
            <dd>
              {when(completed)}
              {started && completed ? ` (${duration((completed.getTime() - started.getTime()) / 1000)})` : ""}
            </dd>
          </dl>
          <h2>Output</h2>
          {value.output ? (
            <pre class="log" data-testid="check-output">
              {value.output}
            </pre>
          ) : (
            <p>{value.completedAt ? "It wrote no output." : "No output yet."}</p>
          )}
        </>
      )}
    </>
  );
}
