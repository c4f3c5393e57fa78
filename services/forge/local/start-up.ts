/**
 * What the local forge does when it is created, before it serves (docs/local-forge.md "Writes and
 * events"): moves back the refs of writes that did not commit (the ref journal), then loads the
 * events an earlier process stored and did not deliver, and delivers them when a sink is there.
 */
import { ForgeError } from "../types.js";
import type { ForgeCore } from "./core.js";
import { recoverRefJournal } from "./ref-journal.js";

/**
 * Runs the start-up recovery.
 * @throws ForgeError transient when the database or git fails (the forge must not serve then)
 */
export async function recoverAtStartUp(core: ForgeCore): Promise<void> {
  try {
    const refs = await recoverRefJournal(core.db, core.logger);
    if (refs.reverted + refs.untouched + refs.diverged > 0) {
      core.logger.warn({ refs }, "local forge start-up: writes that did not commit were undone");
    }
    await core.events.loadStored();
  } catch (e) {
    const message = `the local forge could not recover at start-up: ${(e as Error).message}`;
    throw new ForgeError("transient", message, undefined, { cause: e });
  }
  // Delivered outside the recovery: a sink that fails now retries later and holds nothing up.
  void core.events.deliver([]);
}
