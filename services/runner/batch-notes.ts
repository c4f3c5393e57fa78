/**
 * The batch's metadata for CI where CI finds it (docs/merge-queue.md "Batch metadata for CI"): as
 * YAML (a `---` document) in git notes on the speculative branch's head, under
 * `refs/notes/yardmaster/<branch>` and, for the compatible service's CLI, `refs/notes/mergify/<branch>`
 * (what `mergify ci queue-info` and `ci git-refs` fetch and read with plain git), and as a fenced
 * ```yaml block at the end of the draft pull request's body (what `ci git-refs` reads from a
 * pull_request event whose title starts with "merge queue: ").
 */
import { stringify } from "yaml";
import type { BatchMetadata } from "../engine/index.js";

/** The notes refs of the speculative branch `branch`. */
export function batchNoteRefs(branch: string): string[] {
  return [`refs/notes/yardmaster/${branch}`, `refs/notes/mergify/${branch}`];
}

/** The metadata as one YAML document. */
export function batchMetadataYaml(metadata: BatchMetadata): string {
  return `---\n${stringify(metadata, { lineWidth: 0 })}`;
}

/** The draft pull request's body with the metadata's fenced block appended. */
export function bodyWithMetadata(body: string, metadata: BatchMetadata | undefined): string {
  if (metadata === undefined) return body;
  return `${body.replace(/\n*$/, "\n")}\n\`\`\`yaml\n${batchMetadataYaml(metadata)}\`\`\`\n`;
}
