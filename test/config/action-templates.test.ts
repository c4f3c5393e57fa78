/**
 * Templates of action options (docs/workflow-automation.md "Templates"): rendered with the pull
 * request's attributes and the filters real files use; a template that does not parse, or names
 * an unknown filter or variable, is a configuration error at its line.
 */
import { describe, expect, it } from "vitest";
import { formatConfigError, loadConfiguration, planAction, renderTemplate } from "../../services/config/index.js";
import { samplePullRequest } from "../../services/config/templates/variables.js";

const rule = (actions: string) =>
  `pull_request_rules:\n  - name: r\n    conditions: [label=x]\n    actions:\n${actions}`;

describe("action templates", () => {
  it("render attributes and the filters real files use", () => {
    const pr = { ...samplePullRequest(), body: "intro\n## Commit Message\nthe message\n## Other\nx", number: 7 };
    const plan = planAction(
      "comment",
      { message: "{{ author }} #{{ number }} {{ labels | join(', ') }} {{ body | get_section('## Commit Message') }}" },
      pr,
    );
    expect(plan).toEqual({ action: "comment", options: { message: "author #7 label the message" }, error: null });
    expect(
      renderTemplate("{{ approved_reviews_by | join(', @') }}|{{ missing }}", { approved_reviews_by: ["a", "b"] }),
    ).toBe("a, @b|");
    const copy = planAction(
      "backport",
      { branches: ["v1", "v2"], title: "{{ title }} to {{ destination_branch }}" },
      pr,
    );
    expect(copy.options.targets).toEqual({ v1: { title: "title to v1" }, v2: { title: "title to v2" } });
  });

  it("refuse a template that does not parse, an unknown filter or variable, at its line", async () => {
    const r = await loadConfiguration(
      rule(
        [
          "      comment:",
          '        message: "{% if %}"',
          "      close:",
          '        message: "{{ title | shout }}"',
          "      review:",
          '        message: "{{ titel }}"',
        ].join("\n"),
      ),
    );
    expect(r.ok).toBe(false);
    if (r.ok) return;
    const errors = r.errors.map(formatConfigError);
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/invalid template: .*unexpected token.* @ pull_request_rules.*comment.*message \(line 6/);
    expect(errors[1]).toMatch(/unknown filter "shout" @ .*close.*message \(line 8/);
    expect(errors[2]).toMatch(/unknown template variable "titel" @ .*review.*message \(line 10/);
  });

  it("accept loop variables, set targets and action variables", async () => {
    const r = await loadConfiguration(
      rule(
        [
          "      comment:",
          '        message: "{% for l in labels %}{{ l | upper }}{% endfor %}{% set n = number %}{{ n }}"',
          "      post_check:",
          '        title: "{{ check_rule_name }} {{ check_status }}"',
          "      backport:",
          "        branches: [v1]",
          '        title: "{{ destination_branch }}"',
        ].join("\n"),
      ),
    );
    expect(r.ok).toBe(true);
  });

  it("render github_actions' dispatch inputs, and refuse a bad one at its line", async () => {
    const options = { workflow: { dispatch: [{ workflow: "e2e.yml", inputs: { pr: "{{ number }}", n: 3 } }] } };
    const plan = planAction("github_actions", options, { ...samplePullRequest(), number: 7 });
    expect(plan.options.workflow).toEqual({ dispatch: [{ workflow: "e2e.yml", inputs: { pr: "7", n: 3 } }] });
    const r = await loadConfiguration(
      rule(
        [
          "      github_actions:",
          "        workflow:",
          "          dispatch:",
          "            - workflow: e2e.yml",
          "              inputs:",
          '                pr: "{{ nunber }}"',
        ].join("\n"),
      ),
    );
    expect(r.ok ? [] : r.errors.map(formatConfigError)).toEqual([
      expect.stringMatching(/unknown template variable "nunber" @ .*github_actions.*dispatch.*inputs → pr \(line 10,/),
    ]);
  });
});
