/**
 * History → replay plan on repositories built by the test with real git (docs/replay.md "What is
 * replayed"): merge commits' heads become pull requests (several for an octopus), commits that
 * landed without one become outside changes pushed after the pull requests that landed before
 * them, a linear history gives one pull request per commit, arrivals come from committer dates,
 * and --range / --limit choose the part replayed.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { planReplay, readHistory, ReplayError, type PullStep, type PushStep } from "../../services/replay/index.js";
import { historyRepo, minuteMs, type HistoryRepo } from "./history-fixture.js";

let dir: string;
let merges: HistoryRepo;
let linear: HistoryRepo;
const sha: Record<string, string> = {};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "ym-replay-plan-"));
  merges = await historyRepo(path.join(dir, "merges"));
  sha.root = await merges.commit("Initial commit", { "README.md": "hello\n" }, 0);
  merges.switchTo("a", "main");
  sha.a1 = await merges.commit("Start a", { "a.txt": "1\n" }, 2);
  sha.a2 = await merges.commit("Finish a", { "a.txt": "2\n" }, 3);
  merges.switchTo("e", sha.root);
  sha.e1 = await merges.commit("Old branch e", { "e.txt": "e\n" }, 4, "Bob");
  merges.switchTo("main");
  sha.mergeA = merges.merge("Merge pull request #1 from ada/a", ["a"], 5);
  sha.d1 = await merges.commit("Fix a typo directly on main", { "README.md": "hello!\n" }, 6, "Cy");
  merges.switchTo("b", "main");
  sha.b1 = await merges.commit("Add b", { "b.txt": "b\n" }, 7);
  merges.switchTo("c", "main");
  sha.c1 = await merges.commit("Add c", { "c.txt": "c\n" }, 8);
  merges.switchTo("f", "main");
  sha.f1 = await merges.commit("Add f (clock ahead)", { "f.txt": "f\n" }, 30);
  merges.switchTo("main");
  sha.octopus = merges.merge("Merge branches 'b' and 'c'", ["b", "c"], 10);
  sha.mergeE = merges.merge("Merge pull request #2 from bob/e", ["e"], 12);
  sha.mergeF = merges.merge("Merge pull request #3 from ada/f", ["f"], 15);

  linear = await historyRepo(path.join(dir, "linear"));
  sha.l0 = await linear.commit("Initial commit", { "x.txt": "0\n" }, 0);
  for (let i = 1; i <= 4; i++) sha[`l${i}`] = await linear.commit(`Change ${i}`, { "x.txt": `${i}\n` }, 10 * i);
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

const pull = (p: Partial<PullStep>) => expect.objectContaining({ kind: "pull", ...p });
const push = (p: Partial<PushStep>) => expect.objectContaining({ kind: "push", ...p });

describe("a history with merge commits", () => {
  it("opens a pull request per merged head, in arrival order, and pushes the commits that landed without one", async () => {
    const plan = planReplay(await readHistory({ path: merges.path, base: "main" }));
    expect(plan).toMatchObject({ mode: "merges", start: sha.root, end: sha.mergeF, changes: 5 });
    expect(plan.steps).toEqual([
      pull({
        order: 1,
        head: sha.a2,
        title: "Merge pull request #1 from ada/a",
        arrivalAt: minuteMs(3),
        landedIn: sha.mergeA,
        landing: 0,
        authorName: "Ada",
      }),
      pull({
        order: 2,
        head: sha.e1,
        title: "Merge pull request #2 from bob/e",
        arrivalAt: minuteMs(4),
        landedIn: sha.mergeE,
        landing: 3,
        authorName: "Bob",
      }),
      push({
        sha: sha.d1,
        title: "Fix a typo directly on main",
        arrivalAt: minuteMs(6),
        landing: 1,
        after: [1],
        authorName: "Cy",
      }),
      // The octopus merge holds two pull requests, titled by their own heads.
      pull({ order: 3, head: sha.b1, title: "Add b", arrivalAt: minuteMs(7), landedIn: sha.octopus, landing: 2 }),
      pull({ order: 4, head: sha.c1, title: "Add c", arrivalAt: minuteMs(8), landedIn: sha.octopus, landing: 2 }),
      // A head dated after its merge arrives when it landed.
      pull({ order: 5, head: sha.f1, arrivalAt: minuteMs(15), landedIn: sha.mergeF, landing: 4 }),
    ]);
    expect(plan.pulls.map((p) => p.order)).toEqual([1, 2, 3, 4, 5]);
    expect(plan.pushes).toHaveLength(1);
  });

  it("replays only the range A..B, starting from A", async () => {
    const plan = planReplay(
      await readHistory({ path: merges.path, base: "main", range: `${sha.mergeA}..${sha.octopus}` }),
    );
    expect(plan).toMatchObject({ mode: "merges", start: sha.mergeA, end: sha.octopus, changes: 2 });
    expect(plan.steps).toEqual([
      push({ sha: sha.d1, after: [] }),
      pull({ order: 1, head: sha.b1 }),
      pull({ order: 2, head: sha.c1 }),
    ]);
  });

  it("keeps the first N changes with a limit, and a range's B defaults to the base", async () => {
    const limited = planReplay(await readHistory({ path: merges.path, base: "main" }), 2);
    expect(limited).toMatchObject({ start: sha.root, end: sha.d1, changes: 2 });
    expect(limited.steps.map((s) => (s.kind === "pull" ? s.head : s.sha))).toEqual([sha.a2, sha.d1]);
    const open = planReplay(await readHistory({ path: merges.path, base: "main", range: `${sha.octopus}..` }));
    expect(open).toMatchObject({ start: sha.octopus, end: sha.mergeF, changes: 2 });
  });

  it("arrives no earlier than A: a head older than the start arrives with the first change", async () => {
    const plan = planReplay(await readHistory({ path: merges.path, base: "main", range: `${sha.d1}..main` }));
    const e = plan.pulls.find((p) => p.head === sha.e1)!;
    expect(e.arrivalAt).toBe(minuteMs(6));
    expect(plan.pulls[0]!.head).toBe(sha.e1);
  });
});

describe("a linear history", () => {
  it("makes every first-parent commit its own pull request", async () => {
    const plan = planReplay(await readHistory({ path: linear.path, base: "main" }));
    expect(plan).toMatchObject({ mode: "linear", start: sha.l0, end: sha.l4, changes: 4, pushes: [] });
    expect(plan.steps).toEqual(
      [1, 2, 3, 4].map((i) =>
        pull({
          order: i,
          head: sha[`l${i}`],
          title: `Change ${i}`,
          arrivalAt: minuteMs(10 * i),
          landedIn: sha[`l${i}`],
          landing: i - 1,
        }),
      ),
    );
  });

  it("stays linear when a limit cuts the history before any merge", async () => {
    const plan = planReplay(await readHistory({ path: merges.path, base: "main", range: `${sha.mergeA}..${sha.d1}` }));
    expect(plan).toMatchObject({ mode: "linear", changes: 1 });
    expect(plan.steps).toEqual([pull({ order: 1, head: sha.d1 })]);
  });
});

describe("refusals, naming the option", () => {
  const cases: [string, () => Promise<unknown>, RegExp][] = [
    [
      "a directory that is not a repository",
      () => readHistory({ path: dir, base: "main" }),
      /^--from: .* is not a git repository/,
    ],
    ["an unknown base", () => readHistory({ path: linear.path, base: "trunk" }), /^--base: "trunk" is not a commit/],
    [
      "a range without ..",
      () => readHistory({ path: linear.path, base: "main", range: "main" }),
      /^--range: "main" must be written A\.\.B/,
    ],
    [
      "a symmetric range",
      () => readHistory({ path: linear.path, base: "main", range: "a...b" }),
      /^--range: "a\.\.\.b" must be written A\.\.B/,
    ],
    [
      "an unknown A",
      () => readHistory({ path: linear.path, base: "main", range: "nope..main" }),
      /^--range: "nope" is not a commit/,
    ],
    [
      "an A off the first-parent history",
      () => readHistory({ path: merges.path, base: "main", range: `${sha.a1}..main` }),
      /^--range: .* is not on the first-parent history of main/,
    ],
    [
      "an empty range",
      () => readHistory({ path: linear.path, base: "main", range: "main..main" }),
      /^--range: nothing landed on main after/,
    ],
  ];
  it.each(cases)("refuses %s", async (_name, attempt, message) => {
    const error = await attempt().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ReplayError);
    expect((error as Error).message).toMatch(message);
  });

  it("refuses a limit that is not a positive whole number", async () => {
    const history = await readHistory({ path: linear.path, base: "main" });
    expect(() => planReplay(history, 0)).toThrow(RangeError);
    expect(() => planReplay(history, 1.5)).toThrow(RangeError);
  });
});
