/**
 * Branch protections read once per base branch during one processing round (the forge is asked
 * at most once per branch; docs/domain.md §2.5).
 */
import type { ForgePort } from "../forge/index.js";
import type { Protection } from "../config/index.js";

/** See the file header. */
export class ProtectionCache {
  private readonly byBranch = new Map<string, Promise<Protection>>();
  constructor(
    private readonly forge: ForgePort,
    private readonly repository: string,
  ) {}
  /** The protection of `branch`, read from the forge on first use. @throws ForgeError as the forge does */
  get(branch: string): Promise<Protection> {
    let p = this.byBranch.get(branch);
    if (!p) this.byBranch.set(branch, (p = this.forge.getBranchProtection(this.repository, branch)));
    return p;
  }
}
