/**
 * The base history and the trees of the what-if simulation's forge (virtual-forge.ts).
 * Trees are abstract: a tree is the set of changes applied on the initial base, stored as a tip of
 * the base history plus the pull requests added on top (sorted, none already in that tip); a
 * commit SHA (a 40-hex counter) names a tree. A tip is broken when a change that breaks the build
 * reached the base, at it or before.
 */

/** A tree: tip `tip` of the base history plus `extra` (sorted, not in that tip). */
export interface Tree {
  tip: number;
  extra: number[];
}

/** The base history (tip 0 is the initial base) and the trees its SHAs name. */
export class TreeHistory {
  private readonly tips: { sha: string; added: number[]; broken: boolean }[] = [];
  private readonly mergedAt = new Map<number, number>();
  private readonly trees = new Map<string, Tree>();
  private counter = 0;

  /** @param bad the pull requests that break the build (read at each merge; the owner may add to it). */
  constructor(private readonly bad: ReadonlySet<number>) {
    this.addTip([]);
  }

  /** A fresh identifier from the counter SHAs are made of (also the forge's job tokens). */
  nextId(): number {
    return ++this.counter;
  }

  /** Names `tree` by a new SHA. */
  newSha(tree: Tree): string {
    const sha = this.nextId().toString(16).padStart(40, "0");
    this.trees.set(sha, tree);
    return sha;
  }

  /** Moves the base: a new tip adding `added`. Returns its SHA. */
  addTip(added: number[]): string {
    const tip = this.tips.length;
    const broken = (this.tips.at(-1)?.broken ?? false) || added.some((n) => this.bad.has(n));
    for (const n of added) this.mergedAt.set(n, tip);
    const sha = this.newSha({ tip, extra: [] });
    this.tips.push({ sha, added, broken });
    return sha;
  }

  /** The tree a SHA names, if any. */
  tree(sha: string): Tree | undefined {
    return this.trees.get(sha);
  }

  /** The base tip's SHA. */
  get baseSha(): string {
    return this.tips.at(-1)!.sha;
  }

  /** The index of the base tip. */
  get lastTip(): number {
    return this.tips.length - 1;
  }

  /** Whether the base at tip `tip` holds a change that breaks the build. */
  brokenAt(tip: number): boolean {
    return this.tips[tip]!.broken;
  }

  /** Whether pull request `n` reached the base. */
  merged(n: number): boolean {
    return this.mergedAt.has(n);
  }

  /** Pull requests merged so far, in order (outside changes, numbered from 1,000,000, left out). */
  mergedPulls(): number[] {
    return this.tips.flatMap((t) => t.added).filter((n) => n < 1_000_000);
  }

  /** `tree` plus `pulls`, leaving out what its tip already holds. */
  extend(tree: Tree, pulls: number[]): Tree {
    const extra = [...new Set([...tree.extra, ...pulls])].filter((n) => !this.inTip(n, tree.tip)).sort((a, b) => a - b);
    return { tip: tree.tip, extra };
  }

  /** Whether two trees hold the same changes. */
  same(a: Tree, b: Tree): boolean {
    const [lo, hi] = a.tip <= b.tip ? [a, b] : [b, a];
    const between = this.tips.slice(lo.tip + 1, hi.tip + 1).flatMap((t) => t.added);
    if (!between.every((n) => lo.extra.includes(n))) return false;
    const rest = lo.extra.filter((n) => !between.includes(n));
    return rest.length === hi.extra.length && rest.every((n, i) => n === hi.extra[i]);
  }

  private inTip(n: number, tip: number): boolean {
    const at = this.mergedAt.get(n);
    return at !== undefined && at <= tip;
  }
}
