/**
 * Setting up a replay (docs/replay.md "The replayed repository"): the repository is created in
 * the local forge from the history as it was at A (CreateRepository with from_path and at_ref),
 * then one commit on top of A adds the CI file and the queue configuration, pushed to the base as
 * a fast-forward. The heads to open (marker commits on top of the broken ones) and the outside
 * changes get refs in the workspace, and the tree the base must end with is computed: B's tree
 * with the same two files written over it (so the comparison accounts for them exactly). With
 * `--flaky`, CI Insights is then taught the flaky tests (flaky-setup.ts).
 */
import { setTimeout as delay } from "node:timers/promises";
import { Code, ConnectError } from "@connectrpc/connect";
import type { ReplayClients } from "./clients.js";
import { ReplayError } from "./errors.js";
import { teachFlakyTests } from "./flaky-setup.js";
import type { FlakyTests } from "./flaky-tests.js";
import type { ReplayPlan } from "./plan.js";
import { brokenMarker, CI_PATH, CONFIG_PATH } from "./replay-files.js";
import type { FileTexts, Workspace } from "./workspace.js";

/** What setting up produced. */
export interface PreparedReplay {
  /** The setup commit (A + the two files), the base's tip when the replay starts. */
  setupSha: string;
  /** Workspace ref to push for each pull request, by replay order. */
  pullRefs: Map<number, string>;
  /** Workspace ref of each outside change, in plan order. */
  pushRefs: string[];
  /** The tree the base must have at the end when nothing is broken. */
  expectedTree: string;
}

/** Inputs of {@link prepareReplay}. */
export interface PrepareInput {
  /** Absolute path of the history's repository. */
  historyPath: string;
  base: string;
  plan: ReplayPlan;
  /** The two files' texts. */
  ciYml: string;
  configYml: string;
  /** Replay orders of the pull requests to break. */
  breaks: ReadonlySet<number>;
  /** `--flaky`: CI Insights is taught the flaky tests before the first pull request. */
  flaky: FlakyTests | null;
  /** How long to wait for the queue to read the configuration, in milliseconds. */
  configTimeoutMs?: number;
}

/**
 * Creates the repository and everything the steps push.
 * @throws ReplayError naming --repo when the repository exists; ConnectError from the service
 */
export async function prepareReplay(
  clients: ReplayClients,
  ws: Workspace,
  input: PrepareInput,
): Promise<PreparedReplay> {
  const { plan } = input;
  const files: FileTexts = { [CI_PATH]: input.ciYml, [CONFIG_PATH]: input.configYml };
  const startDate = new Date(plan.steps.length > 0 ? Math.min(...plan.steps.map((s) => s.arrivalAt)) : Date.now());
  const setupSha = await ws.commitOnTop(
    plan.start,
    files,
    "Replay setup: the CI file and the queue configuration (yardmaster replay)",
    startDate,
  );
  const setupRef = await ws.setRef("setup", setupSha);
  const pullRefs = new Map<number, string>();
  for (const pull of plan.pulls) {
    let sha = pull.head;
    if (input.breaks.has(pull.order)) {
      const marker = brokenMarker(pull.order);
      sha = await ws.commitOnTop(
        pull.head,
        { [marker.path]: marker.content },
        `Break pull request ${pull.order} on purpose (yardmaster replay --break)`,
        new Date(pull.arrivalAt),
      );
    }
    pullRefs.set(pull.order, await ws.setRef(`pull-${pull.order}`, sha));
  }
  const pushRefs: string[] = [];
  for (const push of plan.pushes) pushRefs.push(await ws.setRef(`push-${push.landing + 1}`, push.sha));
  const expectedTree = await ws.treeWith(plan.end, files);

  try {
    await clients.forge.createRepository({
      ...clients.repo,
      fromPath: input.historyPath,
      defaultBranch: input.base,
      atRef: plan.start,
    });
  } catch (error) {
    if (error instanceof ConnectError && error.code === Code.AlreadyExists) {
      throw new ReplayError(
        `--repo: ${clients.repo.owner}/${clients.repo.repository} already exists in the local forge; replay into a new repository name`,
      );
    }
    throw error;
  }
  await clients.forge.pushBranch({
    ...clients.repo,
    fromPath: ws.path,
    sourceRef: setupRef,
    branch: input.base,
    force: false,
    pusher: "replay",
  });
  await waitForConfiguration(clients, input.configTimeoutMs ?? 60_000);
  if (input.flaky !== null) await teachFlakyTests(clients, input.flaky, { base: input.base, sha: setupSha });
  return { setupSha, pullRefs, pushRefs, expectedTree };
}

/**
 * Waits until the queue shows the configuration read from the base (GetQueuesConfiguration lists
 * a queue rule), polling every 200 ms.
 * @throws ReplayError when it does not within `timeoutMs`
 */
async function waitForConfiguration(clients: ReplayClients, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await clients.queue.getQueuesConfiguration(clients.repo).catch(() => null);
    if (res && res.configuration.length > 0) return;
    if (Date.now() > deadline)
      throw new ReplayError(
        `the queue did not read the configuration of ${clients.repo.owner}/${clients.repo.repository} within ${timeoutMs / 1000} s`,
      );
    await delay(200);
  }
}
