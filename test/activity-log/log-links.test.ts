/**
 * The `Link` header of `/logs` (RFC 8288; docs/activity-log.md "Pages, cursors and links"): path-absolute
 * references to the REST route repeating the normalised filters, the pinned window and per_page;
 * values that would break the header (`,` `;` `<` `>` `"`) are percent-encoded.
 */
import { describe, expect, it } from "vitest";
import { linkHeader } from "../../services/activity-log/index.js";

const window = { fromMs: Date.UTC(2026, 10, 21, 10), toMs: Date.UTC(2026, 10, 22, 10) };

describe("Link header", () => {
  it("lists next, prev and first with the listing's parameters", () => {
    const header = linkHeader(
      "acme",
      "widgets",
      {
        repository: "acme/widgets",
        pullRequest: { mode: "include", values: [7n, 9223372036854775807n] },
        eventType: { mode: "exclude", values: ["action.label"] },
        baseRef: "main",
      },
      window,
      25,
      { next: "NEXT.sig", prev: "PREV.sig" },
    );
    const q =
      "pull_request=7&pull_request=9223372036854775807&base_ref=main&not_event_type=action.label&received_from=2026-11-21T10%3A00%3A00.000Z&received_to=2026-11-22T10%3A00%3A00.000Z&per_page=25";
    expect(header).toBe(
      `</v1/repos/acme/widgets/logs?${q}&cursor=NEXT.sig>; rel="next", </v1/repos/acme/widgets/logs?${q}&cursor=PREV.sig>; rel="prev", </v1/repos/acme/widgets/logs?${q}>; rel="first"`,
    );
  });

  it("has only first when there is no neighbouring page", () => {
    expect(linkHeader("acme", "widgets", { repository: "acme/widgets" }, window, 10, {})).toBe(
      '</v1/repos/acme/widgets/logs?received_from=2026-11-21T10%3A00%3A00.000Z&received_to=2026-11-22T10%3A00%3A00.000Z&per_page=10>; rel="first"',
    );
  });

  it("percent-encodes values that would break the header", () => {
    const header = linkHeader(
      "acme",
      "widgets",
      { repository: "acme/widgets", trigger: { mode: "include", values: ['Rule: "a", <b>; c'] } },
      window,
      10,
      {},
    );
    expect(header).toContain("trigger=Rule%3A+%22a%22%2C+%3Cb%3E%3B+c&");
    expect(header.split(", ")).toHaveLength(1);
  });
});
