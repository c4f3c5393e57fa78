/**
 * Work run off the event loop (services/offload, docs/reliability.md "Hostile input"): a text
 * loaded in a worker thread gives what `loadConfiguration` gives inline (real files, `extends`
 * read by the calling thread), the event loop stays free meanwhile, and the pool's limits hold:
 * a task over the time limit stops with an error naming it, a full queue answers
 * resource_exhausted. Large JSON bodies parse in a thread as they do inline.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Code } from "@connectrpc/connect";
import { domainErrorToConnect } from "../../services/contracts/index.js";
import { afterAll, describe, expect, it } from "vitest";
import { hostileConfigurations } from "../../bench/config/hostile-texts.js";
import { heldWhile } from "../../bench/config/loop-held.js";
import { parseJsonBody } from "../../services/offload/json-body.js";
import { createWorkerPool, loadConfigurationIn, parseJsonBodyIn } from "../../services/offload/index.js";
import { loadConfiguration } from "../../services/config/index.js";

const pool = createWorkerPool({ maxThreads: 1 });
afterAll(() => pool.close());

const REAL = path.join(import.meta.dirname, "../fixtures/config/real-configs");
const inThread = (text: string, options = {}) => loadConfigurationIn(pool, text, options, 0);
const dupKeys = hostileConfigurations().find((h) => h.name === "duplicate keys (1 MiB)")!.text;

describe("a configuration loaded in a worker thread", () => {
  it("gives what loading it inline gives, for every real file", async () => {
    const files = readdirSync(REAL).filter((f) => f.endsWith(".yml"));
    expect(files.length).toBeGreaterThan(200);
    for (const file of files) {
      const text = readFileSync(path.join(REAL, file), "utf8");
      expect(await inThread(text), file).toEqual(await loadConfiguration(text));
    }
  });

  it("reads the text its extends names in the calling thread, once", async () => {
    const base = "queue_rules:\n  - name: base\n    batch_size: 3\n";
    const text = "extends: shared-config\nqueue_rules:\n  - name: local\n";
    const reads: string[] = [];
    const loadExtended = async (name: string) => (reads.push(name), base);
    expect(await inThread(text, { loadExtended })).toEqual(
      await loadConfiguration(text, { loadExtended: async () => base }),
    );
    expect(reads).toEqual(["shared-config"]);
    const failing = { loadExtended: async () => Promise.reject(new Error("forge unavailable")) };
    expect(await inThread(text, failing)).toEqual(await loadConfiguration(text, failing));
  });

  it("leaves the event loop free while 1 MiB of duplicate keys is parsed", async () => {
    let r: Awaited<ReturnType<typeof inThread>> | undefined;
    const { wall, held } = await heldWhile(async () => (r = await inThread(dupKeys)));
    expect(r!.ok ? [] : r!.errors.at(-1)?.message).toMatch(/more than 50000 YAML nodes/);
    // Inline, the loop would be held for the whole parse; in a thread, for a small part of it.
    expect(held).toBeLessThan(wall / 2);
  });
});

describe("the pool's limits", () => {
  it("stop a text over the time limit with one error naming it, marked transient", async () => {
    const hurried = createWorkerPool({ maxThreads: 1, timeoutMs: 20 });
    try {
      expect(await loadConfigurationIn(hurried, dupKeys, {}, 0)).toEqual({
        ok: false,
        transient: true,
        deprecations: [],
        errors: [
          {
            path: [],
            line: null,
            column: null,
            message: "parsing and validating the file took more than 0.02 s (the time limit)",
          },
        ],
      });
    } finally {
      await hurried.close();
    }
  });

  it("replace a thread stopped at the time limit: the tasks waiting behind it run", { timeout: 120_000 }, async () => {
    // No wait limit to speak of: what is tested is that the tasks behind run, however slow the machine.
    const hurried = createWorkerPool({ maxThreads: 1, timeoutMs: 200, maxWaitMs: 100_000 });
    try {
      const bomb = loadConfigurationIn(hurried, dupKeys, {}, 0);
      // Queued behind it: before the pool handed tasks over one at a time, piscina started no
      // thread for them once the stopped one was gone, and they waited until another task came.
      const behind = ["a", "b", "c"].map((name) =>
        loadConfigurationIn(hurried, `queue_rules:\n  - name: ${name}\n`, {}, 0),
      );
      const [stopped, ...loaded] = await Promise.all([bomb, ...behind]);
      expect(stopped.ok ? [] : stopped.errors[0].message).toMatch(/took more than 0.2 s/);
      for (const result of loaded) expect(result.ok).toBe(true);
    } finally {
      await hurried.close();
    }
  });

  it("answer resource_exhausted when the queue is full", async () => {
    const small = createWorkerPool({ maxThreads: 1, maxQueue: 1 });
    try {
      const results = await Promise.allSettled(
        [1, 2, 3, 4].map(() => loadConfigurationIn(small, "a: 1\n".repeat(24_000), {}, 0)),
      );
      const refused = results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason);
      // One runs, one waits, the others are refused.
      expect(refused).toHaveLength(2);
      // Answered 429 resource_exhausted by the gateway (contracts/domain-error.ts).
      expect(domainErrorToConnect(refused[0])?.code).toBe(Code.ResourceExhausted);
    } finally {
      await small.close();
    }
  });
});

describe("a JSON body parsed in a worker thread", () => {
  it("gives what parsing it inline gives, values and refusals", async () => {
    const body = JSON.stringify({ service_yml: dupKeys, n: 1 }).replace('"n":1', '"n":9223372036854775807');
    expect(await parseJsonBodyIn(pool, body, 0)).toEqual(parseJsonBody(body));
    const broken = `{"a": [1, 2}`;
    const inline = (() => {
      try {
        parseJsonBody(broken);
      } catch (e) {
        return e as Error;
      }
    })();
    await expect(parseJsonBodyIn(pool, broken, 0)).rejects.toThrow(new SyntaxError(inline!.message));
  });
});
