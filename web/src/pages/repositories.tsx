/**
 * The first page: the session's repositories, each with its branches that have a queue
 * (ListMergeQueueBranches), read again on every change of its queue (WatchMergeQueue); and one
 * repository's page with the same list.
 */
import { useState } from "preact/hooks";
import { queue } from "../api/clients.js";
import { reloadOn, useLive } from "../api/live.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { ErrorNote } from "../components/status.js";
import { Link, paths } from "../router.js";
import { addRepository, parseRepository, repositories } from "../session.js";

function Branches({ repo }: { repo: RepositoryRef }) {
  const { value, error } = useLive(
    reloadOn(
      (signal) => queue.listMergeQueueBranches(repo, { signal }),
      (signal) => queue.watchMergeQueue(repo, { signal }),
      3000,
    ),
    [repo.owner, repo.repository],
  );
  return (
    <>
      <ErrorNote error={error} />
      {value && value.branches.length === 0 && <p>No branch has a queue.</p>}
      <ul>
        {value?.branches.map((b) => (
          <li key={b}>
            <Link href={paths.queue(repo.owner, repo.repository, b)}>{b}</Link>
          </li>
        ))}
      </ul>
    </>
  );
}

/** The repositories of the session, with their queued branches. */
export function Repositories() {
  const [list, setList] = useState(repositories());
  const [error, setError] = useState<string | null>(null);
  return (
    <>
      <h1>Repositories</h1>
      {list.map((name) => {
        const repo = parseRepository(name)!;
        return (
          <section key={name} aria-labelledby={`repo-${name}`}>
            <h2 id={`repo-${name}`}>
              <Link href={paths.repository(repo.owner, repo.repository)}>{name}</Link>
            </h2>
            <Branches repo={repo} />
          </section>
        );
      })}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const input = (e.currentTarget as HTMLFormElement).elements.namedItem("repository") as HTMLInputElement;
          if (!parseRepository(input.value)) return setError(`"${input.value}" is not owner/repository.`);
          addRepository(input.value.trim());
          setList(repositories());
          setError(null);
          input.value = "";
        }}
      >
        <label>
          Add a repository <input name="repository" placeholder="owner/repository" />
        </label>
        <button type="submit">Add</button>
        {error && (
          <p role="alert" class="error">
            {error}
          </p>
        )}
      </form>
    </>
  );
}

/** One repository: its branches with a queue. */
export function RepositoryPage({ repo }: { repo: RepositoryRef }) {
  return (
    <>
      <h1>
        {repo.owner}/{repo.repository}
      </h1>
      <h2>Branches with a queue</h2>
      <Branches repo={repo} />
    </>
  );
}
