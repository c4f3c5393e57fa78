/**
 * Label loops (docs/workflow-automation.md "Label loops"): two rules that keep adding and removing
 * the same label would flip it for ever, each flip a forge write and a new evaluation. Flips that
 * rules decide are counted per pull request and label; past {@link MAX_LABEL_FLIPS} within
 * {@link FLIP_WINDOW_MS} the label is left as it is, and one `action.label.loop_stopped` event
 * names it and the rules involved. The count starts again after the window.
 */
import { loadLabelFlips, saveLabelFlips } from "../../store/index.js";
import type { IngressEnv } from "../ingress-env.js";

/** Flips of one label allowed within the window (three adds and three removals). */
export const MAX_LABEL_FLIPS = 6;
/** The window flips are counted in: one hour, in milliseconds. */
export const FLIP_WINDOW_MS = 60 * 60 * 1000;

/**
 * Counts the flips `rule` is about to make (labels added that are absent, removed that are
 * present) and drops the labels whose loop is stopped.
 * @returns the labels still to add and remove
 */
export async function withoutLoops(
  env: IngressEnv,
  pull: { number: number; base: string; labels: readonly string[] },
  rule: string,
  change: { add: string[]; remove: string[] },
): Promise<{ add: string[]; remove: string[] }> {
  const present = new Set(pull.labels.map((l) => l.toLowerCase()));
  const keep = async (label: string, flips: boolean): Promise<boolean> => {
    if (!flips) return true;
    const key = label.toLowerCase();
    const now = env.now;
    const found = await loadLabelFlips(env.client, env.repository, pull.number, key);
    const fresh = found === null || now.getTime() - found.windowStart.getTime() > FLIP_WINDOW_MS;
    const f = fresh ? { flips: 0, rules: [], windowStart: now, stopped: false } : found;
    if (f.stopped) return false;
    f.flips += 1;
    if (!f.rules.includes(rule)) f.rules = [...f.rules, rule];
    if (f.flips > MAX_LABEL_FLIPS) {
      f.stopped = true;
      env.log({
        kind: "log",
        type: "action.label.loop_stopped",
        pullRequest: pull.number,
        baseRef: pull.base,
        trigger: `Rule: ${rule}`,
        metadata: { label, rules: [...f.rules].sort() },
      });
    }
    await saveLabelFlips(env.client, env.repository, pull.number, key, f);
    return !f.stopped;
  };
  const add: string[] = [];
  for (const l of change.add) if (await keep(l, !present.has(l.toLowerCase()))) add.push(l);
  const remove: string[] = [];
  for (const l of change.remove) if (await keep(l, present.has(l.toLowerCase()))) remove.push(l);
  return { add, remove };
}
