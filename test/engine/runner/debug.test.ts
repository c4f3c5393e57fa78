import { it } from "vitest";
import { queueWorld, REPO } from "./queue-world.js";
it("debug", async () => {
  const w = await queueWorld("queue_rules:\n  - name: default\n    batch_size: 3\n    batch_max_wait_time: \"5 s\"\nmerge_queue:\n  max_parallel_checks: 2\n");
  const n = await w.pull("one", { "one.txt": "1\n" });
  await w.comment(n, "@yardmaster queue");
  for (let i = 0; i < 20; i++) {
    await w.runner.drain();
    await new Promise((r) => setTimeout(r, 1000));
  }
  console.log("EVENTS", JSON.stringify(w.events.map((e) => e.kind + ":" + ("number" in e ? e.number : "branch" in e ? e.branch : e.sha))));
  console.log("STATE", JSON.stringify(await w.state())?.slice(0, 3000));
  console.log("LOGS", JSON.stringify((await w.loggedTypes()).map((e) => e.type)));
  const r = await w.db.pool.query("select * from queue_inbox"); console.log("INBOX", JSON.stringify(r.rows).slice(0, 2000));
  const e = await w.db.pool.query("select * from queue_effects"); console.log("EFFECTS", JSON.stringify(e.rows).slice(0, 2000));
  const pr = await w.forge.describePullRequest(REPO, n); console.log("PR", JSON.stringify(pr).slice(0, 2000));
  await w.cleanup();
}, 120000);
