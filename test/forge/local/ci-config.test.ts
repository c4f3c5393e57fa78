import { describe, expect, it } from "vitest";
import { CiConfigError, OutputTail, parseCiConfig } from "../../../services/forge/local/ci/index.js";

describe(".yardmaster/ci.yml", () => {
  it.each([
    [
      "a check with a duration",
      "checks:\n  - name: test\n    run: npm test\n    timeout: 10 min\n",
      [{ name: "test", run: "npm test", timeoutSeconds: 600, reports: [] }],
    ],
    [
      "no timeout, seconds as a number",
      "checks:\n  - {name: lint, run: npm run lint}\n  - {name: build, run: make, timeout: 90}\n",
      [
        { name: "lint", run: "npm run lint", timeoutSeconds: null, reports: [] },
        { name: "build", run: "make", timeoutSeconds: 90, reports: [] },
      ],
    ],
    [
      "a multi-line script and a compound duration",
      "checks:\n  - name: e2e\n    run: |\n      npm ci\n      npm test\n    timeout: 1 hour 30 min\n",
      [{ name: "e2e", run: "npm ci\nnpm test\n", timeoutSeconds: 5400, reports: [] }],
    ],
    ["an empty list", "checks: []\n", []],
    [
      "JUnit reports, one glob or a list",
      "checks:\n  - {name: a, run: x, junit: reports/*.xml}\n  - {name: b, run: y, junit: [a.xml, 'out/**/*.xml']}\n",
      [
        { name: "a", run: "x", timeoutSeconds: null, reports: ["reports/*.xml"] },
        { name: "b", run: "y", timeoutSeconds: null, reports: ["a.xml", "out/**/*.xml"] },
      ],
    ],
  ])("parses %s", (_, text, checks) => {
    expect(parseCiConfig(text)).toEqual({ checks });
  });

  it.each([
    [
      "a bad timeout",
      "checks:\n  - {name: test, run: x, timeout: soon}\n",
      [["checks → item 1 → timeout", /invalid duration "soon"/]],
    ],
    [
      "a zero timeout",
      "checks:\n  - {name: test, run: x, timeout: 0 s}\n",
      [["checks → item 1 → timeout", /at least 1 second/]],
    ],
    [
      "a timeout longer than a day",
      "checks:\n  - {name: test, run: x, timeout: 30 d}\n",
      [["checks → item 1 → timeout", /at most 1 day \(86400 seconds\)/]],
    ],
    [
      "a fractional timeout",
      "checks:\n  - {name: test, run: x, timeout: 2.5}\n",
      [["checks → item 1 → timeout", /whole number/]],
    ],
    [
      "a duplicate name",
      "checks:\n  - {name: test, run: a}\n  - {name: lint, run: b}\n  - {name: test, run: c}\n",
      [["checks → item 3 → name", /duplicate check name "test" \(also item 1\)/]],
    ],
    ["an empty name", "checks:\n  - {name: '  ', run: a}\n", [["checks → item 1 → name", /cannot be empty/]]],
    [
      "a report glob out of the work tree",
      "checks:\n  - {name: t, run: a, junit: ../x.xml}\n",
      [["checks → item 1 → junit", /must be a glob relative to the work tree/]],
    ],
    [
      "a reserved name",
      "checks:\n  - {name: yardmaster/ci-config, run: a}\n",
      [["checks → item 1 → name", /reserved/]],
    ],
    ["a missing run", "checks:\n  - {name: test}\n", [["checks → item 1 → run", /is required/]]],
    [
      "a misspelt key",
      "checks:\n  - {name: test, run: a, timout: 5 s}\n",
      [["checks → item 1", /unknown key "timout"/]],
    ],
    ["checks not a list", "checks: npm test\n", [["checks", /must be a list of checks/]]],
    [
      "no checks key",
      "jobs: []\n",
      [
        ["checks", /is required/],
        ["(file)", /unknown key "jobs"/],
      ],
    ],
    ["an empty file", "", [["(file)", /is empty/]]],
    ["broken YAML", "checks:\n  - name: x\n   run: y\n", [["(file)", /YAML: .* at line 3, column 1/]]],
  ])("rejects %s, naming the path", (_, text, expected) => {
    const error = (() => {
      try {
        parseCiConfig(text);
        return null;
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(CiConfigError);
    const issues = (error as CiConfigError).issues;
    expect(issues).toHaveLength(expected.length);
    expected.forEach(([path, message], i) => {
      expect(issues[i]!.path).toBe(path);
      expect(issues[i]!.message).toMatch(message as RegExp);
    });
    expect((error as Error).message).toContain(`${expected[0]![0]}: `);
  });
});

describe("output capture", () => {
  it("keeps only the last bytes and says how many were dropped", () => {
    const tail = new OutputTail(10);
    tail.push("0123456789");
    tail.push(Buffer.from("abcdef"));
    expect(tail.droppedBytes).toBe(6);
    expect(tail.text()).toBe("[yardmaster: 6 earlier bytes of output dropped]\n6789abcdef");
  });

  it("keeps everything under the limit untouched", () => {
    const tail = new OutputTail(100);
    tail.push("a");
    tail.push("b");
    expect(tail.text()).toBe("ab");
  });
});

describe("bounds of the CI file", () => {
  it("refuses a file over 64 KiB without parsing it, and lists 100 problems at most", () => {
    const big = `checks: []\n#${"x".repeat(64 * 1024)}\n`;
    expect(() => parseCiConfig(big)).toThrow(
      new CiConfigError([
        {
          path: "(file)",
          message: `is ${Buffer.byteLength(big)} bytes long; a CI file is at most 65536 bytes (64 KiB)`,
        },
      ]),
    );
    const many = `checks:\n${Array.from({ length: 150 }, (_, i) => `  - {name: c${i}, run: x, bogus: 1}`).join("\n")}\n`;
    const error = (() => {
      try {
        parseCiConfig(many);
      } catch (e) {
        return e as CiConfigError;
      }
    })()!;
    expect(error.issues).toHaveLength(101);
    expect(error.issues[100]).toEqual({ path: "(file)", message: "and 50 more problems" });
  });
});
