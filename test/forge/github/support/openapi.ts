/**
 * GitHub's published OpenAPI description (`@octokit/openapi` 23.0.2, api.github.com.json) as a
 * contract for the GitHub test double: every request the adapter makes is matched to an operation
 * (method + path template) and checked (path parameters, required and unknown query parameters,
 * the JSON body against the operation's schema), and every answer of the double is checked against
 * the operation's declared responses. The 13 MB description is loaded once per test process.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Ajv, type ValidateFunction } from "ajv";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** One operation of the description. */
export interface SpecOperation {
  method: string;
  template: string;
  operationId: string;
  op: Json;
  parameters: Json[];
  regex: RegExp;
  paramNames: string[];
  /** Literal segments count: more specific templates win. */
  literals: number;
}

/** Statuses GitHub documents for every endpoint (authentication, rate limits, outages). */
const GLOBAL_STATUSES = new Set([401, 403, 429, 500, 502, 503]);

const require = createRequire(import.meta.url);

/**
 * OpenAPI 3.0 schema → JSON Schema for Ajv: local `$ref`s point into the registered description
 * ("gh#/components/..."), and `nullable: true` becomes a union with null (OpenAPI allows it
 * without `type`, next to allOf/anyOf, which Ajv's own `nullable` does not).
 */
function toJsonSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!node || typeof node !== "object") return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) {
    if (k === "nullable") continue;
    out[k] =
      k === "$ref" && typeof v === "string" && v.startsWith("#/")
        ? `gh${v}`
        : k === "example" || k === "examples"
          ? undefined
          : toJsonSchema(v);
  }
  if (node.nullable !== true) return out;
  if (typeof out.type === "string" && !out.$ref) {
    out.type = [out.type, "null"];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [out, { type: "null" }] };
}

export class GithubOpenApi {
  private static instance: GithubOpenApi | undefined;
  readonly operations: SpecOperation[] = [];
  private readonly byId = new Map<string, SpecOperation>();
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();

  private constructor(readonly spec: Json) {
    this.ajv = new Ajv({ strict: false, allErrors: false, validateFormats: false });
    this.ajv.addSchema({ components: toJsonSchema(spec.components) }, "gh");
    for (const [template, item] of Object.entries<Json>(spec.paths)) {
      const paramNames: string[] = [];
      const pattern = template.split("/").map((seg) => {
        const m = /^\{(.+)\}$/.exec(seg);
        if (m) {
          paramNames.push(m[1]);
          return "([^/]+)";
        }
        return seg.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      });
      const literals = template.split("/").filter((s) => s && !s.startsWith("{")).length;
      for (const method of ["get", "post", "put", "patch", "delete"]) {
        const op = item[method];
        if (!op) continue;
        const parameters = [...(item.parameters ?? []), ...(op.parameters ?? [])].map((p) => this.resolve(p));
        const entry = {
          method: method.toUpperCase(),
          template,
          operationId: op.operationId,
          op,
          parameters,
          regex: new RegExp(`^${pattern.join("/")}$`),
          paramNames,
          literals,
        };
        this.operations.push(entry);
        this.byId.set(op.operationId, entry);
      }
    }
    this.operations.sort((a, b) => b.literals - a.literals);
  }

  /** The description, loaded on first use. */
  static load(): GithubOpenApi {
    if (!GithubOpenApi.instance) {
      const file = require.resolve("@octokit/openapi/generated/api.github.com.json");
      GithubOpenApi.instance = new GithubOpenApi(JSON.parse(readFileSync(file, "utf8")));
    }
    return GithubOpenApi.instance;
  }

  /** Follows a local `$ref` ("#/components/..."). */
  resolve(node: Json): Json {
    let n = node;
    while (n && typeof n === "object" && typeof n.$ref === "string") {
      n = n.$ref
        .slice(2)
        .split("/")
        .reduce((acc: Json, key: string) => acc?.[key], this.spec);
    }
    return n;
  }

  operation(operationId: string): SpecOperation {
    const op = this.byId.get(operationId);
    if (!op) throw new Error(`no operation ${operationId} in GitHub's OpenAPI description`);
    return op;
  }

  /** The operation a request goes to, with its decoded path parameters; null when none matches. */
  match(method: string, pathname: string): { operation: SpecOperation; pathParams: Record<string, string> } | null {
    for (const operation of this.operations) {
      if (operation.method !== method) continue;
      const m = operation.regex.exec(pathname);
      if (!m) continue;
      const pathParams: Record<string, string> = {};
      operation.paramNames.forEach((name, i) => (pathParams[name] = decodeURIComponent(m[i + 1])));
      return { operation, pathParams };
    }
    return null;
  }

  private validator(key: string, schema: Json): ValidateFunction {
    let v = this.validators.get(key);
    if (!v) {
      v = this.ajv.compile(toJsonSchema(schema));
      this.validators.set(key, v);
    }
    return v;
  }

  private errorsOf(v: ValidateFunction): string {
    return (v.errors ?? [])
      .map(
        (e) =>
          `${e.instancePath || "(root)"} ${e.message}${e.params && "allowedValues" in e.params ? ` ${JSON.stringify(e.params.allowedValues)}` : ""}`,
      )
      .join("; ");
  }

  /** Problems of a request against its operation (empty when it conforms). */
  checkRequest(
    operation: SpecOperation,
    pathParams: Record<string, string>,
    query: URLSearchParams,
    body: unknown,
  ): string[] {
    const where = `${operation.method} ${operation.template}`;
    const problems: string[] = [];
    for (const p of operation.parameters) {
      if (p.in === "path") {
        const value = pathParams[p.name];
        if (!value) problems.push(`${where}: path parameter ${p.name} is empty`);
        else if (p.schema?.type === "integer" && !/^\d+$/.test(value))
          problems.push(`${where}: path parameter ${p.name}="${value}" is not an integer`);
      }
      if (p.in === "query" && p.required && !query.has(p.name))
        problems.push(`${where}: required query parameter ${p.name} missing`);
      if (p.in === "query" && query.has(p.name) && p.schema?.enum && !p.schema.enum.includes(query.get(p.name))) {
        problems.push(
          `${where}: query parameter ${p.name}="${query.get(p.name)}" not in ${JSON.stringify(p.schema.enum)}`,
        );
      }
    }
    const declared = new Set(operation.parameters.filter((p) => p.in === "query").map((p) => p.name));
    for (const name of query.keys())
      if (!declared.has(name)) problems.push(`${where}: query parameter ${name} is not declared`);
    const requestBody = this.resolve(operation.op.requestBody);
    const schema = requestBody?.content?.["application/json"]?.schema;
    if (body === undefined) {
      if (requestBody?.required) problems.push(`${where}: request body required`);
    } else if (!schema) {
      problems.push(`${where}: a body was sent to an operation that takes none`);
    } else {
      const v = this.validator(`req ${operation.operationId}`, schema);
      if (!v(body)) problems.push(`${where}: request body: ${this.errorsOf(v)}`);
    }
    return problems;
  }

  /** Problems of an answer against the operation's declared responses (empty when it conforms). */
  checkResponse(operation: SpecOperation, status: number, body: unknown): string[] {
    const where = `${operation.method} ${operation.template} → ${status}`;
    const declared = this.resolve(operation.op.responses?.[String(status)]);
    if (!declared) return GLOBAL_STATUSES.has(status) ? [] : [`${where}: status not declared by the operation`];
    const schema =
      declared.content?.["application/json"]?.schema ?? declared.content?.["application/scim+json"]?.schema;
    if (!schema) {
      if (body === undefined || body === "") return [];
      // GitHub answers every error with its basic-error body, even where the description declares none.
      if (status >= 400)
        return this.checkAgainst(`basic-error`, { $ref: "#/components/schemas/basic-error" }, body, where);
      return [`${where}: a body was sent where none is declared`];
    }
    return this.checkAgainst(`res ${operation.operationId} ${status}`, schema, body, where);
  }

  private checkAgainst(key: string, schema: Json, body: unknown, where: string): string[] {
    const v = this.validator(key, schema);
    return v(body) ? [] : [`${where}: response body: ${this.errorsOf(v)}`];
  }

  /** A deep copy of the operation's first (or named) example of a response. */
  example(operationId: string, status: number, name?: string): Json {
    const declared = this.resolve(this.operation(operationId).op.responses?.[String(status)]);
    const examples = declared?.content?.["application/json"]?.examples;
    if (!examples) throw new Error(`${operationId} ${status}: no example in the description`);
    const chosen = name ? examples[name] : Object.values(examples)[0];
    return structuredClone(this.resolve(chosen).value);
  }
}
