import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { prometheusRecorder } from "./metrics.js";
import { formatDecision, runScenario } from "./run.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function freshDir(): string {
  const d = mkdtempSync(join(tmpdir(), "kubeimg-node-test-"));
  dirs.push(d);
  return d;
}

// One row per event of scenario.ts: [mustPull, reason, outcome] (undefined for the restart).
type Row = [boolean | undefined, string | undefined, string];

describe("node pull gate", () => {
  it.each<{ policy: string; allowlist?: string[]; want: Row[] }>([
    {
      policy: "NeverVerifyPreloadedImages",
      want: [
        [true, "notPresent", "pulled"],
        [false, "credentialRecordFound", "used the image on the node"],
        [true, "mustAuthenticate", "ErrImagePull"],
        [true, "mustAuthenticate", "ErrImagePull"],
        [false, "credentialRecordFound", "used the image on the node"],
        [true, "notPresent", "pulled"],
        [undefined, undefined, "restarted"],
        [false, "credentialRecordFound", "used the image on the node"],
        [true, "mustAuthenticate", "ErrImagePull"],
        [false, "credentialPolicyAllowed", "used the image on the node"],
      ],
    },
    {
      policy: "NeverVerify",
      want: [
        [true, "notPresent", "pulled"],
        [false, "credentialPolicyAllowed", "used the image on the node"],
        [false, "credentialPolicyAllowed", "used the image on the node"],
        [false, "credentialPolicyAllowed", "used the image on the node"],
        [false, "credentialPolicyAllowed", "used the image on the node"],
        [true, "notPresent", "pulled"],
        [undefined, undefined, "restarted"],
        [false, "credentialPolicyAllowed", "used the image on the node"],
        [false, "credentialPolicyAllowed", "used the image on the node"],
        [false, "credentialPolicyAllowed", "used the image on the node"],
      ],
    },
    {
      policy: "AlwaysVerify",
      want: [
        [true, "notPresent", "pulled"],
        [false, "credentialRecordFound", "used the image on the node"],
        [true, "mustAuthenticate", "ErrImagePull"],
        [true, "mustAuthenticate", "ErrImagePull"],
        [false, "credentialRecordFound", "used the image on the node"],
        [true, "notPresent", "pulled"],
        [undefined, undefined, "restarted"],
        [false, "credentialRecordFound", "used the image on the node"],
        [true, "mustAuthenticate", "ErrImagePull"],
        // Preloaded, no record: AlwaysVerify pulls it; the registry serves it publicly.
        [true, "mustAuthenticate", "pulled"],
      ],
    },
  ])("$policy", async ({ policy, allowlist, want }) => {
    const decisions = await runScenario(freshDir(), policy, allowlist);
    expect(decisions.map((d): Row => [d.mustPull, d.reason, d.outcome])).toEqual(want);
    for (const d of decisions) expect(formatDecision(d)).not.toContain("undefined");
  });

  it("reports the kubelet's metrics through prom-client", async () => {
    const { registry, recorder } = prometheusRecorder();
    await runScenario(freshDir(), "AlwaysVerify", [], recorder);
    const text = await registry.metrics();
    expect(text).toMatch(/image_mustpull_checks_total\{result="credentialRecordFound"\} 3/);
    expect(text).toMatch(/image_mustpull_checks_total\{result="mustAuthenticate"\} 4/);
  });

  it("writes the kubelet's on-disk layout", async () => {
    const dir = freshDir();
    await runScenario(dir, "AlwaysVerify");
    const pulled = readdirSync(join(dir, "image_manager", "pulled"));
    expect(pulled.length).toBeGreaterThanOrEqual(2);
    for (const name of pulled) expect(name).toMatch(/^sha256-[0-9a-f]{64}$/);
    // Every pull finished: no intent is left behind.
    expect(readdirSync(join(dir, "image_manager", "pulling"))).toEqual([]);
  });
});
