/**
 * `pnpm conformance [--dir DIR] [--suite NAME]...`
 *
 * Runs the conformance vectors (by default the project's copy in
 * `conformance/`), prints `SUITE: N passed, M failed` per suite and then each
 * failure, and exits non-zero on any failure, on a suite folder without a
 * handler, or on a named suite that is missing.
 */
import { parseArgs } from "node:util";
import { allPassed, formatReports, runConformance } from "./runner.js";

const { values } = parseArgs({
  options: {
    dir: { type: "string" },
    suite: { type: "string", multiple: true },
    help: { type: "boolean", short: "h" },
  },
  strict: true,
});

if (values.help) {
  console.log("usage: pnpm conformance [--dir DIR] [--suite NAME]...");
  process.exit(0);
}

const reports = await runConformance({
  ...(values.dir === undefined ? {} : { dir: values.dir }),
  suites: values.suite ?? [],
});
console.log(formatReports(reports));
process.exitCode = allPassed(reports) ? 0 : 1;
