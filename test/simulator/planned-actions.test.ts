/**
 * The pull request simulator lists the actions that would run now, with their templates rendered
 * for the pull request, and runs none (docs/workflow-automation.md "The simulator").
 */
import { describe, expect, it } from "vitest";
import { attributesOf, loadConfiguration } from "../../services/config/index.js";
import { samplePullRequest } from "../../services/config/templates/variables.js";
import { simulatePullRequest } from "../../services/offload/simulation-task.js";

const CONFIG = `
pull_request_rules:
  - name: greet
    conditions: [label=label]
    actions:
      comment:
        message: "Hi {{ author }}, #{{ number }} targets {{ base }}"
      label:
        add: [greeted]
      post_check:
        title: "{{ check_rule_name }}: {{ check_status }}"
  - name: backport
    conditions: [label=label]
    actions:
      backport:
        branches: [v1]
        title: "{{ title }} -> {{ destination_branch }}"
  - name: not now
    conditions: [label=other]
    actions:
      close: {}
`;

describe("planned actions of the pull request simulator", () => {
  it("lists the matching rules' actions with their templates rendered", async () => {
    const loaded = await loadConfiguration(CONFIG);
    if (!loaded.ok) throw new Error("configuration did not load");
    const pr = { ...samplePullRequest(), number: 42, author: { id: 1, login: "ada" } };
    const now = new Date();
    const out = simulatePullRequest({
      config: loaded.config,
      context: { attributes: attributesOf(pr), now },
      pull: pr,
    });
    const planned = out.summary.slice(out.summary.indexOf("### Planned actions"));
    expect(planned).toContain('**greet** → `comment` `{"message":"Hi ada, #42 targets main"}`');
    expect(planned).toContain('**greet** → `label` `{"add":["greeted"]');
    expect(planned).toContain('**greet** → `post_check` `{"conclusion":"success","title":"greet: success"');
    expect(planned).toContain('"targets":{"v1":{"title":"title -> v1"');
    expect(planned).not.toContain("close");
  });
});
