/**
 * Two rules of the repository's docs that a reader relies on (docs/contributing.md "Docs that
 * cannot drift"): every folder under `services/` has a README and a row in docs/architecture.md's
 * layout table; and nothing cites the numbers of a tracker readers of the repository cannot see
 * (say what the rule is, or cite a docs/ page).
 */
import type { Problem } from "./references.js";

/**
 * The folders of `services/` missing their README or their layout row.
 * @param folders the names of the folders under services/
 * @param hasReadme whether `services/<folder>/README.md` exists
 * @param architecture the text of docs/architecture.md
 */
export function undocumentedFolders(
  folders: string[],
  hasReadme: (folder: string) => boolean,
  architecture: string,
): Problem[] {
  const problems: Problem[] = [];
  for (const folder of folders) {
    if (!hasReadme(folder)) {
      problems.push({ file: `services/${folder}/`, line: 0, message: "has no README.md saying what it owns" });
    }
    if (!architecture.includes(`| \`services/${folder}/\` |`)) {
      problems.push({
        file: "docs/architecture.md",
        line: 0,
        message: `has no row for services/${folder}/ in the layout table`,
      });
    }
  }
  return problems;
}

/** The word issue or task (any case, singular or plural) with a number, `#` optional: a tracker's number. */
const TRACKER_NUMBER = /\b(?:[Ii]ssues?|[Tt]asks?):?\s?#?\d+/g;

/** The places in `text` that cite a tracker's number. */
export function trackerNumbers(file: string, text: string): Problem[] {
  return [...text.matchAll(TRACKER_NUMBER)].map((m) => ({
    file,
    line: text.slice(0, m.index).split("\n").length,
    message: `cites "${m[0]}" of a tracker readers of the repository cannot see: say what the rule is, or cite docs/`,
  }));
}
