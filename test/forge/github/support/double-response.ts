/**
 * A GitHub test double's answer as the `fetch` Response the adapter reads: JSON with GitHub's
 * content type, GitHub's default rate limit headers under the answer's own, and the URL it came
 * from (Octokit's paginate reads it).
 */
import type { Answer } from "./double-answers.js";

/** The Response of `answer` to a request of `url`. */
export function answerResponse(answer: Answer, url: URL): Response {
  const response = responseOf(answer);
  // A fetch Response carries the URL it came from (Octokit's paginate reads it).
  Object.defineProperty(response, "url", { value: url.href });
  return response;
}

function responseOf(answer: Answer): Response {
  const headers = new Headers({
    "x-ratelimit-limit": "5000",
    "x-ratelimit-remaining": "4999",
    "x-ratelimit-reset": "1900000000",
    ...answer.headers,
  });
  if (answer.body === undefined) return new Response(null, { status: answer.status, headers });
  headers.set("content-type", "application/json; charset=utf-8");
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers });
}
