/**
 * The merge conditions' evaluation as a nested checklist (docs/conditions.md "API form"): each
 * node says whether it holds, in text (for screen readers) and with a mark.
 */
import type { ConditionsEvaluation } from "../../../gen/yardmaster/v1/queue_pb.js";

/** One condition node and its subconditions. */
export function Conditions({ node }: { node: ConditionsEvaluation }) {
  return (
    <li class={node.match ? "met" : "unmet"}>
      <span aria-hidden="true">{node.match ? "✓" : "✗"} </span>
      <span class="sr-only">{node.match ? "met: " : "not met: "}</span>
      <code>{node.label}</code>
      {node.description && <span class="muted"> — {node.description}</span>}
      {node.evaluations.find((e) => e.evaluationError) && (
        <span class="error"> ({node.evaluations.find((e) => e.evaluationError)?.evaluationError})</span>
      )}
      {node.subconditions.length > 0 && (
        <ul>
          {node.subconditions.map((s, i) => (
            <Conditions key={`${i}-${s.label}`} node={s} />
          ))}
        </ul>
      )}
    </li>
  );
}
