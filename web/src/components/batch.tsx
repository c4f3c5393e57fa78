/**
 * One batch of the train (docs/merge-queue.md): name, status in words, the sentence explaining it
 * (explain.ts), its checks with links to their CI runs (failed first; on a bisecting batch, those
 * of the check that failed), times and members; sub-batches while it is bisected, nested.
 */
import type { Batch } from "../../../gen/yardmaster/v1/queue_pb.js";
import type { RepositoryRef, Standing } from "../api/queue-view.js";
import { etaText, explainBatch } from "../explain.js";
import { toDate, when } from "../format.js";
import { Link, paths } from "../router.js";
import { batchStatusWords } from "../words.js";
import { CheckList } from "./checks.js";
import { DequeueButton } from "./dequeue.js";
import { StateBadge } from "./status.js";

/** ", position 3" for a member whose standing is known. */
function Position({ standing }: { standing: Standing | undefined }) {
  return standing ? <>, position {standing.position + 1}</> : null;
}

/** A batch as an article of the train. */
export function BatchCard(props: {
  repo: RepositoryRef;
  batch: Batch;
  standings: Map<bigint, Standing>;
  paused: boolean;
  changed: () => void;
}) {
  const { repo, batch, paused } = props;
  const code = batch.status?.code ?? "unknown";
  const eta = toDate(batch.estimatedMergeAt);
  const first = batch.pullRequests[0]?.number;
  return (
    <article class="batch" data-testid="batch" data-status={code} aria-labelledby={`batch-${batch.id}`}>
      <h3 id={`batch-${batch.id}`}>
        {first !== undefined ? (
          <Link href={paths.batch(repo.owner, repo.repository, batch.id, first)}>{batch.name}</Link>
        ) : (
          batch.name
        )}{" "}
        <StateBadge state={code} label={batchStatusWords(code)} />
      </h3>
      <p class="explain" data-testid="batch-explanation">
        {explainBatch(batch, paused)}
      </p>
      <CheckList checks={batch.checks} label={`Checks of ${batch.name}`} />
      <dl>
        <dt>Queue rule</dt>
        <dd>{batch.queueRuleName || "—"}</dd>
        {batch.scopes.length > 0 && (
          <>
            <dt>Scopes</dt>
            <dd>{batch.scopes.join(", ")}</dd>
          </>
        )}
        {batch.startedAt && (
          <>
            <dt>Started</dt>
            <dd>{when(toDate(batch.startedAt))}</dd>
          </>
        )}
        <dt>Estimated merge</dt>
        <dd data-testid="batch-eta">
          <time dateTime={eta?.toISOString()}>{etaText(eta, paused)}</time>
        </dd>
      </dl>
      <ol class="members" aria-label="Pull requests">
        {batch.pullRequests.map((pr) => (
          <li key={String(pr.number)} data-testid="batch-pr">
            <Link href={paths.pull(repo.owner, repo.repository, pr.number)}>#{String(pr.number)}</Link> {pr.title}
            <span class="muted">
              {" "}
              by {pr.author?.login}
              <Position standing={props.standings.get(pr.number)} />
            </span>{" "}
            <DequeueButton repo={repo} number={pr.number} changed={props.changed} />
          </li>
        ))}
      </ol>
      {batch.subBatches.length > 0 && (
        <section aria-label={`Sub-batches of ${batch.name}`} class="sub">
          {batch.subBatches.map((s) => (
            <BatchCard key={s.id} {...props} batch={s} />
          ))}
        </section>
      )}
    </article>
  );
}
