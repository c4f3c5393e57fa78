/**
 * The repositories the credential reaches (docs/dashboard.md "Repositories"): the home page lists
 * them (ListRepositories, read every {@link REPOSITORIES_POLL_MS}) with their branches and queue,
 * pause and scheduled freezes; a repository's page shows the same for one (GetRepository), or
 * "not found" when the service knows no such repository.
 */
import type { Repository } from "../../../gen/yardmaster/v1/queue_pb.js";
import { queue } from "../api/clients.js";
import { poll, useLive } from "../api/live.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { ErrorNote, isNotFound, LiveBadge, NotFound } from "../components/status.js";
import { toDate, when } from "../format.js";
import { Link, paths } from "../router.js";

/** How often the home page reads the list again, in milliseconds. */
export const REPOSITORIES_POLL_MS = 5000;

/** The branches of a repository with their queue; the default branch listed even without one. */
function Branches({ repo }: { repo: Repository }) {
  const branches = [...repo.branches];
  if (repo.defaultBranch && !branches.some((b) => b.name === repo.defaultBranch))
    branches.unshift({ name: repo.defaultBranch, queued: 0, inBatches: 0 } as Repository["branches"][number]);
  if (branches.length === 0) return <span class="muted">no queue yet</span>;
  return (
    <ul class="inline-list">
      {branches.map((b) => (
        <li key={b.name}>
          <Link href={paths.queue(repo.owner, repo.repository, b.name)}>{b.name}</Link>{" "}
          <span class="muted">
            {b.queued === 0 ? "empty" : `${b.queued} queued${b.inBatches ? `, ${b.inBatches} in batches` : ""}`}
          </span>
        </li>
      ))}
    </ul>
  );
}

/** The pause and freeze badges of a repository. */
function Holds({ repo }: { repo: Repository }) {
  return (
    <>
      {repo.pause && (
        <span class="badge warn" title={`since ${when(toDate(repo.pause.pausedAt))}`}>
          paused: {repo.pause.reason}
        </span>
      )}{" "}
      {repo.activeFreezes.map((f) => (
        <span key={f.id} class="badge warn">
          frozen: {f.reason}
        </span>
      ))}
      {!repo.pause && repo.activeFreezes.length === 0 && <span class="badge ok">running</span>}
    </>
  );
}

/** The home page: every repository the credential reaches. */
export function Repositories() {
  const { value, error, live, stopped } = useLive(
    poll((signal) => queue.listRepositories({}, { signal }), REPOSITORIES_POLL_MS),
    [],
  );
  return (
    <>
      <h1>
        Repositories <LiveBadge live={live} stopped={stopped} error={error} />
      </h1>
      <ErrorNote error={error} />
      {value && value.repositories.length === 0 && (
        <p>
          No repository yet: this credential reaches none the forge knows or the queue has seen (create one with{" "}
          <code>yardmaster repo add</code>, or run <code>yardmaster replay</code>).
        </p>
      )}
      {value && value.repositories.length > 0 && (
        <div class="scroll">
          <table data-testid="repositories">
            <caption class="sr-only">Repositories</caption>
            <thead>
              <tr>
                <th scope="col">Repository</th>
                <th scope="col">Queued</th>
                <th scope="col">Branches</th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {value.repositories.map((r) => {
                const name = `${r.owner}/${r.repository}`;
                return (
                  <tr key={name} data-testid="repository" data-name={name}>
                    <th scope="row">
                      <Link href={paths.repository(r.owner, r.repository)}>{name}</Link>
                    </th>
                    <td>{r.queueDepth}</td>
                    <td>
                      <Branches repo={r} />
                    </td>
                    <td>
                      <Holds repo={r} />
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

/** One repository: its branches with their queue, pause, freezes, and its other pages. */
export function RepositoryPage({ repo }: { repo: RepositoryRef }) {
  const { value, error } = useLive(
    poll((signal) => queue.getRepository(repo, { signal }), REPOSITORIES_POLL_MS),
    [repo.owner, repo.repository],
  );
  if (isNotFound(error)) return <RepositoryNotFound repo={repo} />;
  return (
    <>
      <h1>
        {repo.owner}/{repo.repository}
      </h1>
      <ErrorNote error={error} />
      {value && (
        <>
          <p>
            <Holds repo={value} /> {value.queueDepth} pull request{value.queueDepth === 1 ? "" : "s"} queued
            {value.onForge ? "" : " (known from its queue only: the forge does not list it)"}.
          </p>
          <h2>Branches</h2>
          <Branches repo={value} />
          <h2>Figures</h2>
          <p>
            <Link href={paths.statistics(repo.owner, repo.repository)}>Statistics</Link> of its queue: time in queue,
            merges, CI runs per merge, failure and flake rates.
          </p>
        </>
      )}
    </>
  );
}

/** The page of a repository the service does not know. */
export function RepositoryNotFound({ repo }: { repo: RepositoryRef }) {
  return (
    <NotFound
      what={`Yardmaster knows no repository ${repo.owner}/${repo.repository}: the forge has none of that name, and its queue has never seen one.`}
    />
  );
}
