/**
 * Faults a test queues in the GitHub test double (rate limits, 5xx, 404...): the next requests of
 * an operation get the fault's answer instead of the operation's own.
 */
import type { Answer } from "./double-answers.js";

/** A queued fault: the next `times` requests of `operationId` get this answer instead. */
export interface Fault {
  operationId: string;
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  times?: number;
}

/** The faults queued and not yet answered, in the order queued. */
export class DoubleFaults {
  private readonly faults: (Fault & { left: number })[] = [];

  /** Queues a fault for the next request(s) of an operation. */
  inject(fault: Fault): void {
    this.faults.push({ ...fault, left: fault.times ?? 1 });
  }

  /** Faults queued and not yet answered, taken out of the queue. */
  unused(): Fault[] {
    return this.faults.splice(0);
  }

  /** The answer of the first fault queued for `operationId` (counted as used), or null. */
  take(operationId: string): Answer | null {
    const i = this.faults.findIndex((f) => f.operationId === operationId && f.left > 0);
    if (i < 0) return null;
    const f = this.faults[i];
    if (--f.left === 0) this.faults.splice(i, 1);
    return {
      status: f.status,
      body: f.body ?? { message: "fault", documentation_url: "https://docs.github.com/rest" },
      headers: f.headers,
    };
  }
}
