/**
 * GitHub's numeric label ids, by name, for the snapshot's labels (the API's `host_labels[].id`,
 * docs/api.md). The pull request is read with GraphQL, whose `Label` has no numeric id
 * (https://docs.github.com/en/graphql/reference/objects#label), so the ids come from the
 * repository's label list (`GET {r}/labels`, every page, a conditional request), kept
 * {@link LABEL_IDS_TTL_MS} per repository and read again at once when a pull request carries a name
 * the kept list lacks (a label created since); the labels the App adds are learnt from GitHub's
 * answer (it names their ids): docs/github.md "Request budget".
 */
import type { GithubOctokit } from "./client.js";
import type { RepoParams } from "./repo-name.js";
import { TtlCache } from "./ttl-cache.js";

/** How long a repository's label list is kept, ms (a renamed label's new name reads it again). */
export const LABEL_IDS_TTL_MS = 5 * 60_000;

/** The label lists of the repositories, read at most once per {@link LABEL_IDS_TTL_MS} unless a name is new. */
export class LabelIds {
  private readonly lists: TtlCache<string, Promise<Map<string, number>>>;

  /** @param now the clock, epoch milliseconds */
  constructor(now: () => number) {
    this.lists = new TtlCache(LABEL_IDS_TTL_MS, 10_000, now);
  }

  /**
   * Adds labels whose ids GitHub gave in another answer (labels added to a pull request) to the
   * kept list of `repo`, or starts one with them (a name it lacks still reads the whole list).
   */
  learn(repo: string, labels: readonly { name: string; id: number }[]): void {
    if (labels.length === 0) return;
    const key = repo.toLowerCase();
    const kept = this.lists.get(key) ?? Promise.resolve(new Map<string, number>());
    const next = kept
      .catch(() => new Map<string, number>())
      .then((ids) => {
        const out = new Map(ids);
        for (const l of labels) out.set(l.name, l.id);
        return out;
      });
    this.lists.set(key, next);
  }

  /**
   * The id of each of `names` in repository `repo` (`owner/name`); a name GitHub does not list
   * (deleted since the pull request was read) is absent from the map.
   * @throws the Octokit error of the list's read
   */
  async idsOf(
    gh: GithubOctokit,
    repo: string,
    params: RepoParams,
    names: readonly string[],
  ): Promise<ReadonlyMap<string, number>> {
    if (names.length === 0) return new Map();
    const key = repo.toLowerCase();
    const kept = this.lists.get(key);
    if (kept !== undefined) {
      const ids = await kept.catch(() => null);
      if (ids && names.every((n) => ids.has(n))) return ids;
    }
    const read = gh
      .paginate(gh.rest.issues.listLabelsForRepo, { ...params, per_page: 100 })
      .then((labels) => new Map(labels.map((l) => [l.name, l.id])));
    this.lists.set(key, read);
    read.catch(() => this.lists.delete(key));
    return read;
  }
}
