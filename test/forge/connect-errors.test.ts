/**
 * Forge failures keep their meaning through the services that read the forge while answering
 * (docs/errors.md): a rate-limited or unreachable forge answers 429 / 503, not an internal 500.
 */
import { Code, ConnectError } from "@connectrpc/connect";
import { describe, expect, it } from "vitest";
import { ForgeError, type ForgePort } from "../../services/forge/index.js";
import { withForgeErrorsAsConnect } from "../../services/forge/index.js";
import { createSimulatorService } from "../../services/simulator/index.js";

describe("withForgeErrorsAsConnect", () => {
  const impl = withForgeErrorsAsConnect({
    async ok(x: number) { return x + 1; },
    async forge(kind: ConstructorParameters<typeof ForgeError>[0]) { throw new ForgeError(kind, `the forge said ${kind}`); },
    async other() { throw new RangeError("not a forge error"); },
  });

  it("passes results through", async () => {
    expect(await impl.ok(1)).toBe(2);
  });

  it.each([
    ["rate_limited", Code.ResourceExhausted], ["transient", Code.Unavailable], ["not_found", Code.NotFound],
    ["permission", Code.PermissionDenied], ["conflict", Code.Aborted], ["invalid", Code.InvalidArgument],
  ] as const)("turns a %s forge error into Connect code %s, keeping its message", async (kind, code) => {
    const error = await impl.forge(kind).catch((e) => e);
    expect(error).toBeInstanceOf(ConnectError);
    expect(error.code).toBe(code);
    expect(error.rawMessage).toBe(`the forge said ${kind}`);
  });

  it("leaves other errors unchanged", async () => {
    await expect(impl.other()).rejects.toBeInstanceOf(RangeError);
  });
});

describe("SimulatorService with a rate-limited forge", () => {
  it("answers resource_exhausted for a pull request it cannot read", async () => {
    const forge = { getPullRequest: async () => { throw new ForgeError("rate_limited", "API rate limit exceeded", 30_000); } } as unknown as ForgePort;
    const service = createSimulatorService({ db: undefined as never, forge });
    const request = { owner: "acme", repository: "widgets", number: 1n, serviceYml: "queue_rules:\n  - name: default\n" };
    const error = await Promise.resolve(service.simulatePullRequest(request as never, undefined as never)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectError);
    expect((error as ConnectError).code).toBe(Code.ResourceExhausted);
  });
});
