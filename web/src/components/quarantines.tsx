/**
 * Quarantines on the Tests page (docs/ci-insights.md "Quarantine"): the form that quarantines a
 * test (reason, branch or every branch, owner, expiry in days) and the list of quarantines with
 * their source, owner, expiry and recovery, each with "Lift". Both call CiInsightsService
 * (CreateQuarantine, DeleteQuarantine); the caller refreshes its page after either.
 */
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import type { Quarantine } from "../../../gen/yardmaster/v1/ci_insights_pb.js";
import { ciInsights } from "../api/ci-insights-client.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { relative, toDate, when } from "../format.js";
import { ErrorNote, StateBadge } from "./status.js";
import { useAction } from "./use-action.js";

const DAY_MS = 86_400_000;

/**
 * The form quarantining a test: `testName` fixed (a test's page) or typed, with the names of
 * `known` offered. An expiry of N days ends the quarantine N × 24 h from now (UTC); empty: until lifted.
 */
export function QuarantineForm(props: { repo: RepositoryRef; testName?: string; known?: string[]; done: () => void }) {
  const { error, busy, run } = useAction(props.done);
  return (
    <form
      class="inline"
      aria-label="Quarantine a test"
      onSubmit={async (e) => {
        e.preventDefault();
        const form = e.currentTarget as HTMLFormElement;
        const data = new FormData(form);
        const text = (k: string) => String(data.get(k) ?? "").trim();
        const days = Number(text("expires_days"));
        const ok = await run(() =>
          ciInsights.createQuarantine({
            ...props.repo,
            testName: props.testName ?? text("test_name"),
            reason: text("reason"),
            branch: text("branch") || undefined,
            assignee: text("assignee") || undefined,
            expiresAt: days > 0 ? timestampFromDate(new Date(Date.now() + days * DAY_MS)) : undefined,
          }),
        );
        if (ok) form.reset();
      }}
    >
      {props.testName === undefined && (
        <label>
          Test <input name="test_name" required list="known-tests" placeholder="app.test_name" />
          <datalist id="known-tests">
            {(props.known ?? []).map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
        </label>
      )}
      <label>
        Reason <input name="reason" placeholder="flaky since the upgrade" />
      </label>
      <label>
        Branch <input name="branch" placeholder="every branch" />
      </label>
      <label>
        Owner <input name="assignee" placeholder="who fixes it" />
      </label>
      <label>
        Expires in (days) <input name="expires_days" type="number" min="1" max="365" placeholder="never" />
      </label>
      <button type="submit" disabled={busy}>
        Quarantine
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

/** What a quarantine says in a cell: its source, owner, expiry and recovery. */
export function QuarantineNote({ q }: { q: Quarantine }) {
  const expires = toDate(q.expiresAt);
  return (
    <span data-testid="quarantine-note">
      <StateBadge state="frozen" label={`quarantined (${q.source})`} />
      {q.assignee && `, owner ${q.assignee}`}
      {expires ? (
        <>
          {", expires "}
          <time title={expires.toISOString()}>{relative(expires)}</time>
        </>
      ) : (
        ", until lifted"
      )}
      {q.isRecovered && ", recovered"}
    </span>
  );
}

/** The repository's quarantines, oldest first, each with "Lift". */
export function QuarantineList(props: { repo: RepositoryRef; quarantines: Quarantine[]; changed: () => void }) {
  const { error, busy, run } = useAction(props.changed);
  if (props.quarantines.length === 0) return <p>No test is quarantined: every failure fails its check.</p>;
  return (
    <div class="scroll">
      <ErrorNote error={error} />
      <table data-testid="quarantines">
        <thead>
          <tr>
            <th scope="col">Test</th>
            <th scope="col">Branch</th>
            <th scope="col">Reason</th>
            <th scope="col">Source</th>
            <th scope="col">Owner</th>
            <th scope="col">Since</th>
            <th scope="col">Expires</th>
            <th scope="col">Recovered</th>
            <th scope="col">
              <span class="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {props.quarantines.map((q) => (
            <tr key={q.id} data-quarantine={q.testName}>
              <td style={{ overflowWrap: "break-word" }}>{q.testName}</td>
              <td>{q.branch ?? "every branch"}</td>
              <td>{q.reason || "—"}</td>
              <td>{q.source}</td>
              <td>{q.assignee ?? "—"}</td>
              <td>
                <time title={toDate(q.createdAt)?.toISOString()}>{when(toDate(q.createdAt))}</time>
              </td>
              <td>
                {q.expiresAt ? (
                  <time title={toDate(q.expiresAt)?.toISOString()}>{when(toDate(q.expiresAt))}</time>
                ) : (
                  "until lifted"
                )}
              </td>
              <td>{q.isRecovered ? "yes" : "no"}</td>
              <td>
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`Lift the quarantine of ${q.testName}`}
                  onClick={() => run(() => ciInsights.deleteQuarantine({ ...props.repo, id: q.id }))}
                >
                  Lift
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
