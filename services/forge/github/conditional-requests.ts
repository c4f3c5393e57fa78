/**
 * Conditional requests for every read of the GitHub adapter (docs/github.md "Request budget"):
 * GitHub answers a GET with an `ETag`; the same GET sent again with `If-None-Match: <etag>` is
 * answered `304 Not Modified` without a body when nothing changed, and "making a conditional
 * request does not count against your primary rate limit if a 304 response is returned"
 * (https://docs.github.com/en/rest/using-the-rest-api/best-practices-for-using-the-rest-api
 * "Use conditional requests if appropriate").
 *
 * An Octokit request hook keeps the last answer of each GET URL with its ETag, in one LRU cache
 * bounded in entries and bytes (the JSON length of the bodies) shared by every installation's
 * client and keyed by installation, so one installation never sees another's answers. A 304 (which
 * `@octokit/request` raises as an error) becomes the cached answer with the 304's fresh headers.
 * A 304 for an answer no longer cached (evicted between the request and its answer) is raised as
 * it came, like any other error.
 *
 * The same hook reads the rate-limit headers of every answer into a {@link RateBudget}.
 */
import { LRUCache } from "lru-cache";
import { RateBudget } from "./rate-budget.js";

/** What is kept of a GET answer: its ETag, status, URL and body. */
interface Kept {
  etag: string;
  status: number;
  url: string;
  data: unknown;
}

/** The shape of an Octokit answer (`OctokitResponse`) the hook returns. */
interface Answer {
  status: number;
  url: string;
  headers: Record<string, string | number | undefined>;
  data: unknown;
}

/** Counts of the cache's use, for tests and the benchmark. */
export interface ConditionalFigures {
  /** GET requests sent with If-None-Match. */
  conditional: number;
  /** Answered 304 and served from the cache. */
  notModified: number;
}

const bigintAsText = (_key: string, value: unknown) => (typeof value === "bigint" ? value.toString() : value);

/** The LRU of GET answers shared by an App's installation clients (see the file header). */
export class ConditionalCache {
  private readonly lru: LRUCache<string, Kept>;
  readonly figures: ConditionalFigures = { conditional: 0, notModified: 0 };

  /**
   * @param maxEntries the most answers kept (default 20,000)
   * @param maxBytes the most JSON bytes kept (default 64 MiB)
   */
  constructor(maxEntries = 20_000, maxBytes = 64 * 1024 * 1024) {
    this.lru = new LRUCache<string, Kept>({
      max: maxEntries,
      maxSize: maxBytes,
      // Octokit reads integers past 2^53 as BigInt, which JSON.stringify refuses: counted as text.
      sizeCalculation: (k) => Math.max(1, JSON.stringify(k.data ?? null, bigintAsText).length),
    });
  }

  get(key: string): Kept | undefined {
    return this.lru.get(key);
  }

  set(key: string, kept: Kept): void {
    // An answer larger than the whole cache is simply not kept.
    try {
      this.lru.set(key, kept);
    } catch {
      this.lru.delete(key);
    }
  }

  get size(): number {
    return this.lru.size;
  }
}

type RequestFn = (options: Record<string, unknown>) => Promise<Answer>;
interface HookedOctokit {
  hook: { wrap(name: "request", fn: (request: RequestFn, options: Record<string, unknown>) => Promise<Answer>): void };
  request: {
    endpoint: {
      parse(options: Record<string, unknown>): { method: string; url: string; headers: Record<string, unknown> };
    };
  };
}

function headerText(headers: Record<string, unknown> | undefined, name: string): string | undefined {
  const v = headers?.[name];
  return v === undefined || v === null ? undefined : String(v);
}

/**
 * Installs the hook on `octokit`: conditional GETs through `cache` under `scope` (the
 * installation), and the rate-limit headers of every answer into `budget` under the same scope.
 */
export function useConditionalRequests(
  octokit: unknown,
  cache: ConditionalCache,
  budget: RateBudget,
  scope: string,
): void {
  const kit = octokit as HookedOctokit;
  kit.hook.wrap("request", async (request, options) => {
    const method = String(options.method ?? "GET").toUpperCase();
    if (method !== "GET") {
      try {
        const answer = await request(options);
        budget.observe(scope, answer.headers);
        return answer;
      } catch (e) {
        budget.observe(scope, (e as { response?: { headers?: Record<string, unknown> } }).response?.headers);
        throw e;
      }
    }
    const parsed = kit.request.endpoint.parse(options);
    const key = `${scope} ${parsed.url} ${headerText(parsed.headers, "accept") ?? ""}`;
    const kept = cache.get(key);
    // before-after-hook calls the inner hooks with the options object it holds: the header is
    // set on that object (made for this request by Octokit's endpoint merge), not on a copy.
    if (kept) {
      options.headers = { ...(options.headers as Record<string, unknown>), "if-none-match": kept.etag };
      cache.figures.conditional++;
    }
    try {
      const answer = await request(options);
      budget.observe(scope, answer.headers);
      const etag = headerText(answer.headers, "etag");
      if (etag && answer.status === 200)
        cache.set(key, { etag, status: answer.status, url: answer.url, data: answer.data });
      return answer;
    } catch (e) {
      const err = e as { status?: number; response?: { headers?: Record<string, string | number | undefined> } };
      budget.observe(scope, err.response?.headers);
      if (err.status === 304 && kept) {
        cache.figures.notModified++;
        return { status: kept.status, url: kept.url, headers: err.response?.headers ?? {}, data: kept.data };
      }
      throw e;
    }
  });
}

export { RateBudget };
