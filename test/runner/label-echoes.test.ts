/**
 * The echoes of the queue's own status labels (services/runner/label-echoes.ts; docs/github.md
 * "Request budget"): the event reporting a label change the queue made is taken once, within its
 * time; any other label change is an event to read.
 */
import { describe, expect, it } from "vitest";
import { ECHO_TTL_MS, LabelEchoes } from "../../services/runner/label-echoes.js";

function echoes() {
  let now = 1_000_000;
  return { echoes: new LabelEchoes(() => now), advance: (ms: number) => (now += ms) };
}

describe("label echoes", () => {
  it("takes the echo of a label the queue added, once, whatever the case of its name", () => {
    const { echoes: e } = echoes();
    e.expect("Acme/App", 7, ["queued"], true);
    expect(e.take("acme/app", 7, { name: "Queued", added: true })).toBe(true);
    // A second event for the same change is someone else's change: read.
    expect(e.take("acme/app", 7, { name: "queued", added: true })).toBe(false);
  });

  it("reads a change the queue did not make: another label, pull request, direction or repository", () => {
    const { echoes: e } = echoes();
    e.expect("acme/app", 7, ["queued"], true);
    expect(e.take("acme/app", 7, { name: "ready", added: true })).toBe(false);
    expect(e.take("acme/app", 8, { name: "queued", added: true })).toBe(false);
    expect(e.take("acme/app", 7, { name: "queued", added: false })).toBe(false);
    expect(e.take("acme/other", 7, { name: "queued", added: true })).toBe(false);
    expect(e.take("acme/app", 7, undefined)).toBe(false);
    expect(e.take("acme/app", 7, { name: "queued", added: true })).toBe(true);
  });

  it("reads an echo that comes after its time", () => {
    const { echoes: e, advance } = echoes();
    e.expect("acme/app", 7, ["queued", "checking"], false);
    advance(ECHO_TTL_MS);
    expect(e.take("acme/app", 7, { name: "queued", added: false })).toBe(true);
    advance(1);
    expect(e.take("acme/app", 7, { name: "checking", added: false })).toBe(false);
  });
});
