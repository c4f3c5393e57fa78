/**
 * What the GitHub test double's operations share: the answer shape, the context a handler gets,
 * GitHub's error bodies, examples from the OpenAPI description, and GitHub's pagination.
 */
import type { DoubleRepo } from "./double-state.js";
import type { GithubDouble } from "./github-double.js";
import { GithubOpenApi } from "./openapi.js";

/* eslint-disable @typescript-eslint/no-explicit-any */
export interface Answer {
  status: number;
  body?: any;
  headers?: Record<string, string>;
}

export interface HandlerContext {
  double: GithubDouble;
  repo: DoubleRepo;
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, any>;
  token: string;
}

export type Handler = (ctx: HandlerContext) => Promise<Answer> | Answer;

export const DOCS = "https://docs.github.com/rest";
export const notFound = (message = "Not Found"): Answer => ({
  status: 404,
  body: { message, documentation_url: DOCS },
});
export const unprocessable = (message: string): Answer => ({ status: 422, body: { message, documentation_url: DOCS } });
export const example = (id: string, status: number) => GithubOpenApi.load().example(id, status);

/** One page of `items` by `per_page` (default 30, GitHub's) and `page`. */
export function page<T>(items: T[], q: URLSearchParams): T[] {
  const per = Number(q.get("per_page") ?? 30),
    n = Number(q.get("page") ?? 1);
  return items.slice((n - 1) * per, n * per);
}

/** A `Link` header with rel="next" when more pages follow (what Octokit's paginate follows). */
export function linkHeaders(ctx: HandlerContext, total: number): Record<string, string> {
  const per = Number(ctx.query.get("per_page") ?? 30),
    n = Number(ctx.query.get("page") ?? 1);
  if (n * per >= total) return {};
  const next = new URLSearchParams(ctx.query);
  next.set("page", String(n + 1));
  return { link: `<https://api.github.com${ctx.double.requests.at(-1)!.path}?${next}>; rel="next"` };
}
