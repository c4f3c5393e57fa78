/**
 * Real GitHub answers recorded by `@octokit/fixtures` (its `scenarios/api.github.com/<name>/
 * normalized-fixture.json`: each request GitHub received and what it answered, ids and SHAs
 * normalized) served to the GitHub adapter in place of the test double for the calls they cover;
 * every other request (the App's authentication, reads around the call) goes to the double.
 *
 * A served request is checked twice: against the recording (same method and path, and its JSON
 * body has every field of the recorded request's body, with a value of the same JSON type) and
 * against GitHub's OpenAPI description (`checkRequest`); the recorded answer is checked against
 * the description too (`checkResponse`), so a recording that drifted from the description shows.
 * Problems are collected in `problems`, which the test asserts empty.
 */
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { GithubDouble } from "./github-double.js";
import { GithubOpenApi } from "./openapi.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
/** One recorded exchange of a scenario. */
export interface Recording {
  method: string;
  path: string;
  /** The request's JSON body ("" when none). */
  body: any;
  status: number;
  /** GitHub's answer ("" when none). */
  response: any;
}

/** A request the adapter sent that a recording answered. */
export interface ServedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  body: any;
  recording: Recording;
}

const require = createRequire(import.meta.url);

/** The recordings of a scenario of api.github.com, in the order they were made. */
export function scenario(name: string): Recording[] {
  const file = require.resolve(`@octokit/fixtures/scenarios/api.github.com/${name}/normalized-fixture.json`);
  return JSON.parse(readFileSync(file, "utf8"));
}

/** The `index`-th recording of `name` with this method (lower case, as recorded). */
export function recorded(name: string, method: string, index = 0): Recording {
  const found = scenario(name).filter((r) => r.method === method)[index];
  if (!found) throw new Error(`no recording ${index} of ${method} in ${name}`);
  return found;
}

const jsonType = (v: unknown) => (v === null ? "null" : Array.isArray(v) ? "array" : typeof v);

/** Problems of a request body against the recorded one: a missing field or one of another JSON type. */
function bodyProblems(where: string, sent: any, recordedBody: any): string[] {
  if (recordedBody === "" || recordedBody === undefined) return sent === undefined ? [] : [`${where}: a body was sent`];
  if (jsonType(sent) !== jsonType(recordedBody))
    return [`${where}: body is ${jsonType(sent)}, recorded ${jsonType(recordedBody)}`];
  if (jsonType(recordedBody) !== "object") return [];
  const problems: string[] = [];
  for (const [key, value] of Object.entries(recordedBody)) {
    if (!(key in sent)) problems.push(`${where}: body lacks ${key}`);
    else if (jsonType(sent[key]) !== jsonType(value))
      problems.push(`${where}: body.${key} is ${jsonType(sent[key])}, recorded ${jsonType(value)}`);
  }
  return problems;
}

/** A `fetch` serving `recordings` (each once, matched by method and path, or `path` when given) over the double's. */
export class RecordedGithub {
  readonly served: ServedRequest[] = [];
  readonly problems: string[] = [];
  /** GraphQL requests (`POST /graphql`), answered from `graphqlAnswers` in order. */
  readonly graphql: { query: string; variables: Record<string, unknown> }[] = [];
  private readonly left: { recording: Recording; path: string | RegExp }[];

  constructor(
    private readonly double: GithubDouble,
    recordings: (Recording | { recording: Recording; path: RegExp })[],
    private readonly graphqlAnswers: unknown[] = [],
  ) {
    this.left = recordings.map((r) => ("recording" in r ? r : { recording: r, path: r.path }));
  }

  /** The recordings no request asked for. */
  unused(): Recording[] {
    return this.left.map((l) => l.recording);
  }

  fetch = async (input: string | URL | Request, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(typeof input === "string" ? input : input instanceof URL ? input.href : input.url);
    const method = (init.method ?? "GET").toLowerCase();
    const text = typeof init.body === "string" ? init.body : undefined;
    const body = text === undefined || text === "" ? undefined : JSON.parse(text);
    if (url.pathname === "/graphql" && this.graphqlAnswers.length > 0) {
      this.graphql.push(body);
      return answer(200, this.graphqlAnswers.shift(), url);
    }
    // Octokit sends `{ref}` as `heads%2Fname`; GitHub reads it as `heads/name` (the recordings' path).
    const path = decodeURIComponent(url.pathname);
    const i = this.left.findIndex(
      (l) =>
        l.recording.method === method &&
        (typeof l.path === "string" ? l.path.replace(/\/$/, "") === path : l.path.test(path)),
    );
    if (i < 0) return this.double.fetch(input, init);
    const [{ recording }] = this.left.splice(i, 1);
    this.served.push({ method, path, query: Object.fromEntries(url.searchParams), body, recording });
    const where = `${method.toUpperCase()} ${path}`;
    this.problems.push(...bodyProblems(where, body, recording.body));
    const api = GithubOpenApi.load();
    const matched = api.match(method.toUpperCase(), url.pathname);
    if (!matched) this.problems.push(`${where}: no such operation in GitHub's OpenAPI description`);
    else {
      this.problems.push(...api.checkRequest(matched.operation, matched.pathParams, url.searchParams, body));
      const response = recording.response === "" ? undefined : recording.response;
      this.problems.push(
        ...api.checkResponse(matched.operation, recording.status, response).map((p) => `recorded: ${p}`),
      );
    }
    return answer(recording.status, recording.response, url);
  };
}

/** A fetch Response as GitHub sends it: JSON when there is a body, the URL it came from. */
function answer(status: number, body: unknown, url: URL): Response {
  const headers = new Headers({ "x-ratelimit-remaining": "4999", "x-ratelimit-reset": "1900000000" });
  const empty = body === "" || body === undefined || status === 204;
  if (!empty) headers.set("content-type", "application/json; charset=utf-8");
  const response = new Response(empty ? null : JSON.stringify(body), { status, headers });
  Object.defineProperty(response, "url", { value: url.href });
  return response;
}
