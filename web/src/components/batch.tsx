/**
 * One batch of the train (docs/merge-queue.md): name, status, scopes, queue rule, checks (the
 * summary, then each check with its state and link, read from the first member's mergeability
 * check), times and members; sub-batches while it is bisected, nested.
 */
import { useEffect, useState } from "preact/hooks";
import type { Batch, MergeabilityCheckItem } from "../../../gen/yardmaster/v1/queue_pb.js";
import { queue } from "../api/clients.js";
import type { RepositoryRef, Standing } from "../api/queue-view.js";
import { relative, toDate, when } from "../format.js";
import { Link, paths } from "../router.js";
import { DequeueButton } from "./dequeue.js";
import { StateBadge } from "./status.js";

/** The checks of a batch, reloaded when its status or checks summary changes. */
function Checks({ repo, batch }: { repo: RepositoryRef; batch: Batch }) {
  const [checks, setChecks] = useState<MergeabilityCheckItem[]>([]);
  const first = batch.pullRequests[0]?.number;
  const key = `${batch.status?.code}/${batch.checksSummary?.passed}/${batch.checksSummary?.total}`;
  useEffect(() => {
    if (first === undefined) return;
    const abort = new AbortController();
    queue
      .getQueuedPullRequest({ ...repo, prNumber: first }, { signal: abort.signal })
      .then((pr) => setChecks(pr.mergeabilityCheck?.checks ?? []))
      .catch(() => setChecks([]));
    return () => abort.abort();
  }, [key, first]);
  if (!checks.length) return null;
  return (
    <ul class="checks" aria-label="Checks">
      {checks.map((c) => (
        <li key={c.name}>
          <StateBadge state={c.state} /> {c.url ? <a href={c.url}>{c.name}</a> : c.name}
          {c.description && <span class="muted"> — {c.description}</span>}
        </li>
      ))}
    </ul>
  );
}

/** ", position 3, merge 14:05 (in 2 min)" for a member whose standing is known. */
function Estimate({ standing }: { standing: Standing | undefined }) {
  if (!standing) return null;
  const eta = standing.estimatedMergeAt;
  return (
    <>
      , position {standing.position + 1}
      {eta && `, merge ${when(eta)} ${relative(eta)}`}
    </>
  );
}

/** A batch as an article of the train. */
export function BatchCard(props: {
  repo: RepositoryRef;
  batch: Batch;
  standings: Map<bigint, Standing>;
  changed: () => void;
}) {
  const { repo, batch } = props;
  const eta = toDate(batch.estimatedMergeAt);
  return (
    <article class="batch" data-testid="batch" aria-labelledby={`batch-${batch.id}`}>
      <h3 id={`batch-${batch.id}`}>
        {batch.name} <StateBadge state={batch.status?.code ?? "unknown"} />
      </h3>
      <dl>
        <dt>Checks</dt>
        <dd>
          {batch.checksSummary?.passed ?? 0} of {batch.checksSummary?.total ?? 0} passed
        </dd>
        <dt>Queue rule</dt>
        <dd>{batch.queueRuleName || "—"}</dd>
        {batch.scopes.length > 0 && (
          <>
            <dt>Scopes</dt>
            <dd>{batch.scopes.join(", ")}</dd>
          </>
        )}
        <dt>Started</dt>
        <dd>{when(toDate(batch.startedAt))}</dd>
        <dt>Estimated merge</dt>
        <dd>
          <time dateTime={eta?.toISOString()}>{when(eta)}</time> {relative(eta)}
        </dd>
      </dl>
      <Checks repo={repo} batch={batch} />
      <ol class="members" aria-label="Pull requests">
        {batch.pullRequests.map((pr) => (
          <li key={String(pr.number)} data-testid="batch-pr">
            <Link href={paths.pull(repo.owner, repo.repository, pr.number)}>#{String(pr.number)}</Link> {pr.title}
            <span class="muted">
              {" "}
              by {pr.author?.login}
              <Estimate standing={props.standings.get(pr.number)} />
            </span>{" "}
            <DequeueButton repo={repo} number={pr.number} changed={props.changed} />
          </li>
        ))}
      </ol>
      {batch.subBatches.length > 0 && (
        <section aria-label="Sub-batches" class="sub">
          {batch.subBatches.map((s) => (
            <BatchCard key={s.id} {...props} batch={s} />
          ))}
        </section>
      )}
    </article>
  );
}
