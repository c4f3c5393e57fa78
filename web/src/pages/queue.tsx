/**
 * A branch's queue (docs/dashboard.md "Pages"): the pause banner and controls, the freeze banner,
 * the train of batches (each state explained), the pull requests waiting for a batch with their
 * position and estimate, the recently merged and removed pull requests, the scheduled freezes and
 * the scopes' lanes. Everything follows the live snapshot of {@link queueView}.
 */
import { queueView, type RepositoryRef, type QueueView } from "../api/queue-view.js";
import { useLive } from "../api/live.js";
import { BatchCard } from "../components/batch.js";
import { DequeueButton } from "../components/dequeue.js";
import { FreezeBanner, FreezeList } from "../components/freezes.js";
import { History } from "../components/history.js";
import { PauseControls } from "../components/pause.js";
import { ErrorNote, LiveBadge } from "../components/status.js";
import { etaText } from "../explain.js";
import { toDate, when } from "../format.js";
import { Link, paths } from "../router.js";

function Waiting({ repo, view, changed }: { repo: RepositoryRef; view: QueueView; changed: () => void }) {
  const waiting = view.status.waitingPullRequests;
  if (!waiting.length) return <p>No pull request waits for a batch.</p>;
  return (
    <div class="scroll">
      <table>
        <caption class="sr-only">Pull requests waiting for a batch</caption>
        <thead>
          <tr>
            <th scope="col">Position</th>
            <th scope="col">Pull request</th>
            <th scope="col">Queued</th>
            <th scope="col">Estimated merge</th>
            <th scope="col">Priority</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {waiting.map((pr) => {
            const s = view.standings.get(pr.number);
            return (
              <tr key={String(pr.number)} data-testid="waiting-pr">
                <td>{s ? s.position + 1 : "—"}</td>
                <td>
                  <Link href={paths.pull(repo.owner, repo.repository, pr.number)}>#{String(pr.number)}</Link> {pr.title}
                </td>
                <td>{when(toDate(pr.queuedAt))}</td>
                <td data-testid="waiting-eta">{etaText(s?.estimatedMergeAt, view.pause.paused)}</td>
                <td>{pr.priorityAlias}</td>
                <td>
                  <DequeueButton repo={repo} number={pr.number} changed={changed} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}

function Scopes({ view }: { view: QueueView }) {
  const lanes = Object.entries(view.status.scopeQueues);
  if (lanes.length === 0) return <p>No scope lane holds a batch.</p>;
  const names = new Map(view.status.batches.map((b) => [b.id, b.name]));
  return (
    <dl class="scopes">
      {lanes.map(([scope, ids]) => (
        <div key={scope}>
          <dt>{scope === "__default__" ? "default lane" : scope}</dt>
          <dd>{ids.values.map((v) => names.get(String(v.kind.value)) ?? String(v.kind.value)).join(", ") || "—"}</dd>
        </div>
      ))}
    </dl>
  );
}

/** The queue of `branch` in `repo`. */
export function QueuePage({ repo, branch }: { repo: RepositoryRef; branch: string }) {
  const {
    value: view,
    error,
    live,
    stopped,
    refresh,
  } = useLive(queueView(repo, branch), [repo.owner, repo.repository, branch]);
  const paused = view?.pause.paused ?? false;
  return (
    <>
      <h1>
        Queue of {branch} <LiveBadge live={live} stopped={stopped} error={error} />
      </h1>
      <ErrorNote error={error} />
      {view && (
        <>
          <PauseControls repo={repo} pause={view.pause} changed={refresh} />
          <FreezeBanner freezes={view.freezes} />
          <p class="muted">
            Mode: {view.status.mode} ·{" "}
            <Link href={paths.statistics(repo.owner, repo.repository, branch)}>Statistics of {branch}</Link>
          </p>
          <section aria-labelledby="train">
            <h2 id="train">Batches</h2>
            {view.status.batches.length === 0 && <p>No batch is being checked.</p>}
            {view.status.batches.map((b) => (
              <BatchCard
                key={b.id}
                repo={repo}
                batch={b}
                standings={view.standings}
                paused={paused}
                changed={refresh}
              />
            ))}
          </section>
          <section aria-labelledby="waiting">
            <h2 id="waiting">Waiting</h2>
            <Waiting repo={repo} view={view} changed={refresh} />
          </section>
        </>
      )}
      <section aria-labelledby="history">
        <h2 id="history">Recently merged and removed</h2>
        <History repo={repo} branch={branch} />
      </section>
      {view && (
        <>
          <section aria-labelledby="freezes">
            <h2 id="freezes">Scheduled freezes</h2>
            <FreezeList freezes={view.freezes} />
          </section>
          <section aria-labelledby="scopes">
            <h2 id="scopes">Scopes</h2>
            <Scopes view={view} />
          </section>
        </>
      )}
    </>
  );
}
