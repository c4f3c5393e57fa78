/**
 * Citations of the docs that must resolve (docs/contributing.md "Docs that cannot drift"): code,
 * protos, scripts and docs cite a page as `docs/api.md`, a part of it as
 * `docs/api.md "Streams"` (a heading's text without its numbering, or the bold lead-in that
 * opens a paragraph or list item, `**Estimates.**`, without its final stop or colon) or as
 * `docs/api.md#streams` (GitHub's slug of a heading). Each cited page must exist and each
 * cited part must be one of the page's headings or lead-ins. Markdown links between pages are
 * checked by remark-validate-links (`npm run lint:docs`).
 */
import GithubSlugger from "github-slugger";

/** One unresolved citation: where it is (file, 1-based line) and what is wrong. */
export interface Problem {
  file: string;
  line: number;
  message: string;
}

/** A page's citable parts: heading and lead-in texts (normalised), and the headings' anchors. */
export interface PageHeadings {
  texts: Set<string>;
  anchors: Set<string>;
}

const FENCE = /^(```|~~~)[^\n]*\n[\s\S]*?^\1[ \t]*$/gm;
const HEADING = /^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm;
/** A bold lead-in opening a paragraph or a list item: `- **Pagination.** text`, `8. **An input** ...`. */
const LEAD_IN = /^[ \t]*(?:[-*+][ \t]+|\d+\.[ \t]+)?\*\*([^*\n]+?)[.:]?\*\*/gm;

/** The citable parts of a Markdown page, code fences skipped. */
export function headingsOf(markdown: string): PageHeadings {
  const slugger = new GithubSlugger();
  const texts = new Set<string>();
  const anchors = new Set<string>();
  const prose = markdown.replace(FENCE, "");
  for (const m of prose.matchAll(HEADING)) {
    anchors.add(slugger.slug(m[1].replace(/[`*_]/g, "")));
    texts.add(normalise(m[1]));
  }
  for (const m of prose.matchAll(LEAD_IN)) texts.add(normalise(m[1]));
  return { texts, anchors };
}

/** A heading or quoted text as compared: no formatting, no leading `N.` numbering, lower case. */
function normalise(heading: string): string {
  return heading
    .replace(/[`*_]/g, "")
    .trim()
    .replace(/^\d+\.\s+/, "")
    .toLowerCase();
}

/**
 * A citation: a page's path, then `#anchor`, or one or more quoted headings (`"A"`, `"A", "B"`,
 * `"A" and "B"`). In code, a path directly after a quote or `=` is data (a file name in a test),
 * not a citation, and is skipped.
 */
const CITATION = /(^|[^"'=\w/.-])(docs\/[\w./-]+?\.md)(?:#([\w-]+)|((?:,?\s*(?:and\s+)?"[^"\n]+")+))?/g;

/**
 * The unresolved citations of one file.
 * @param file the citing file's path from the repository root (for the report)
 * @param text its content
 * @param page the headings of a cited page, or undefined when the page does not exist
 */
export function unresolvedCitations(
  file: string,
  text: string,
  page: (path: string) => PageHeadings | undefined,
): Problem[] {
  const problems: Problem[] = [];
  for (const m of text.matchAll(CITATION)) {
    const [, , target, anchor, quoted] = m;
    const line = text.slice(0, m.index).split("\n").length;
    const headings = page(target);
    if (!headings) {
      problems.push({ file, line, message: `cites ${target}, which does not exist` });
      continue;
    }
    if (anchor && !headings.anchors.has(anchor)) {
      problems.push({ file, line, message: `cites ${target}#${anchor}: no heading has that anchor` });
    }
    for (const q of quoted?.matchAll(/"([^"\n]+)"/g) ?? []) {
      if (!headings.texts.has(normalise(q[1]))) {
        problems.push({ file, line, message: `cites ${target} "${q[1]}": no heading has that text` });
      }
    }
  }
  return problems;
}
