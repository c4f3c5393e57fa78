import { create, createFileRegistry, setExtension, type MessageInitShape } from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FileDescriptorProtoSchema,
  MethodOptionsSchema,
  file_google_protobuf_empty,
} from "@bufbuild/protobuf/wkt";
import { describe, expect, it } from "vitest";
import { http } from "../../gen/google/api/annotations_pb.js";
import { HttpRuleSchema } from "../../gen/google/api/http_pb.js";
import { ActivityLogService } from "../../gen/yardmaster/v1/activity_log_pb.js";
import { QueueService } from "../../gen/yardmaster/v1/queue_pb.js";
import { SimulatorService } from "../../gen/yardmaster/v1/simulator_pb.js";
import { compileRoutes, RouteCompileError } from "../../services/gateway/index.js";

type Rule = MessageInitShape<typeof HttpRuleSchema>;

/** A service `t.S` whose methods carry the given google.api.http rules (request `t.Req`). */
function serviceWithRules(rules: [string, Rule][]) {
  const { OPTIONAL: LABEL_OPTIONAL } = FieldDescriptorProto_Label;
  const { STRING: TYPE_STRING, MESSAGE: TYPE_MESSAGE } = FieldDescriptorProto_Type;
  const proto = create(FileDescriptorProtoSchema, {
    name: "t.proto",
    package: "t",
    syntax: "proto3",
    dependency: ["google/protobuf/empty.proto"],
    messageType: [
      {
        name: "Page",
        field: [{ name: "size", number: 1, type: TYPE_STRING, label: LABEL_OPTIONAL, jsonName: "size" }],
      },
      {
        name: "Req",
        field: [
          { name: "owner", number: 1, type: TYPE_STRING, label: LABEL_OPTIONAL, jsonName: "owner" },
          { name: "page", number: 2, type: TYPE_MESSAGE, typeName: ".t.Page", label: LABEL_OPTIONAL, jsonName: "page" },
        ],
      },
    ],
    service: [
      {
        name: "S",
        method: rules.map(([name, rule]) => {
          const options = create(MethodOptionsSchema);
          setExtension(options, http, create(HttpRuleSchema, rule));
          return { name, inputType: ".t.Req", outputType: ".google.protobuf.Empty", options };
        }),
      },
    ],
  });
  const registry = createFileRegistry(proto, (name) =>
    name === "google/protobuf/empty.proto" ? file_google_protobuf_empty : undefined,
  );
  return { service: registry.getService("t.S")!, impl: {} };
}

function compileError(rules: [string, Rule][]): string {
  try {
    compileRoutes([serviceWithRules(rules)]);
  } catch (e) {
    expect(e).toBeInstanceOf(RouteCompileError);
    return (e as Error).message;
  }
  throw new Error("compiled");
}

describe("compiling google.api.http rules at boot", () => {
  it("compiles all 32 REST routes: 20 of docs/api.md, 4 freezes of docs/mergify-cli.md, 2 streams, the what-if, the repositories (2), the pull request summary, the statistics, the scopes", () => {
    const { routes } = compileRoutes(
      [QueueService, SimulatorService, ActivityLogService].map((service) => ({ service, impl: {} })),
    );
    const all = routes.map((r) => `${r.httpMethod} ${r.template.source}`);
    expect(all).toHaveLength(32);
    expect(all).toEqual(
      expect.arrayContaining([
        "GET /v1/repos",
        "GET /v1/repos/{owner}/{repository}",
        "GET /v1/repos/{owner}/{repository}/pulls/{pr_number}",
        "GET /v1/repos/{owner}/{repository}/queues/statistics",
      ]),
    );
    expect(routes.filter((r) => r.method.methodKind === "server_streaming").map((r) => r.template.source)).toEqual([
      "/v1/repos/{owner}/{repository}/merge-queue/status:watch",
      "/v1/repos/{owner}/{repository}/logs:watch",
    ]);
  });

  it("compiles a top rule and its additional bindings", () => {
    const { routes } = compileRoutes([
      serviceWithRules([
        [
          "M",
          {
            pattern: { case: "get", value: "/v1/{owner}" },
            additionalBindings: [{ pattern: { case: "post", value: "/v1/{owner}:search" }, body: "*" }],
          },
        ],
      ]),
    ]);
    expect(
      routes.map(
        (r) =>
          `${r.httpMethod} ${r.template.source} ${JSON.stringify(Array.isArray(r.body) ? r.body.map((f) => f.name) : r.body)}`,
      ),
    ).toEqual(["GET /v1/{owner} null", 'POST /v1/{owner}:search "*"']);
  });

  it.each([
    [
      "a bad template",
      [["M", { pattern: { case: "get", value: "/v1/{owner" } }]],
      'google.api.http rule of t.S.M (GET /v1/{owner): invalid path template "/v1/{owner" at column 11: expected "}"',
    ],
    [
      "an unknown variable",
      [["M", { pattern: { case: "get", value: "/v1/{nope}" } }]],
      'google.api.http rule of t.S.M (GET /v1/{nope}): variable {nope}: t.Req has no field "nope"',
    ],
    [
      "a variable bound to a message",
      [["M", { pattern: { case: "get", value: "/v1/{page}" } }]],
      "google.api.http rule of t.S.M (GET /v1/{page}): variable {page} must be a singular scalar or enum field",
    ],
    [
      "a path through a scalar",
      [["M", { pattern: { case: "get", value: "/v1/{owner.x}" } }]],
      'google.api.http rule of t.S.M (GET /v1/{owner.x}): variable {owner.x}: "owner" is not a singular message field',
    ],
    [
      "an unknown body field",
      [["M", { pattern: { case: "post", value: "/v1/x" }, body: "nope" }]],
      'google.api.http rule of t.S.M (POST /v1/x): body "nope": t.Req has no field "nope"',
    ],
    [
      "a GET with a body",
      [["M", { pattern: { case: "get", value: "/v1/x" }, body: "*" }]],
      "google.api.http rule of t.S.M (GET /v1/x): a GET rule cannot have a body",
    ],
    [
      "a response_body",
      [["M", { pattern: { case: "get", value: "/v1/x" }, responseBody: "owner" }]],
      "google.api.http rule of t.S.M (GET /v1/x): response_body is not supported",
    ],
    [
      "a duplicate",
      [
        ["A", { pattern: { case: "get", value: "/v1/{owner}" } }],
        ["B", { pattern: { case: "get", value: "/v1/{owner}" } }],
      ],
      "GET /v1/{owner} is bound twice: by t.S.A and by t.S.B",
    ],
  ] as [string, [string, Rule][], string][])("stops the boot on %s, naming the rule", (_name, rules, message) => {
    expect(compileError(rules)).toBe(message);
  });
});
