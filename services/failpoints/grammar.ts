/**
 * The failpoint specification language (docs/reliability.md "Failpoints"), a subset of TiKV
 * fail-rs' (https://docs.rs/fail/latest/fail/fn.cfg.html), itself after FreeBSD fail(9):
 *
 * ```
 * spec    := entry (";" entry)*            e.g. "local-forge.after-ref-move=kill;x=2*off->sleep(200)"
 * entry   := name "=" actions              name: letters, digits, ".", "-", "_"
 * actions := term ("->" term)*             terms apply in order
 * term    := [count "*"] action            count: the term applies to that many hits, then the next
 *                                          term takes over; without a count it applies to every hit
 * action  := "off" | "kill" | "throw" ["(" message ")"] | "sleep(" milliseconds ")"
 * ```
 *
 * So `2*off->kill` lets two hits pass and kills the process at the third; `1*throw(boom)` throws
 * once and is off afterwards. Whitespace around names, terms and `;` is ignored.
 */

/** One action of a failpoint. */
export type FailpointAction =
  | { kind: "off" }
  /** SIGKILL the own process at once (no cleanup, no flush: a crash). */
  | { kind: "kill" }
  /** Throw a FailpointError with this message. */
  | { kind: "throw"; message: string }
  /** Wait this many milliseconds, then go on. */
  | { kind: "sleep"; ms: number };

/** A term: an action for `count` hits (null: for every hit from then on). */
export interface FailpointTerm {
  count: number | null;
  action: FailpointAction;
}

/** A spec that does not parse; the message names the entry and what is wrong. */
export class FailpointSpecError extends Error {
  override readonly name = "FailpointSpecError";
}

const NAME = /^[A-Za-z0-9._-]+$/;
const TERM = /^(?:(\d+)\*)?([a-z]+)(?:\((.*)\))?$/s;

/**
 * Parses the actions of one failpoint (`2*off->kill`).
 * @throws FailpointSpecError naming the term that is not understood
 */
export function parseActions(text: string): FailpointTerm[] {
  const terms = text.split("->").map((t) => t.trim());
  if (terms.some((t) => t === "")) throw new FailpointSpecError(`"${text}": an empty term`);
  return terms.map((term) => {
    const m = TERM.exec(term);
    if (!m) throw new FailpointSpecError(`"${term}": expected [count*]action[(argument)]`);
    const [, countText, kind, arg] = m;
    const count = countText === undefined ? null : Number(countText);
    if (count !== null && (!Number.isSafeInteger(count) || count < 1)) {
      throw new FailpointSpecError(`"${term}": the count must be a whole number of at least 1`);
    }
    return { count, action: actionOf(term, kind!, arg) };
  });
}

function actionOf(term: string, kind: string, arg: string | undefined): FailpointAction {
  switch (kind) {
    case "off":
    case "kill":
      if (arg !== undefined) throw new FailpointSpecError(`"${term}": ${kind} takes no argument`);
      return { kind };
    case "throw":
      return { kind: "throw", message: arg ?? "failpoint" };
    case "sleep": {
      const ms = Number(arg);
      if (arg === undefined || !/^\d+$/.test(arg.trim()) || !Number.isSafeInteger(ms)) {
        throw new FailpointSpecError(`"${term}": sleep needs whole milliseconds, e.g. sleep(200)`);
      }
      return { kind: "sleep", ms };
    }
    default:
      throw new FailpointSpecError(`"${term}": unknown action "${kind}" (off, kill, throw, sleep)`);
  }
}

/**
 * Parses a whole specification (`YARDMASTER_FAILPOINTS`): entries `name=actions` separated by `;`.
 * An empty or blank text arms nothing.
 * @throws FailpointSpecError naming the entry that is not understood, or a name given twice
 */
export function parseFailpointSpec(text: string): Map<string, FailpointTerm[]> {
  const out = new Map<string, FailpointTerm[]>();
  for (const raw of text.split(";")) {
    const entry = raw.trim();
    if (entry === "") continue;
    const eq = entry.indexOf("=");
    if (eq < 0) throw new FailpointSpecError(`"${entry}": expected name=actions`);
    const name = entry.slice(0, eq).trim();
    if (!NAME.test(name)) {
      throw new FailpointSpecError(`"${entry}": a failpoint name is letters, digits, ".", "-" and "_"`);
    }
    if (out.has(name)) throw new FailpointSpecError(`"${name}" is given twice`);
    out.set(name, parseActions(entry.slice(eq + 1)));
  }
  return out;
}
