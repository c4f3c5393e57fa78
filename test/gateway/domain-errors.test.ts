/**
 * Refusals keep their meaning on their way to the caller (docs/errors.md; contracts/domain-error.ts,
 * the one mapping): a handler throws a DomainError or lets a forge or engine error through, and the
 * gateway answers the Connect code of its kind — a rate-limited or unreachable forge 429 / 503, a
 * pull request in no queue 404, never an internal 500. (Moved from test/forge/connect-errors.test.ts,
 * which tested the per-service wrapper this mapping replaced.)
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { DomainError, domainErrorToConnect } from "../../services/contracts/index.js";
import { NotQueuedError } from "../../services/engine/index.js";
import { ForgeError, type ForgePort } from "../../services/forge/index.js";
import { publicError } from "../../services/gateway/error-body.js";
import { createSimulatorService } from "../../services/simulator/index.js";

describe("the one mapping of refusals", () => {
  it.each([
    ["rate_limited", Code.ResourceExhausted],
    ["transient", Code.Unavailable],
    ["not_found", Code.NotFound],
    ["permission", Code.PermissionDenied],
    ["conflict", Code.Aborted],
    ["invalid", Code.InvalidArgument],
  ] as const)("turns a %s forge error into Connect code %s, keeping its message", (kind, code) => {
    const error = publicError(new ForgeError(kind, `the forge said ${kind}`), "req-1");
    expect(error).toBeInstanceOf(ConnectError);
    expect(error.code).toBe(code);
    expect(error.rawMessage).toBe(`the forge said ${kind}`);
  });

  it("answers a DomainError with its kind and an engine refusal with its own", () => {
    expect(publicError(new DomainError("not_found", "no token has id x"), "req-2")).toMatchObject({
      code: Code.NotFound,
      rawMessage: "no token has id x",
    });
    expect(publicError(new NotQueuedError(7), "req-3").code).toBe(Code.NotFound);
  });

  it("names the field of an invalid argument", () => {
    const error = domainErrorToConnect(new DomainError("invalid_argument", "is not a login", { field: "author" }));
    expect(error?.rawMessage).toBe("author: is not a login");
  });

  it("leaves other errors to the internal answer, their text hidden", () => {
    expect(domainErrorToConnect(new RangeError("not a refusal"))).toBeNull();
    const hidden = publicError(new RangeError("not a refusal"), "req-4");
    expect(hidden.code).toBe(Code.Internal);
    expect(hidden.rawMessage).not.toContain("not a refusal");
  });
});

describe("SimulatorService with a rate-limited forge", () => {
  it("answers resource_exhausted for a pull request it cannot read", async () => {
    const forge = {
      getPullRequest: async () => {
        throw new ForgeError("rate_limited", "API rate limit exceeded", 30_000);
      },
    } as unknown as ForgePort;
    const service = createSimulatorService({ db: undefined as never, forge });
    const request = {
      owner: "acme",
      repository: "widgets",
      number: 1n,
      serviceYml: "queue_rules:\n  - name: default\n",
    };
    const error = await Promise.resolve(service.simulatePullRequest(request as never, undefined as never)).catch(
      (e: unknown) => e,
    );
    expect(publicError(error, "req-5").code).toBe(Code.ResourceExhausted);
  });
});
