/**
 * A node pull gate: the kubelet's KEP-2535 decision outside the kubelet.
 *
 * Run with `pnpm exec tsx --conditions=@kubeimg/source examples/node-pull-gate/main.ts [kubelet-root]`.
 * Without an argument it works in a temporary directory. With the kubelet's
 * root directory (e.g. `/var/lib/kubelet`, read access needed) it reads the
 * records the kubelet wrote (read-only) and answers as the kubelet would.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  CachedPullRecordStore,
  createVerificationPolicy,
  hashCredential,
  type MetricsRecorder,
  PullManager,
  pullManagerMetrics,
} from "@kubeimg/policy/pull-credentials";
import { FileSystemPullRecordStore } from "@kubeimg/policy/pull-credentials/fs";
import { Counter, Gauge, Registry } from "prom-client";

const given = process.argv[2];
const root = given ?? (await mkdtemp(join(tmpdir(), "kubeimg-pull-gate-")));

// Metrics: register the kubelet's metric names once, forward the recorder calls.
const registry = new Registry();
const counters = new Map<string, Counter<string>>();
const gauges = new Map<string, Gauge<string>>();
for (const def of Object.values(pullManagerMetrics)) {
  if (def.type === "counter") {
    counters.set(
      def.name,
      new Counter({
        name: def.name,
        help: def.help,
        labelNames: [...def.labelNames],
        registers: [registry],
      }),
    );
  } else {
    gauges.set(def.name, new Gauge({ name: def.name, help: def.help, registers: [registry] }));
  }
}
const metrics: MetricsRecorder = {
  incrementCounter: (name, labels) => counters.get(name)?.inc(labels),
  setGauge: (name, value) => gauges.get(name)?.set(value),
};

// A live kubelet's directory is opened read-only: no migration, no writes.
const disk = await FileSystemPullRecordStore.open(root, {
  readOnly: given !== undefined,
  metrics,
  onError: (error) => console.warn(`skipped unreadable file: ${error.message}`),
});
const manager = await PullManager.open({
  store: await CachedPullRecordStore.create(disk, { metrics }),
  policy: createVerificationPolicy({ policy: "NeverVerifyPreloadedImages" }),
  clock: { now: () => new Date() },
  metrics,
});

const image = "registry.example.com/tenant-a/private:1.0";
const imageRef = `sha256:${"ab".repeat(32)}`;
const tenantA = {
  uid: "6a1f0c52-0000-4000-8000-000000000001",
  namespace: "tenant-a",
  name: "regcred",
  credentialHash: await hashCredential({ username: "robot-a", password: "s3cret" }),
};

if (given === undefined) {
  // Tenant A's pod pulls the image with its secret.
  await manager.recordPullIntent(image);
  await manager.recordImagePulled(image, imageRef, { kubernetesSecrets: [tenantA] });
}

for (const [who, secrets] of [
  ["tenant-a", [tenantA]],
  ["tenant-b (no secret)", []],
  ["tenant-c (same robot account, own secret)", [{ ...tenantA, uid: "c", namespace: "tenant-c" }]],
] as const) {
  const decision = await manager.mustAttemptImagePull(image, imageRef, () => ({ secrets }));
  console.log(
    `${who}: ${decision.mustPull ? "must pull" : "may use the node's copy"} (${decision.reason})`,
  );
}

console.log(`\n${await registry.metrics()}`);
if (given === undefined) await rm(root, { recursive: true, force: true });
