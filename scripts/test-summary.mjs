// Prints the one summary line of a vitest JSON report (the path given):
// `tests: N passed, M failed, K skipped` (skipped counts `.skip` and `.todo`).
import { readFileSync } from "node:fs";

const report = JSON.parse(readFileSync(process.argv[2], "utf8"));
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(
  `tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`,
);
