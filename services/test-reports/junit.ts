/**
 * JUnit XML → test case executions, read as Mergify's CLI reads it (crates/mergify-ci/src/
 * junit_process/junit.rs): a `<testsuites>` root with `<testsuite>` children, or a `<testsuite>`
 * root, suites nested at any depth, XML namespaces ignored; a case is named
 * `<classname>.<name>` (`<name>` without a classname, "unnamed test" without either); its first
 * `<failure>` or `<error>` decides its outcome and message, a `<skipped>` before any makes it
 * skipped; `time` is in seconds. Parsed with fast-xml-parser after a well-formedness check; a
 * document with a DOCTYPE is refused before parsing, so no entity is ever declared, let alone
 * expanded (only XML's five and numeric references are decoded). docs/ci-insights.md "Ingest".
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import {
  capFailure,
  emptyRun,
  MAX_CASES_PER_REPORT,
  ReportError,
  type ParsedReport,
  type TestCaseRun,
  type TestOutcome,
} from "./test-case.js";

const LISTS = new Set(["testsuite", "testcase", "failure", "error", "skipped"]);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@",
  removeNSPrefix: true,
  processEntities: true,
  htmlEntities: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name) => LISTS.has(name),
});

// biome-ignore lint/suspicious/noExplicitAny: a parsed XML element: attributes ("@name") and child element lists by name
type Element = Record<string, any>;

/**
 * Whether the document declares a DOCTYPE: the prolog (XML declaration, processing
 * instructions, comments, white space) is skipped, and the next markup is looked at.
 */
export function hasDoctype(xml: string): boolean {
  let i = xml.charCodeAt(0) === 0xfeff ? 1 : 0;
  for (;;) {
    while (i < xml.length && /\s/.test(xml[i]!)) i++;
    if (xml.startsWith("<?", i)) {
      const end = xml.indexOf("?>", i + 2);
      if (end < 0) return false;
      i = end + 2;
    } else if (xml.startsWith("<!--", i)) {
      const end = xml.indexOf("-->", i + 4);
      if (end < 0) return false;
      i = end + 3;
    } else return /^<!DOCTYPE/i.test(xml.slice(i, i + 9));
  }
}

/**
 * Reads a JUnit XML report.
 * @param framework recorded with each case ("" when unknown)
 * @throws ReportError for a DOCTYPE, XML that is not well-formed (with its line and column), a root
 *   other than testsuites/testsuite, no suite at all, or more than MAX_CASES_PER_REPORT cases
 */
export function parseJunit(xml: string, framework = ""): ParsedReport {
  if (hasDoctype(xml))
    throw new ReportError("declares a DOCTYPE: JUnit reports have none, and DTDs and entities are refused");
  const valid = XMLValidator.validate(xml);
  if (valid !== true)
    throw new ReportError(`is not well-formed XML: ${valid.err.msg} (line ${valid.err.line}, column ${valid.err.col})`);
  const doc = parser.parse(xml) as Element;
  const cases: TestCaseRun[] = [];
  const roots = Object.keys(doc).filter((k) => !k.startsWith("?") && !k.startsWith("#"));
  if (roots.length !== 1 || (roots[0] !== "testsuites" && roots[0] !== "testsuite"))
    throw new ReportError("has no testsuites or testsuite root element");
  const root = doc[roots[0]!];
  const suites = roots[0] === "testsuite" ? listOf(root) : listOf(asElement(root).testsuite);
  if (suites.length === 0) throw new ReportError("has no testsuite element");
  for (const suite of suites) readSuite(asElement(suite), cases, framework);
  return { cases, run: emptyRun() };
}

function readSuite(suite: Element, out: TestCaseRun[], framework: string): void {
  const name = attr(suite, "name") || "unnamed testsuite";
  for (const c of listOf(suite.testcase)) {
    if (out.length >= MAX_CASES_PER_REPORT)
      throw new ReportError(`holds more than ${MAX_CASES_PER_REPORT} test cases; split it into several uploads`);
    out.push(readCase(asElement(c), name, framework));
  }
  for (const nested of listOf(suite.testsuite)) readSuite(asElement(nested), out, framework);
}

function readCase(c: Element, suite: string, framework: string): TestCaseRun {
  const className = attr(c, "classname");
  const base = attr(c, "name") || "unnamed test";
  const seconds = Number.parseFloat(attr(c, "time"));
  const line = Number.parseInt(attr(c, "line"), 10);
  let outcome: TestOutcome = "passed";
  let failureMessage = "";
  const failure = listOf(c.failure)[0];
  const error = listOf(c.error)[0];
  // Mergify's CLI keeps the first <failure> or <error> in document order; with elements grouped
  // by name here, a <failure> wins when a case has both (rare: frameworks write one or the other).
  const first = failure !== undefined ? failure : error;
  if (first !== undefined) {
    outcome = failure !== undefined ? "failed" : "error";
    const f = asElement(first);
    const head = [attr(f, "type"), attr(f, "message")].filter((s) => s !== "").join(": ");
    failureMessage = capFailure([head, text(first).trim()].filter((s) => s !== "").join("\n"));
  } else if (c.skipped !== undefined) outcome = "skipped";
  return {
    name: className ? `${className}.${base}` : base,
    suite,
    file: attr(c, "file"),
    line: Number.isFinite(line) && line > 0 ? line : 0,
    outcome,
    durationMs: Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : 0,
    failureMessage,
    framework,
    language: "",
  };
}

function listOf(value: unknown): unknown[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}

/** An element's object form (an element with only text parses as a string). */
function asElement(value: unknown): Element {
  return typeof value === "object" && value !== null ? (value as Element) : {};
}

function attr(e: Element, name: string): string {
  const v = e[`@${name}`];
  return typeof v === "string" ? v : "";
}

function text(value: unknown): string {
  if (typeof value === "string") return value;
  const t = asElement(value)["#text"];
  return typeof t === "string" ? t : "";
}
