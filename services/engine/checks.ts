/**
 * Starting checks (docs/domain.md §3.4). Batches start in train order while fewer than
 * max_parallel_checks batches of the train hold a check (bisection sub-batches aside, they take no
 * slot) and per-scope capacities allow, never on
 * top of a failed batch (unless skip_intermediate_results may vindicate it). A batch is checked on
 * a draft pull request whose branch (under queue_branch_prefix) is the base plus the pull requests
 * of its ancestors and its own, merged in order - or in place, on the pull request itself, when
 * the in-place rule holds. With merge_method fast-forward the draft is built on the check commit of
 * the batch ahead, so that merging moves the base to exactly the tested commit.
 */
import { batchMetadata } from "./batch-metadata.js";
import { laneScopes, mustBuildOn } from "./batches.js";
import { usesInPlaceChecks } from "./config.js";
import type { Ctx } from "./context.js";
import type { Batch, CheckAttempt, Train } from "./state.js";

/** Draft branch of a check: `<prefix><base>/<partition>/<batch-name>[-retry-<n>]`. */
export function draftBranchName(prefix: string, train: Train, batch: Batch, attempt: number): string {
  const slug = batch.name.toLowerCase().replace(/[^a-z0-9.]+/g, "-");
  const partition = train.partition === "__default__" ? "" : `${train.partition}/`;
  return `${prefix}${train.branch}/${partition}${slug}${attempt > 0 ? `-retry-${attempt}` : ""}`;
}

/**
 * Where a check is built: the commit to start from (the base, or with fast-forward the check
 * commit of the batch ahead) and the pull requests to merge on it; `treeBase` and `included` say
 * what the resulting tree holds (a base SHA, plus pull requests). Null: not possible yet.
 */
interface BuildPoint {
  baseSha: string;
  pulls: number[];
  treeBase: string;
  included: number[];
}

function buildPoint(ctx: Ctx, train: Train, batch: Batch): BuildPoint | null {
  const ahead = train.batches.filter((c) => batch.ancestors.includes(c.id));
  const own = batch.members;
  const rule = ctx.mustRule(batch.queueRule);
  if (rule.mergeMethod === "fast-forward" && ahead.length > 0) {
    const parent = ahead.at(-1)!.check;
    if (!parent?.headSha) return null;
    return {
      baseSha: parent.headSha,
      pulls: own,
      treeBase: parent.baseSha,
      included: [...parent.includedPulls, ...own],
    };
  }
  const base = ctx.base(train.branch).sha;
  const pulls = [...ahead.flatMap((c) => c.members), ...own];
  return { baseSha: base, pulls, treeBase: base, included: pulls };
}

function capacityAllows(ctx: Ctx, train: Train, batch: Batch): boolean {
  const cfg = ctx.state.config;
  return laneScopes(batch.scopes).every((scope) => {
    const cap = cfg.scopeCapacities[scope] ?? cfg.defaultScopeCapacity;
    if (cap === null || cap === undefined) return true;
    return train.batches.filter((c) => c.check && laneScopes(c.scopes).includes(scope)).length < cap;
  });
}

function title(members: number[]): string {
  const refs = members.map((n) => `#${n}`);
  return `merge queue: embarking ${refs.length > 1 ? `${refs.slice(0, -1).join(", ")} and ${refs.at(-1)}` : refs[0]} together`;
}

/** Emits the effect that creates a check attempt (draft or in place). */
function requestCreation(ctx: Ctx, train: Train, batch: Batch, check: CheckAttempt, build: BuildPoint): void {
  const rule = ctx.mustRule(batch.queueRule);
  const head = (n: number) => ({ number: n, headSha: ctx.mustPull(n).headSha });
  if (check.mode === "in_place") {
    ctx.emit({
      kind: "start_in_place_check",
      checkId: check.id,
      batchId: batch.id,
      baseRef: train.branch,
      baseSha: build.baseSha,
      pull: head(batch.members[0]!),
      updateMethod: rule.updateMethod,
      botAccount: rule.updateBotAccount,
    });
    return;
  }
  const ahead = build.pulls.filter((n) => !batch.members.includes(n));
  const lines = build.pulls.map((n) =>
    `- #${n} ${ctx.pull(n)?.title ?? ""}${batch.members.includes(n) ? "" : " (batch ahead)"}`.trimEnd(),
  );
  ctx.emit({
    kind: "create_speculative_check",
    checkId: check.id,
    batchId: batch.id,
    baseRef: train.branch,
    baseSha: build.baseSha,
    draftBranch: check.branch!,
    pulls: build.pulls.map(head),
    ownPullNumbers: [...batch.members],
    aheadPullNumbers: ahead,
    title: title(batch.members),
    body: `This draft pull request checks ${batch.name} of the merge queue (queue rule \`${batch.queueRule}\`) on top of \`${train.branch}\` at ${build.baseSha}.\n\nPull requests, in merge order:\n${lines.join("\n")}\n`,
    botAccount: rule.draftBotAccount,
    metadata: batchMetadata(ctx, train, batch, build.baseSha, build.pulls),
    mergeMethod: rule.mergeMethod,
  });
}

function startCheck(ctx: Ctx, train: Train, batch: Batch, build: BuildPoint): void {
  const rule = ctx.mustRule(batch.queueRule);
  const inPlace =
    usesInPlaceChecks(ctx.state.config, rule) && batch.members.length === 1 && batch.ancestors.length === 0;
  const attempt = batch.retries + (batch.flakyRetests ?? 0);
  batch.check = {
    id: ctx.nextCheckId(),
    attempt,
    mode: inPlace ? "in_place" : "draft",
    phase: "creating",
    branch: inPlace ? null : draftBranchName(rule.queueBranchPrefix, train, batch, attempt),
    number: null,
    headSha: null,
    baseSha: build.treeBase,
    includedPulls: build.included,
    requestedAt: ctx.now,
    startedAt: null,
    endedAt: null,
    timedOut: false,
    checks: [],
    creationFailures: 0,
    nextCreationAt: null,
  };
  requestCreation(ctx, train, batch, batch.check, build);
}

/**
 * Whether a check of `batch` built now would miss pull requests whose merge is in flight (a batch
 * of the train that is merging and is not among `batch`'s ancestors, such as a bisection sub-batch
 * that passed): its tree would be stale as soon as that merge lands, so it waits for the merge.
 */
function waitsForMerge(ctx: Ctx, train: Train, batch: Batch): boolean {
  const merging = train.batches.find((c) => c.merging);
  return (
    merging !== undefined &&
    merging !== batch &&
    !batch.ancestors.includes(merging.id) &&
    mustBuildOn(ctx, batch, merging)
  );
}

/** Starts checks of batches waiting for a slot, and re-requests creations whose retry is due. Returns true on change. */
export function startChecks(ctx: Ctx, train: Train): boolean {
  if (ctx.state.pause) return false;
  let changed = false;
  const cfg = ctx.state.config;
  for (const batch of train.batches) {
    const check = batch.check;
    if (
      check?.phase === "creating" &&
      check.nextCreationAt !== null &&
      check.nextCreationAt <= ctx.now &&
      !waitsForMerge(ctx, train, batch)
    ) {
      const build = buildPoint(ctx, train, batch);
      if (!build) continue;
      Object.assign(check, {
        id: ctx.nextCheckId(),
        nextCreationAt: null,
        baseSha: build.treeBase,
        includedPulls: build.included,
      });
      requestCreation(ctx, train, batch, check, build);
      changed = true;
    }
  }
  let used = train.batches.filter((c) => c.check && c.bisectionId === null).length;
  for (const batch of train.batches) {
    if (batch.check) continue;
    const sub = batch.bisectionId !== null; // bisection sub-batches take no checks slot
    if (!sub && used >= cfg.maxParallelChecks) continue;
    const ahead = train.batches.filter((c) => batch.ancestors.includes(c.id));
    // An edited draft (allow_queue_branch_edit) holds commits no other check can include: wait for its merge.
    if (ahead.some((a) => !a.check || a.check.edited || (a.check.phase === "failed" && !cfg.skipIntermediateResults)))
      continue;
    if (!capacityAllows(ctx, train, batch) || waitsForMerge(ctx, train, batch)) continue;
    const build = buildPoint(ctx, train, batch);
    if (!build) continue;
    startCheck(ctx, train, batch, build);
    if (!sub) used++;
    changed = true;
  }
  return changed;
}
