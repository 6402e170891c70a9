/** Child process of the crash test: `node crash-child.js <root> <journal>`; runs until killed. */
import { runCrashWorkload } from "./crash-workload.test-support.js";

const [root, journal] = process.argv.slice(2);
if (root === undefined || journal === undefined) {
  console.error("usage: crash-child <kubelet-root> <journal>");
  process.exit(2);
}
await runCrashWorkload(root, journal);
