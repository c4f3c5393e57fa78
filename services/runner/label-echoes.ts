/**
 * The echoes of the queue's own status labels (docs/github.md "Request budget"): when the queue
 * adds or removes its `queued_label`, `dequeued_label` or `checking_label` (an engine effect), the
 * platform reports the change back as an event. That event says nothing the queue does not know:
 * it is recorded before the write, and the one matching event (same pull request, label and
 * direction) arriving within {@link ECHO_TTL_MS} is taken as its echo and not read. Label changes by
 * anyone else, and by pull request rules' `label` actions (which other rules may read), are events
 * as always; so is an echo of a label that a queue rule or pull request rule names (round.ts).
 * In memory, per process: an echo received by another process is read (as before).
 */

/** How long an expected echo is waited for, ms. */
export const ECHO_TTL_MS = 10 * 60_000;

/** A label change an event reports (GitHub: `labeled` / `unlabeled` with the label's name). */
export interface LabelChange {
  name: string;
  added: boolean;
}

/** The echoes expected, by repository, pull request, label and direction; each kept {@link ECHO_TTL_MS}. */
export class LabelEchoes {
  private readonly expected = new Map<string, number>();

  /** @param now the clock, epoch ms */
  constructor(private readonly now: () => number) {}

  private key(repository: string, number: number, change: LabelChange): string {
    return `${repository.toLowerCase()}#${number}${change.added ? "+" : "-"}${change.name.toLowerCase()}`;
  }

  /** Records the queue's own change of `labels` on pull request `number`, before it is written. */
  expect(repository: string, number: number, labels: readonly string[], added: boolean): void {
    const until = this.now() + ECHO_TTL_MS;
    for (const name of labels) this.expected.set(this.key(repository, number, { name, added }), until);
    if (this.expected.size > 10_000) this.expected.delete(this.expected.keys().next().value!);
  }

  /** Whether an event reporting `change` is the echo of a change recorded; an echo is taken once. */
  take(repository: string, number: number, change: LabelChange | undefined): boolean {
    if (!change) return false;
    const key = this.key(repository, number, change);
    const until = this.expected.get(key);
    if (until === undefined) return false;
    this.expected.delete(key);
    return this.now() <= until;
  }
}
