/**
 * docs/merge-queue.md "Risk-aware batching" on a live queue, against a real server process: CI
 * Insights knows `app.cart` (file `tests/cart.t`) as flaky on main (a failed and a passed run of
 * one commit, uploaded as JUnit reports). Two repositories alike but for their queue rule's
 * `risk_aware_batching`; in each, three pull requests queued together, the second changing
 * `tests/cart.t`. With the option on it enters with `flakyTestsTouched` 1 and ends its batch
 * (`[1, 2]`, then `[3]`); with it off the known flaky tests are not read and the three are one batch.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EngineState } from "../../services/engine/index.js";
import { loadQueueState } from "../../services/store/index.js";
import { startWalkthrough, type Walkthrough } from "../support/doc-walkthrough.js";
import { eventually } from "../support/eventually.js";
import { restCall } from "../support/rest-client.js";

let walk: Walkthrough;

/** Makes repository acme/`name` (risk_aware_batching `on`), its three pull requests, app.cart flaky on main. */
const setUp = (name: string, on: boolean) => `
mkdir -p ${name}/.yardmaster ${name}/tests && cd ${name}
printf 'queue_rules:\\n  - name: default\\n    batch_size: 3\\n    batch_max_wait_time: 5 s\\n    risk_aware_batching: ${on}\\n' > .yardmaster.yml
printf 'checks:\\n  - name: test\\n    run: "true"\\n' > .yardmaster/ci.yml
echo 'exit 0' > tests/cart.t
git init -q -b main && git add -A && git commit -qm "The shop"
change() { git switch -qc "$1" main && echo "$1" > "$2" && git add -A && git commit -qm "$1" && git switch -q main; }
change first a.md; change cart tests/cart.t; change last c.md
yardmaster repo add acme/${name} --from . >/dev/null
yardmaster product enable acme/${name} ci_insights >/dev/null
for b in first cart last; do yardmaster pr open acme/${name} --head "$b" --base main --title "$b" --author ada >/dev/null; done
echo '<testsuite><testcase classname="app" name="cart" file="./tests/cart.t"><failure message="timing"/></testcase></testsuite>' > ../failed-${name}.xml
echo '<testsuite><testcase classname="app" name="cart" file="./tests/cart.t"/></testsuite>' > ../passed-${name}.xml
up() { yardmaster ci junit-upload --repo acme/${name} --head-sha "$(git rev-parse main)" --branch main --pipeline yardmaster-ci --job test "$@" >/dev/null; }
up ../failed-${name}.xml; up --attempt 2 ../passed-${name}.xml
until yardmaster tests list acme/${name} | grep -q '^flaky .* app\\.cart$'; do sleep 1; done
`;

/** Pauses acme/`name`'s queue and queues its three pull requests in order. */
const queueAll = (name: string) => `
auth="authorization: Bearer $YARDMASTER_ADMIN_KEY"
curl -sf -X PUT "$YARDMASTER_URL/v1/repos/acme/${name}/merge-queue/pause" -H "$auth" -H 'Content-Type: application/json' -d '{"reason": "queue together"}' >/dev/null
for n in 1 2 3; do yardmaster pr comment acme/${name} "$n" "@yardmaster queue" --author ada >/dev/null; done
`;

const unpause = (name: string) =>
  `curl -sf -X DELETE "$YARDMASTER_URL/v1/repos/acme/${name}/merge-queue/pause" -H "authorization: Bearer $YARDMASTER_ADMIN_KEY" >/dev/null`;

/** The risk signals each pull request entered with (the queue state's copy of pull_request_queued's `pull.risk`). */
async function risks(name: string) {
  return eventually(async () => {
    const state = await loadQueueState<EngineState>(walk.server.db.pool, `acme/${name}`);
    const pulls = [1, 2, 3].map((n) => state?.pulls[String(n)]);
    expect(pulls.every((p) => p !== undefined)).toBe(true);
    return pulls.map((p) => p!.risk);
  }, 60_000);
}

/** The members of each checked batch, in the order their checks started, once all three merged. */
async function batches(name: string): Promise<number[][]> {
  return eventually(async () => {
    const res = await restCall(
      walk.server,
      "GET",
      `/v1/repos/acme/${name}/logs?event_type=action.queue.leave&per_page=100`,
    );
    const codes = res.json.events.map((e: { metadata: { dequeue_code: string } }) => e.metadata.dequeue_code);
    expect(codes).toHaveLength(3);
    for (const code of codes) expect(code).toMatch(/^PR_MERGED/);
    const starts = await restCall(
      walk.server,
      "GET",
      `/v1/repos/acme/${name}/logs?event_type=action.queue.checks_start&per_page=100`,
    );
    const seen = new Map<string, number[]>();
    for (const e of (starts.json.events as { metadata: { pull_request_numbers: number[] } }[]).reverse())
      seen.set(JSON.stringify(e.metadata.pull_request_numbers), e.metadata.pull_request_numbers);
    return [...seen.values()];
  }, 120_000);
}

beforeAll(async () => {
  walk = await startWalkthrough({ name: "risk-flaky", repository: "work" });
  await walk.run(`(${setUp("on", true)})\n(${setUp("off", false)})`);
}, 300_000);

afterAll(async () => {
  await walk?.close();
});

describe("risk-aware batching reads the known flaky tests a pull request touches", () => {
  it("ends the batch after the pull request touching a known flaky test's file, with the option on", async () => {
    await walk.run(queueAll("on"));
    const [first, cart, last] = await risks("on");
    expect(cart).toMatchObject({ flakyTestsTouched: 1, changedFiles: 1 });
    expect([first!.flakyTestsTouched, last!.flakyTestsTouched]).toEqual([0, 0]);
    await walk.run(unpause("on"));
    expect(await batches("on")).toEqual([[1, 2], [3]]);
  }, 180_000);

  it("batches the same pull requests as usual, reading no flaky tests, with the option off", async () => {
    await walk.run(queueAll("off"));
    const [, cart] = await risks("off");
    expect(cart).toMatchObject({ flakyTestsTouched: 0, changedFiles: 1 });
    await walk.run(unpause("off"));
    expect(await batches("off")).toEqual([[1, 2, 3]]);
  }, 180_000);
});
