/**
 * The error thrown by the value readers of the conditions language (schedules, timestamps,
 * regular expressions...). The condition parser turns it into a condition error whose message
 * names the condition (docs/conditions.md "Errors").
 */
export class ValueError extends Error {
  override readonly name = "ValueError";
}
