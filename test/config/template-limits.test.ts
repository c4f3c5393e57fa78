/**
 * The bounds of a template render (docs/workflow-automation.md "Bounds"): the configuration that
 * wrote a 9 MB comment (a loop over range(3000) inside another) is refused when it loads, at the
 * option's path; a template whose loops only the pull request sizes stops at the step limit; a
 * rendered text over its field's limit, or writing too much on the way, fails the action with the
 * limit named and nothing of it kept; a template that only prints variables needs no worker thread.
 */
import { describe, expect, it } from "vitest";
import {
  formatConfigError,
  loadConfiguration,
  needsBoundedRender,
  planAction,
  renderTemplate,
  TEMPLATE_STEP_LIMIT,
} from "../../services/config/index.js";
import { samplePullRequest } from "../../services/config/templates/variables.js";

const pr = { ...samplePullRequest(), number: 7, title: "Fix the widget" };
const comment = (message: string) =>
  `pull_request_rules:\n  - name: r\n    conditions: [label=x]\n    actions:\n      comment:\n        message: ${JSON.stringify(message)}\n`;

describe("a template's loops, seen when the configuration loads", () => {
  it("refuses constant loops over the step limit at the option's path (the 9 MB comment)", async () => {
    const bomb = "{% for a in range(3000) %}{% for b in range(3000) %}{{ number }}{% endfor %}{% endfor %}";
    const r = await loadConfiguration(comment(bomb));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map((e) => e.path)).toEqual([["pull_request_rules", 0, "actions", "comment", "message"]]);
    expect(formatConfigError(r.errors[0])).toMatch(
      /^invalid template: its loops over constant ranges take 9003000 steps, over the limit of 100000 steps .* @ pull_request_rules → item 0 → actions → comment → message \(line 6/,
    );
  });

  it("refuses a constant range over the limit wherever it is, and accepts loops within it", async () => {
    const huge = await loadConfiguration(comment("{{ range(100000000) | length }}"));
    expect(huge.ok).toBe(false);
    const fine = await loadConfiguration(
      comment(
        "{% for a in range(100) %}{% for b in range(900) %}.{% endfor %}{% endfor %}{% for c in commits %}{% endfor %}",
      ),
    );
    expect(fine.ok).toBe(true);
  });
});

describe("a render", () => {
  it("stops at the step limit when only the pull request sizes the loops, keeping nothing of the text", () => {
    const bomb =
      "{% for a in range(number * 3000) %}{% for b in range(number * 3000) %}{{ number }}{% endfor %}{% endfor %}";
    const plan = planAction("comment", { message: bomb }, pr);
    expect(plan.error).toBe(
      `message: it takes more than ${TEMPLATE_STEP_LIMIT} steps (loop iterations and calls), the limit of a template`,
    );
    expect(plan.options).toEqual({ message: bomb });
  });

  it("refuses a text over its field's limit, naming it, and takes one within", () => {
    const long = (n: number) => `{% for i in range(${n}) %}x{% endfor %}`;
    expect(planAction("comment", { message: long(65_536) }, pr).error).toBeNull();
    expect(planAction("comment", { message: long(65_537) }, pr).error).toBe(
      "message: the text is 65537 characters long, over 65536 (GitHub's limit of a comment)",
    );
    expect(planAction("post_check", { summary: long(65_536) }, pr).error).toMatch(
      /over 65535 \(GitHub's limit of a check run's summary\)/,
    );
    const backport = planAction("backport", { branches: ["v1"], title: `{{ title }}${"!".repeat(250)}` }, pr);
    expect(backport.error).toBe(
      "title: the text is 264 characters long, over 256 (GitHub's limit of a pull request title)",
    );
  });

  it("stops a text that grows on the way, and filters that would build one", () => {
    const doubling = (n: number) =>
      `{% set s = 'abcdefgh' %}{% for i in range(${n}) %}{% set s = s ~ s %}{% endfor %}{{ s }}`;
    expect(() => renderTemplate(doubling(20), {})).toThrow(/writes more than 262144 characters/);
    expect(() => renderTemplate(doubling(30), {})).toThrow(/Invalid string length/);
    expect(() => renderTemplate("{{ 'x' | center(1000000000) }}", {})).toThrow(/center\(\)'s width is over 262144/);
    const body = "a".repeat(10_000);
    expect(() => renderTemplate("{{ body | replace('', body) }}", { body })).toThrow(/replace\(\)'s result/);
    expect(renderTemplate("{{ body | replace('a', 'b') | length }}", { body })).toBe("10000");
  });

  it("fails a macro that calls itself without end, as an error of the action", () => {
    const plan = planAction("comment", { message: "{% macro m() %}{{ m() }}{% endmacro %}{{ m() }}" }, pr);
    expect(plan.error).toMatch(/^message: /);
  });
});

it("needs a worker thread only for a template that can cost more than its output", () => {
  expect(needsBoundedRender("comment", { message: "Thanks @{{ author }} for #{{ number }} ({{ title }})" })).toBe(
    false,
  );
  expect(needsBoundedRender("comment", { message: "no template at all" })).toBe(false);
  expect(needsBoundedRender("comment", { message: "{{ labels | join(', ') }}" })).toBe(true);
  expect(needsBoundedRender("comment", { message: "{% for c in commits %}{{ c.sha }}{% endfor %}" })).toBe(true);
  expect(needsBoundedRender("backport", { branches: ["v1"], body: "{{ body ~ body }}" })).toBe(true);
  const dispatch = { workflow: { dispatch: [{ workflow: "e2e.yml", inputs: { sha: "{{ head_sha | upper }}" } }] } };
  expect(needsBoundedRender("github_actions", dispatch)).toBe(true);
  expect(needsBoundedRender("label", { add: ["{% for %}"] })).toBe(false);
});
