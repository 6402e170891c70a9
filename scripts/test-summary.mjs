// Prints the one summary line over vitest JSON reports (the paths given):
// `tests: N passed, M failed, K skipped` (skipped counts `.skip` and `.todo`).
// A report that is missing (its run died before writing it) counts as one
// failure, and the script then exits 1.
import { existsSync, readFileSync } from "node:fs";

let passed = 0;
let failed = 0;
let skipped = 0;
let missing = 0;
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    missing++;
    continue;
  }
  const report = JSON.parse(readFileSync(file, "utf8"));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
}
console.log(`tests: ${passed} passed, ${failed + missing} failed, ${skipped} skipped`);
if (missing > 0) process.exit(1);
