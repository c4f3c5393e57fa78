/** A handle on one bare repository of the local forge (docs/local-forge.md "Storage"): a type only. */

/** An opened bare repository: its git directory and a name for messages ("owner/name" or a path). */
export interface BareRepo {
  /** Absolute path of the bare repository (the git directory itself). */
  readonly gitDir: string;
  /** Name used in error messages. */
  readonly name: string;
  /**
   * Told of every ref change the git layer makes in this repository (the local forge's ref
   * journal, docs/local-forge.md "Writes and events"). With an observer, force moves and force
   * deletions read the ref first and become compare-and-swaps from what they read.
   */
  readonly refMoves?: RefMoveObserver;
}

/** See {@link BareRepo.refMoves}. SHAs are full; null old = the ref does not exist, null next = deleted. */
export interface RefMoveObserver {
  /** Before git changes the ref; a throw stops the change. */
  before(ref: string, old: string | null, next: string | null): Promise<void>;
  /** After git changed it. */
  after(ref: string, old: string | null, next: string | null): Promise<void>;
}
