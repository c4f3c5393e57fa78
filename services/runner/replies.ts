/**
 * Every comment the runner writes on a pull request, in one place (docs/architecture.md
 * "User-visible text in one place").
 */
import type { EvaluatedCondition } from "../config/index.js";
import { renderChecklist } from "../config/index.js";

/**
 * The text of each comment the runner posts, by occasion; each function takes what the text names
 * (rule, reason, evaluated conditions rendered as a checklist, command word) and returns Markdown.
 */
export const replies = {
  queued: (rule: string) =>
    `This pull request is queued in \`${rule}\`. It will be checked with the pull requests ahead of it and merged when its checks pass.`,
  queuePending: (rule: string, evaluation: EvaluatedCondition) =>
    `This pull request will enter the queue \`${rule}\` once its queue conditions are met:\n\n${renderChecklist(evaluation)}`,
  notQueued: (reason: string, evaluations: { rule: string; evaluation: EvaluatedCondition }[]) =>
    [
      `This pull request cannot be queued: ${reason}.`,
      ...evaluations.map((e) => `\n**Queue rule \`${e.rule}\`**\n\n${renderChecklist(e.evaluation)}`),
    ].join("\n"),
  queueConditionsFailed: (rule: string, evaluation: EvaluatedCondition) =>
    `This pull request was not queued: the queue conditions of \`${rule}\` are not met.\n\n${renderChecklist(evaluation)}`,
  dequeued: () => "This pull request is no longer queued.",
  queueDisabled: () =>
    "The merge queue is disabled on this repository: this pull request cannot be queued. An administrator can enable it again (`yardmaster product enable`).",
  notInQueue: () => "This pull request is not in the merge queue.",
  refreshed: () => "The conditions of this pull request were evaluated again.",
  notAllowed: (command: string, evaluation: EvaluatedCondition) =>
    `You are not allowed to run \`@yardmaster ${command}\` here; these conditions must be met:\n\n${renderChecklist(evaluation)}`,
  unknownCommand: (word: string) =>
    `\`${word}\` is not a command. Commands: \`@yardmaster queue [rule]\`, \`dequeue\`, \`requeue\`, \`refresh\`.`,
} as const;
