/**
 * The configuration simulator (docs/dashboard.md "Pages"): paste a `.yardmaster.yml`,
 * validate it with SimulateConfiguration, see each error at its line and column (from the
 * service's field violations, "message @ path (line L, column C)"), the text with those lines
 * marked, and the deprecations with their deadlines.
 */
import { ConnectError } from "@connectrpc/connect";
import { useState } from "preact/hooks";
import { BadRequestSchema } from "../../../gen/google/rpc/bad_request_pb.js";
import type { SimulateConfigurationResponse } from "../../../gen/yardmaster/v1/simulator_pb.js";
import { simulator } from "../api/clients.js";
import type { RepositoryRef } from "../api/queue-view.js";
import { ErrorNote } from "./status.js";

/** A configuration error placed in the text. */
interface Placed {
  line: number | null;
  column: number | null;
  message: string;
}

/** The errors of a refusal: each field violation, with its line and column when it names them. */
function placedErrors(e: ConnectError): Placed[] {
  const violations = e.findDetails(BadRequestSchema).flatMap((d) => d.fieldViolations);
  return violations.map((v) => {
    const m = /^(.*) \(line (\d+), column (\d+)\)$/s.exec(v.description);
    return m
      ? { message: m[1], line: Number(m[2]), column: Number(m[3]) }
      : { message: v.description, line: null, column: null };
  });
}

/** The pasted text with line numbers; lines holding an error are marked and described. */
function MarkedText({ text, errors }: { text: string; errors: Placed[] }) {
  return (
    <ol class="source" aria-label="Configuration text">
      {text.split("\n").map((line, i) => {
        const here = errors.filter((e) => e.line === i + 1);
        return (
          <li key={i} class={here.length ? "bad-line" : undefined} data-line={i + 1}>
            <code>{line || " "}</code>
            {here.map((e) => (
              <span key={e.message} class="error">
                {" "}
                ← column {e.column}: {e.message}
              </span>
            ))}
          </li>
        );
      })}
    </ol>
  );
}

/** The simulator form and its result. */
export function Simulator({ repo, initial }: { repo: RepositoryRef; initial: string }) {
  const [text, setText] = useState(initial);
  const [result, setResult] = useState<SimulateConfigurationResponse>();
  const [errors, setErrors] = useState<Placed[]>([]);
  const [failure, setFailure] = useState<Error>();
  const [checked, setChecked] = useState("");
  const run = async (e: Event) => {
    e.preventDefault();
    setResult(undefined);
    setErrors([]);
    setFailure(undefined);
    setChecked(text);
    try {
      setResult(await simulator.simulateConfiguration({ ...repo, serviceYml: text }));
    } catch (err) {
      const c = ConnectError.from(err);
      const placed = c.code === 3 ? placedErrors(c) : [];
      if (placed.length) setErrors(placed);
      else setFailure(c);
    }
  };
  return (
    <form onSubmit={run}>
      <label>
        Configuration (YAML)
        <textarea
          name="service_yml"
          rows={14}
          spellcheck={false}
          value={text}
          onInput={(e) => setText((e.currentTarget as HTMLTextAreaElement).value)}
        />
      </label>
      <button type="submit">Validate</button>
      <ErrorNote error={failure} />
      {errors.length > 0 && (
        <section aria-labelledby="sim-errors" data-testid="sim-errors">
          <h3 id="sim-errors">{errors.length} error(s)</h3>
          <ul role="alert">
            {errors.map((e) => (
              <li key={`${e.line}:${e.column}:${e.message}`} data-testid="sim-error">
                {e.line !== null ? `Line ${e.line}, column ${e.column}: ` : ""}
                {e.message}
              </li>
            ))}
          </ul>
          <MarkedText text={checked} errors={errors} />
        </section>
      )}
      {result && (
        <section aria-labelledby="sim-ok" data-testid="sim-result">
          <h3 id="sim-ok">{result.message}</h3>
          {result.deprecations.length > 0 && (
            <ul aria-label="Deprecations">
              {result.deprecations.map((d) => (
                <li key={d.message}>
                  {d.message} <strong>accepted until {d.deadline}</strong>
                </li>
              ))}
            </ul>
          )}
          {result.unusedSections.map((u) => (
            <p key={u.section}>
              <code>{u.section}</code> is unused: <a href={u.productUrl}>{u.productName}</a> is not enabled.
            </p>
          ))}
        </section>
      )}
    </form>
  );
}
