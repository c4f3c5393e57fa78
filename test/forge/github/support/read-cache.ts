/**
 * The answers of the GitHub double's reads kept between two changes of its state, for the scenario
 * tests' server process: GitHub answers the same read the same way until something is written, and
 * the double computes each answer with several git processes (a pull request's files, commits,
 * comparison), which made a queue of ten pull requests take minutes. Any write through the API,
 * any Actions run that changes, and any change a test makes (it says so) drops every kept answer;
 * an answer whose read started before a drop is not kept. The first read of each answer went
 * through the double, its OpenAPI checks included.
 */
export class ReadCache {
  private readonly kept = new Map<
    string,
    Promise<{ status: number; headers: [string, string][]; body: ArrayBuffer }>
  >();
  private generation = 0;

  /** Drops every kept answer. */
  invalidate(): void {
    this.generation++;
    this.kept.clear();
  }

  /** The answer to the read of `url`: kept, or `read()`'s (kept when nothing changed meanwhile). */
  async get(url: string, read: () => Promise<Response>): Promise<Response> {
    let hit = this.kept.get(url);
    if (!hit) {
      const generation = this.generation;
      hit = read().then(async (r) => ({
        status: r.status,
        headers: [...r.headers.entries()],
        body: await r.arrayBuffer(),
      }));
      this.kept.set(url, hit);
      hit.then(
        (a) => {
          if (generation !== this.generation || a.status !== 200) this.kept.delete(url);
        },
        () => this.kept.delete(url),
      );
    }
    const a = await hit;
    const response = new Response(a.status === 204 || a.status === 304 ? null : a.body.slice(0), {
      status: a.status,
      headers: a.headers,
    });
    Object.defineProperty(response, "url", { value: url });
    return response;
  }
}
