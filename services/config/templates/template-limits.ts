/**
 * The bounds of one template render (docs/workflow-automation.md "Templates", "Bounds"): a
 * repository's configuration is untrusted, and `{% for a in range(3000) %}{% for b in range(3000)
 * %}…` wrote a 9 MB comment in 10.7 s on the server's event loop. A render may take at most
 * {@link TEMPLATE_STEP_LIMIT} steps (loop iterations and calls), write at most
 * {@link TEMPLATE_WRITE_LIMIT} characters along the way (outputs, captured blocks, filter results),
 * and its result must fit the field it fills ({@link outputLimitOf}); the runner and the simulator
 * also render in a worker thread with a time limit (services/offload), for what steps cannot count
 * (a regular expression of a filter, a quadratic `replace`).
 */

/** Loop iterations and calls one render may take: real templates loop over commits, labels or files (a few thousand). */
export const TEMPLATE_STEP_LIMIT = 100_000;

/** Characters a render may write along the way: four times the largest field's limit. */
export const TEMPLATE_WRITE_LIMIT = 4 * 65_536;

/** The most characters a rendered field may hold, and whose limit that is. */
export interface OutputLimit {
  characters: number;
  /** What sets the limit, for the refusal's message ("GitHub's limit of a comment"). */
  source: string;
}

const COMMENT: OutputLimit = { characters: 65_536, source: "GitHub's limit of a comment" };
const TEXT: OutputLimit = {
  characters: 65_536,
  source: "the limit of a templated text (64 KiB, GitHub's limit of a comment)",
};

/**
 * The output limits of the templated options that have a smaller or a platform-set one, by
 * `action.option` (sources: GitHub's REST schema, `maxLength` of a check run's `output.summary`;
 * GitHub refuses an issue or pull request title over 256 characters and a body or comment over
 * 65,536; a workflow dispatch's inputs hold 65,535 characters at most).
 */
const LIMITS: Readonly<Record<string, OutputLimit>> = {
  "comment.message": COMMENT,
  "close.message": COMMENT,
  "review.message": { characters: 65_536, source: "GitHub's limit of a review's body" },
  "dismiss_reviews.message": COMMENT,
  "post_check.summary": { characters: 65_535, source: "GitHub's limit of a check run's summary" },
  "backport.title": { characters: 256, source: "GitHub's limit of a pull request title" },
  "copy.title": { characters: 256, source: "GitHub's limit of a pull request title" },
  "backport.body": { characters: 65_536, source: "GitHub's limit of a pull request body" },
  "copy.body": { characters: 65_536, source: "GitHub's limit of a pull request body" },
  "github_actions.inputs": { characters: 65_535, source: "GitHub's limit of a workflow dispatch's inputs" },
};

/** The output limit of option `option` of `action` (`inputs` for github_actions' dispatch inputs). */
export function outputLimitOf(action: string, option: string): OutputLimit {
  return LIMITS[`${action}.${option}`] ?? TEXT;
}

/** A render over one of its limits (thrown by the budget, reported as a TemplateError). */
export class TemplateLimitError extends Error {
  override readonly name = "TemplateLimitError";
}

/** The steps and written characters of the render in progress. */
export class RenderBudget {
  private steps = 0;
  private written = 0;

  /** Counts `n` steps (loop iterations, a call). @throws TemplateLimitError past the limit */
  step(n: number): void {
    this.steps += n;
    if (this.steps > TEMPLATE_STEP_LIMIT)
      throw new TemplateLimitError(
        `it takes more than ${TEMPLATE_STEP_LIMIT} steps (loop iterations and calls), the limit of a template`,
      );
  }

  /** Whether `n` more steps are within the limit (without counting them). */
  canStep(n: number): boolean {
    return this.steps + n <= TEMPLATE_STEP_LIMIT;
  }

  /** Counts `n` characters written. @throws TemplateLimitError past the limit */
  write(n: number): void {
    this.written += n;
    if (this.written > TEMPLATE_WRITE_LIMIT)
      throw new TemplateLimitError(
        `it writes more than ${TEMPLATE_WRITE_LIMIT} characters while rendering, the limit of a template`,
      );
  }
}
