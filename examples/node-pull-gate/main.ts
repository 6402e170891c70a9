/**
 * `pnpm --filter @kubeimg/example-node-pull-gate start [-- --policy P] [--dir DIR]`
 *
 * Drives the pull-credential manager with the filesystem store (behind the
 * kubelet's write-through cache) through a sequence of pod events on one
 * node, prints each decision, then the kubelet's image-manager metrics as
 * Prometheus exposes them (prom-client). Records go to a fresh temporary
 * kubelet directory unless `--dir` is given; the files under
 * `image_manager/` are the kubelet's own format. To ask about a live
 * kubelet's records without writing to them, use
 * `kubeimg pull-check --kubelet-dir /var/lib/kubelet …`.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { exampleArgs, userPath } from "@kubeimg/example-kit";
import { prometheusRecorder } from "./metrics.js";
import { formatDecision, runScenario } from "./run.js";

const USAGE = `usage: main.ts [--policy NeverVerify|NeverVerifyPreloadedImages|NeverVerifyAllowlistedImages|AlwaysVerify]
  [--allowlist PATTERN]... [--dir DIR]
A relative --dir is read from the directory the command was started in.`;
const { values } = exampleArgs(
  {
    options: {
      policy: { type: "string", default: "NeverVerifyPreloadedImages" },
      allowlist: { type: "string", multiple: true },
      dir: { type: "string" },
    },
  },
  USAGE,
);
const dir =
  values.dir !== undefined ? userPath(values.dir) : mkdtempSync(join(tmpdir(), "kubeimg-node-"));
const { registry, recorder } = prometheusRecorder();
console.log(`policy ${values.policy}, records in ${join(dir, "image_manager")}\n`);
for (const decision of await runScenario(dir, values.policy, values.allowlist ?? [], recorder)) {
  console.log(formatDecision(decision));
}
console.log(`\n${await registry.metrics()}`);
