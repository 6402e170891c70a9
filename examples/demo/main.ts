/**
 * `pnpm demo`: prints the worked examples of kubeimg's specs, computed by
 * the `kubeimg` CLI over the bundled fixtures. Needs no network.
 */
import { exampleArgs } from "@kubeimg/example-kit";
import { runDemo } from "./demo.js";
import { SECTIONS } from "./sections.js";

// No options; `--help` says what the demo does, anything else is refused.
exampleArgs(
  { options: {} },
  `usage: pnpm demo (or: pnpm --filter @kubeimg/example-demo start)
Prints every worked example of kubeimg's specs, computed by the kubeimg CLI over
examples/demo/fixtures/. Needs no network. Exit 1 when a step does not end as expected.`,
);

// `pnpm demo | head` closes the pipe early: stop quietly.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  process.exit(0);
});

const noColor = process.env.NO_COLOR !== undefined && process.env.NO_COLOR !== "";
const failures = await runDemo(SECTIONS, {
  write: (text) => void process.stdout.write(text),
  color: process.stdout.isTTY === true && !noColor,
});
if (failures > 0) {
  process.stderr.write(`demo: ${failures} step(s) did not end as expected\n`);
  process.exitCode = 1;
}
