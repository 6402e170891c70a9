/** The text of one input problem, apart from the views so the page loads no reader for it. */
import type { InputIssue } from "./input.js";

/**
 * Returns the line shown for an issue: where, the field and the value found
 * (and, for a misspelt field, the name it probably meant), then the message.
 */
export function issueText(issue: InputIssue): string {
  const where = issue.line === undefined ? "" : `line ${issue.line}: `;
  const field =
    issue.path === ""
      ? issue.value === ""
        ? ""
        : `${issue.value}: `
      : `${issue.path} = ${issue.value}${
          issue.suggestion === undefined ? "" : ` (did you mean "${issue.suggestion}"?)`
        }: `;
  return `${where}${field}${issue.message}`;
}
