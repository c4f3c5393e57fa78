/**
 * The OpenAPI document (gen/openapi.json, written by tools/protoc-gen-openapi/ from the protos)
 * against the transcoder that serves the routes: it is a valid OpenAPI 3.1 document; every route
 * compileRoutes compiles is in it with its path parameters, query parameters and body; and every
 * route, called on a real gateway, answers statuses the document declares with bodies its schemas
 * accept (no credentials: 403; an unknown query parameter: 422; a call that reaches the
 * implementation: 200 or 204 with the REST JSON of an empty answer).
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { ScalarType, type DescService } from "@bufbuild/protobuf";
import pino from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import document from "../../gen/openapi.json" with { type: "json" };
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { ProductService, TokenService } from "../../gen/yardmaster/v1/admin_pb.js";
import { ForgeService } from "../../gen/yardmaster/v1/forge_pb.js";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { SimulatorService } from "../../gen/yardmaster/v1/simulator_pb.js";
import { CiInsightsService } from "../../gen/yardmaster/v1/ci_insights_pb.js";
import { WebhookService } from "../../gen/yardmaster/v1/webhooks_pb.js";
import { createAuthorizer } from "../../services/auth/index.js";
import { buildApp, compileRoutes, type App } from "../../services/gateway/index.js";
import { openApiProblems } from "../support/openapi-check.js";

const SERVICES: DescService[] = [
  QueueService,
  ActivityLogService,
  SimulatorService,
  TokenService,
  ProductService,
  ForgeService,
  CiInsightsService,
  WebhookService,
];
const ADMIN_KEY = "yma_openapi_document_test_key_01";
/** Every method answers an empty message of its output type. */
const emptyAnswers = new Proxy({}, { get: () => async () => ({}) }) as Record<string, unknown>;
const bindings = SERVICES.map((service) => ({ service, impl: emptyAnswers }));
const { routes } = compileRoutes(bindings);

type Parameter = { name: string; in: string };
type Operation = {
  "x-rpc": string;
  parameters?: Parameter[];
  requestBody?: { content: { "application/json": { schema: { properties?: Record<string, unknown> } } } };
  responses: Record<string, unknown>;
};
const paths = document.paths as unknown as Record<string, Record<string, Operation>>;

/** The OpenAPI path of a google.api.http template, written independently of the generator. */
const openApiPath = (template: string) => template.replace(/\{([^}=]+)(=[^}]*)?\}/g, "{$1}");

function operationOf(route: (typeof routes)[number]): Operation {
  const op = paths[openApiPath(route.template.source)]?.[route.httpMethod.toLowerCase()];
  expect(op, `${route.httpMethod} ${route.template.source}`).toBeDefined();
  return op;
}

describe("the OpenAPI document", () => {
  it("is a valid OpenAPI 3.1 document", async () => {
    const api = await SwaggerParser.validate(structuredClone(document) as never);
    expect((api as { openapi?: string }).openapi).toBe("3.1.0");
  });

  it("has every compiled route, and nothing else", () => {
    expect(routes.length).toBeGreaterThanOrEqual(20);
    for (const route of routes) {
      expect(operationOf(route)["x-rpc"]).toBe(`${route.service.typeName}/${route.method.name}`);
    }
    const documented = Object.values(paths).flatMap((item) => Object.keys(item));
    expect(documented.length).toBe(routes.length);
  });

  it("lists each route's path variables, the query parameters the transcoder takes, and its body", () => {
    for (const route of routes) {
      const op = operationOf(route);
      const params = op.parameters ?? [];
      const pathNames = route.variables.map((v) => v.chain.map((f) => f.name).join("."));
      expect(params.filter((p) => p.in === "path").map((p) => p.name)).toEqual(pathNames);
      const query = params.filter((p) => p.in === "query").map((p) => p.name);
      const bodyField = Array.isArray(route.body) ? route.body[0].name : null;
      // What the transcoder would take from the query: every top-level field the path and body leave.
      const expected =
        route.body === "*"
          ? []
          : route.method.input.fields
              .filter((f) => !route.pathFields.has(f.name) && f.name !== bodyField && f.fieldKind !== "map")
              .filter((f) => f.fieldKind !== "message" || f.message.typeName === "google.protobuf.Timestamp")
              .map((f) => f.name);
      expect(query.filter((n) => !n.includes("."))).toEqual(expected);
      if (route.body === null) expect(op.requestBody).toBeUndefined();
      if (route.upload) expect(Object.keys(op.requestBody!.content)).toEqual(route.upload.mediaTypes);
      if (route.body === "*") {
        const props = Object.keys(op.requestBody!.content["application/json"].schema.properties ?? {});
        expect(props).toEqual(
          route.method.input.fields.filter((f) => !route.pathFields.has(f.name)).map((f) => f.name),
        );
      }
      const success = route.method.output.typeName === "google.protobuf.Empty" ? "204" : String(route.successStatus);
      expect(Object.keys(op.responses)).toContain(success);
    }
  });
});

describe("a gateway serving every route", () => {
  let app: App;
  beforeAll(async () => {
    app = await buildApp({
      bindings,
      authorizer: createAuthorizer({ adminKey: ADMIN_KEY, tokens: { findToken: async () => null } }),
      logger: pino({ level: "silent" }),
      readiness: async () => ({}),
    });
  });
  afterAll(async () => app.close());

  /** A URL of the route with a valid value in each variable. */
  const urlOf = (route: (typeof routes)[number]) =>
    route.template.source.replace(/\{([^}=]+)(=[^}]*)?\}/g, (_m, name: string) => {
      const field = route.variables.find((v) => v.chain.map((f) => f.name).join(".") === name)!.chain.at(-1)!;
      return field.scalar === ScalarType.STRING ? "acme" : "1";
    });

  async function answer(route: (typeof routes)[number], url: string, withKey: boolean) {
    const res = await app.inject({
      method: route.httpMethod as never,
      url,
      headers: {
        ...(withKey ? { authorization: `Bearer ${ADMIN_KEY}` } : {}),
        ...(route.body ? { "content-type": route.upload ? route.upload.mediaTypes[0]! : "application/json" } : {}),
      },
      payload: route.body ? "{}" : undefined,
    });
    const body = res.body === "" ? undefined : JSON.parse(res.body);
    return { status: res.statusCode, problems: openApiProblems(route.httpMethod, url, res.statusCode, body) };
  }

  it("answers only statuses and bodies the document declares", async () => {
    const seen = new Set<number>();
    for (const route of routes) {
      const url = urlOf(route);
      const anonymous = await answer(route, url, false);
      expect(anonymous.status).toBe(403);
      const unknown = await answer(route, `${url}?zz_unknown=1`, true);
      expect(unknown.status).toBe(422);
      for (const r of [anonymous, unknown]) expect(r.problems, `${route.httpMethod} ${url}`).toEqual([]);
      // A stream (server-sent events) answers until the client leaves: its refusals are checked above.
      if (route.method.methodKind === "server_streaming") continue;
      const called = await answer(route, url, true);
      expect([200, 201, 204, 422]).toContain(called.status);
      for (const r of [anonymous, unknown, called]) {
        seen.add(r.status);
        expect(r.problems, `${route.httpMethod} ${url}`).toEqual([]);
      }
    }
    expect([...seen].sort()).toEqual([200, 204, 403, 422]);
  });

  it("finds a body that does not match the document", () => {
    const url = "/v1/repos/acme/widgets/merge-queue/pause";
    expect(openApiProblems("GET", url, 200, { paused: false, reason: null, paused_at: null })).toEqual([]);
    expect(openApiProblems("GET", url, 200, { paused: "no", reason: null, paused_at: null })).not.toEqual([]);
    expect(openApiProblems("GET", url, 200, { paused: false, reason: null })).not.toEqual([]);
    expect(openApiProblems("GET", url, 418, {})).toEqual([
      "GET /v1/repos/{owner}/{repository}/merge-queue/pause: status 418 is not declared",
    ]);
  });

  it("serves the document and the API reference without credentials", async () => {
    const served = await app.inject({ method: "GET", url: "/openapi.json" });
    expect(served.statusCode).toBe(200);
    expect(served.json()).toEqual(document);
    const page = await app.inject({ method: "GET", url: "/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toContain("text/html");
    expect(page.headers["content-security-policy"]).toMatch(/^default-src 'self'/);
    for (const asset of ["redoc.standalone.js", "initializer.js"]) {
      const res = await app.inject({ method: "GET", url: `/docs/${asset}` });
      expect(res.statusCode, asset).toBe(200);
    }
    expect((await app.inject({ method: "GET", url: "/docs/package.json" })).statusCode).toBe(404);
  });
});
