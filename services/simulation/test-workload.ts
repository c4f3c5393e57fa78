/**
 * The `tests` workload of the simulation (docs/benchmarks.md "The tests workload"): failures with
 * test identities. Each pull request that breaks the build breaks its own test, which its own CI
 * failed before it entered the queue with probability `attributable` (a); each CI run of a batch
 * also fails spuriously with probability `spurious` (f), on a quarantined test, on a test known
 * flaky on the base branch, or on a new flaky test nobody knows yet (shares `quarantinedShare`,
 * `flakyShare`, the rest). With `aware` the forge reports the failing tests as the runner does
 * (`check_results.tests`, engine/test-facts.ts); without it the engine is blind to tests, as it is
 * where CI Insights is off. Draws come from a stream of their own, so the same seed gives the same
 * workload to the blind and the aware engine.
 *
 * Each pull request also carries its own risk signal as the runner reads it on entering
 * (`risk.ownCiFailures`, engine/risk.ts): 1 for an attributable culprit (its own CI failed), and
 * for a good pull request with probability `ownCiFailedGood` (its own CI failed on a flake or on an
 * earlier commit, then passed: the signal's false positives); 0 otherwise. These draws come from a
 * second stream, so adding them changes no other draw.
 */
import type { RiskSignals, TestFacts } from "../engine/index.js";
import { Prng } from "./prng.js";

/** The workload's parameters. Probabilities in [0, 1]. */
export interface TestWorkload {
  /** a: a culprit's own CI failed its test before it was queued. */
  attributable: number;
  /** f: a CI run fails on a flaky test. */
  spurious: number;
  /** Of the spurious failures: the share on quarantined tests. */
  quarantinedShare: number;
  /** Of the spurious failures: the share on tests known flaky on the base branch (the rest: new flaky tests). */
  flakyShare: number;
  /** The queue reads test results (false: blind to tests). */
  aware: boolean;
  /** Of the good pull requests: the share whose own CI failed before they were queued. Absent: 0. */
  ownCiFailedGood?: number;
}

/** What one CI run of a tree says. `tested`: a pass of it would merge a tested tree (only quarantined failures count as none). */
export interface RunOutcome {
  failed: boolean;
  tested: boolean;
  tests?: TestFacts;
  /** The spurious failure's kind, when there was one. */
  spurious: "quarantined" | "flaky" | "new" | null;
}

/** The tests of a simulated repository: who is attributable, and each run's failing tests. */
export class TestOutcomes {
  private readonly rng: Prng;
  private readonly attributable = new Set<number>();
  private readonly riskRng: Prng;
  private readonly ownCiFailed = new Set<number>();
  private newTests = 0;
  /** Spurious failures drawn so far, by kind. */
  readonly spuriousCount = { quarantined: 0, flaky: 0, new: 0 };

  constructor(
    readonly workload: TestWorkload,
    seed: number,
  ) {
    this.rng = new Prng((seed ^ 0x5bd1e995) >>> 0);
    this.riskRng = new Prng((seed ^ 0x27d4eb2f) >>> 0);
  }

  /** A pull request arrived (`bad`: it breaks the build). */
  arrived(number: number, bad: boolean): void {
    if (bad && this.rng.chance(this.workload.attributable)) {
      this.attributable.add(number);
      this.ownCiFailed.add(number);
    }
    const falseAlarm = this.riskRng.chance(this.workload.ownCiFailedGood ?? 0);
    if (!bad && falseAlarm) this.ownCiFailed.add(number);
  }

  /** The risk signals of an arrived pull request, as the runner would read them. */
  riskOf(number: number): RiskSignals {
    return {
      ownCiFailures: this.ownCiFailed.has(number) ? 1 : 0,
      flakyTestsTouched: 0,
      changedFiles: 0,
      changedLines: 0,
    };
  }

  /** One CI run of a tree holding the culprits `culprits` (`brokenBase`: the base itself is broken). */
  run(culprits: readonly number[], brokenBase: boolean): RunOutcome {
    const w = this.workload;
    let spurious: RunOutcome["spurious"] = null;
    if (this.rng.chance(w.spurious)) {
      const u = this.rng.next();
      spurious = u < w.quarantinedShare ? "quarantined" : u < w.quarantinedShare + w.flakyShare ? "flaky" : "new";
      this.spuriousCount[spurious]++;
    }
    const failed = brokenBase || culprits.length > 0 || spurious !== null;
    const onlyQuarantined = !brokenBase && culprits.length === 0 && spurious === "quarantined";
    const outcome: RunOutcome = { failed, tested: !failed || onlyQuarantined, spurious };
    if (!failed || !w.aware) return outcome;
    const failing: TestFacts["failing"] = culprits.map((n) => ({
      name: `broken-by-${n}`,
      job: "ci",
      quarantined: false,
      health: "healthy" as const,
      suspects: this.attributable.has(n) ? [{ number: n, reason: "failed_in_own_ci" as const }] : [],
    }));
    if (brokenBase)
      failing.push({ name: "broken-on-base", job: "ci", quarantined: false, health: "broken", suspects: [] });
    if (spurious !== null)
      failing.push({
        name: spurious === "new" ? `new-flaky-${++this.newTests}` : `${spurious}-test`,
        job: "ci",
        quarantined: spurious === "quarantined",
        health: spurious === "flaky" ? "flaky" : spurious === "quarantined" ? "flaky" : "unknown",
        suspects: [],
      });
    outcome.tests = {
      failing,
      awaiting: [],
      withoutQuarantined: failing.every((t) => t.quarantined),
      withoutKnownFlaky: failing.every((t) => t.quarantined || t.health === "flaky"),
    };
    return outcome;
  }
}
