/**
 * Scheduled freezes on the queue page (docs/scheduled-freeze.md, docs/dashboard.md "Pages"): a
 * banner while one is in force (checks go on, matching pull requests do not merge until it ends),
 * and the list of those not ended yet. Whether a freeze is in force is read against the clock,
 * which ticks, so a freeze's start and end show without an event.
 */
import { useEffect, useState } from "preact/hooks";
import type { ScheduledFreeze } from "../../../gen/yardmaster/v1/queue_pb.js";
import { toDate, when } from "../format.js";

/**
 * The current time, re-rendering every `ms` milliseconds too (a freeze starts or ends without an
 * event); read at each render, so a freeze that just arrived is judged against the time it arrived.
 */
export function useNow(ms: number): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    const t = setInterval(() => setTick((n) => n + 1), ms);
    return () => clearInterval(t);
  }, [ms]);
  return Date.now();
}

const startOf = (f: ScheduledFreeze) => toDate(f.attributes?.start)?.getTime() ?? 0;
const endOf = (f: ScheduledFreeze) => toDate(f.attributes?.end)?.getTime() ?? Number.POSITIVE_INFINITY;
const inForce = (f: ScheduledFreeze, now: number) => startOf(f) <= now && now < endOf(f);

/** A condition of a freeze as its text (a string, or an and/or/not object as JSON). */
function conditionText(v: { kind: { case?: string; value?: unknown } }): string {
  return v.kind.case === "stringValue" ? String(v.kind.value) : JSON.stringify(v.kind.value);
}

function scope(f: ScheduledFreeze): string {
  const matching = (f.attributes?.matchingConditions ?? []).map(conditionText);
  const excluded = (f.attributes?.excludeConditions ?? []).map(conditionText);
  const m = matching.length ? `pull requests matching ${matching.join(" and ")}` : "every pull request";
  return excluded.length ? `${m}, except ${excluded.join(" or ")}` : m;
}

/** The banner of the freezes in force now; nothing when none is. */
export function FreezeBanner({ freezes }: { freezes: ScheduledFreeze[] }) {
  const now = useNow(15_000);
  const active = freezes.filter((f) => inForce(f, now));
  if (active.length === 0) return null;
  return (
    <section class="banner freeze" role="status" aria-label="Scheduled freeze in force">
      {active.map((f) => (
        <p key={f.id}>
          <strong>Scheduled freeze</strong>: {f.attributes?.reason}.{" "}
          {f.attributes?.end ? `Until ${when(toDate(f.attributes.end))}` : "Until it is lifted"}, {scope(f)} are checked
          but not merged.
        </p>
      ))}
    </section>
  );
}

/** The freezes not ended yet, in force or ahead; nothing when there are none. */
export function FreezeList({ freezes }: { freezes: ScheduledFreeze[] }) {
  const now = useNow(15_000);
  const shown = freezes.filter((f) => endOf(f) > now);
  if (shown.length === 0) return <p>No scheduled freeze ahead.</p>;
  return (
    <div class="scroll">
      <table data-testid="freezes">
        <caption class="sr-only">Scheduled freezes</caption>
        <thead>
          <tr>
            <th scope="col">Reason</th>
            <th scope="col">From</th>
            <th scope="col">Until</th>
            <th scope="col">Applies to</th>
            <th scope="col">State</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((f) => (
            <tr key={f.id} data-testid="freeze">
              <td>{f.attributes?.reason}</td>
              <td>{when(toDate(f.attributes?.start))}</td>
              <td>{f.attributes?.end ? when(toDate(f.attributes.end)) : "until lifted"}</td>
              <td>{scope(f)}</td>
              <td>{inForce(f, now) ? "in force" : "ahead"}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
