import { describe, expect, it } from "vitest";
import { CachedPullRecordStore } from "./cached-store.js";
import { PullManager } from "./manager.js";
import type { PullManagerOptions } from "./manager-options.js";
import { MemoryPullRecordStore } from "./memory-store.js";
import { type MetricsRecorder, pullManagerMetrics } from "./metrics.js";
import { createVerificationPolicy } from "./policy.js";
import type { ImagePullSecret } from "./types.js";

const clock = { now: () => Date.parse("2025-01-01T00:00:00Z") };
const image = "registry.example.com/team/app:1.0";
const ref = `sha256:${"1".repeat(64)}`;
const secretA: ImagePullSecret = {
  uid: "ua",
  namespace: "tenant-a",
  name: "cred",
  credentialHash: "hash-a",
};
const secretB: ImagePullSecret = {
  uid: "ub",
  namespace: "tenant-b",
  name: "cred",
  credentialHash: "hash-b",
};

async function open(extra: Partial<PullManagerOptions> = {}) {
  const store = extra.store ?? (await CachedPullRecordStore.create(new MemoryPullRecordStore()));
  return PullManager.open({
    store,
    policy: createVerificationPolicy({ policy: "NeverVerifyPreloadedImages" }),
    clock,
    ...extra,
  });
}

describe("PullManager", () => {
  it("KEP-2535 integration: parallel pulls with different credentials, one fails", async () => {
    const m = await open();
    await Promise.all([m.recordPullIntent(image), m.recordPullIntent(image)]);
    expect(m.intentCount(image)).toBe(2);
    await Promise.all([
      m.recordImagePullFailed(image),
      m.recordImagePulled(image, ref, { kubernetesSecrets: [secretB] }),
    ]);
    expect(m.intentCount(image)).toBe(0);
    expect(await m.mustAttemptImagePull(image, ref, () => ({ secrets: [secretA] }))).toEqual({
      mustPull: true,
      reason: "mustAuthenticate",
    });
    expect(await m.mustAttemptImagePull(image, ref, () => ({ secrets: [secretB] }))).toEqual({
      mustPull: false,
      reason: "credentialRecordFound",
    });
  });

  it("serialises concurrent decisions and writes: every written secret survives", async () => {
    const base = new MemoryPullRecordStore();
    const m = await open({ store: await CachedPullRecordStore.create(base) });
    await m.recordPullIntent(image);
    await m.recordImagePulled(image, ref, { kubernetesSecrets: [secretA] });
    // 50 pods present the same credential under their own coordinates: each is merged in.
    const pods = Array.from({ length: 50 }, (_, i) => ({
      ...secretA,
      uid: `u${i}`,
      namespace: `ns-${i}`,
    }));
    const decisions = await Promise.all(
      pods.map((s) => m.mustAttemptImagePull(image, ref, async () => ({ secrets: [s] }))),
    );
    expect(decisions.every((d) => !d.mustPull)).toBe(true);
    const stored = await base.getPulledRecord(ref);
    expect(
      stored?.credentialMapping.get("registry.example.com/team/app")?.kubernetesSecrets,
    ).toHaveLength(51);
  });

  it("returns the credential lookup error with must-pull, and only asks when needed", async () => {
    const m = await open();
    let asked = 0;
    const failing = async () => {
      asked++;
      throw new Error("provider down");
    };
    // Preloaded: the policy answers, the provider is never asked.
    expect(await m.mustAttemptImagePull(image, ref, failing)).toEqual({
      mustPull: false,
      reason: "credentialPolicyAllowed",
    });
    await m.recordPullIntent(image);
    await m.recordImagePulled(image, ref, { kubernetesSecrets: [secretA] });
    const d = await m.mustAttemptImagePull(image, ref, failing);
    expect(d).toMatchObject({ mustPull: true, reason: "error" });
    expect((d.error as Error).message).toBe("provider down");
    expect(asked).toBe(1);
  });

  it("fails safe on unreadable storage even under NeverVerify, and tells onError", async () => {
    const base = new MemoryPullRecordStore();
    base.putRawPulledRecord(ref, "garbage");
    const errors: string[] = [];
    const m = await open({
      store: base,
      policy: createVerificationPolicy({ policy: "NeverVerify" }),
      onError: (e, ctx) => errors.push(`${ctx.operation}:${(e as { code?: string }).code}`),
    });
    expect(await m.mustAttemptImagePull(image, ref)).toEqual({ mustPull: true, reason: "error" });
    expect(errors).toEqual(["mustAttemptImagePull:DECODE_ERROR"]);
  });

  it("keeps the intent when the record cannot be written", async () => {
    const m = await open();
    await m.recordPullIntent("Not/A:Valid:Image");
    const outcome = await m.recordImagePulled("Not/A:Valid:Image", ref, null);
    expect(outcome.recorded).toBe(false);
    expect(m.intentCount("Not/A:Valid:Image")).toBe(1);
  });

  it.each([
    {
      name: "image not a string",
      run: (m: PullManager) => m.mustAttemptImagePull(1 as never, ref),
    },
    {
      name: "malformed credentials",
      run: (m: PullManager) =>
        m.recordImagePulled(image, ref, { kubernetesSecrets: [{ uid: 1 }] } as never),
    },
    {
      name: "unknown credential field",
      run: (m: PullManager) => m.recordImagePulled(image, ref, { nodeWide: true } as never),
    },
    {
      name: "prune without a date",
      run: (m: PullManager) => m.pruneUnknownRecords([], "2025" as never),
    },
  ])("rejects misuse: $name", async ({ run }) => {
    const m = await open();
    await expect(run(m)).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("refuses to open without a store, a policy or a clock", async () => {
    const store = new MemoryPullRecordStore();
    const policy = createVerificationPolicy();
    for (const options of [
      { policy, clock },
      { store, clock },
      { store, policy },
    ]) {
      await expect(
        PullManager.open(options as unknown as PullManagerOptions),
      ).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
    }
  });

  it('reads a pod secret without credentialHash as a failed hash ("")', async () => {
    const m = await open();
    await m.recordImagePulled(image, ref, { kubernetesSecrets: [secretA] });
    const { credentialHash: _, ...coordinates } = secretA;
    const d = await m.mustAttemptImagePull(image, ref, () => ({ secrets: [coordinates] }) as never);
    // Same coordinates, other hash: accepted, and the stored hash becomes "".
    expect(d).toEqual({ mustPull: false, reason: "credentialRecordFound" });
    expect(await m.mustAttemptImagePull(image, ref, () => ({ secrets: [secretA] }))).toEqual({
      mustPull: false,
      reason: "credentialRecordFound",
    });
  });

  it("treats malformed pod credentials as a lookup error", async () => {
    const m = await open();
    await m.recordImagePulled(image, ref, { kubernetesSecrets: [secretA] });
    const d = await m.mustAttemptImagePull(
      image,
      ref,
      () => ({ secrets: [{ uid: "x" }] }) as never,
    );
    expect(d).toMatchObject({ mustPull: true, reason: "error" });
  });

  it("records the kubelet's metrics through the recorder it is given", async () => {
    // The prom-client wiring is the node-pull-gate example's (tested there);
    // here a plain recorder keeps what the manager reports.
    const counts = new Map<string, number>();
    const gauges = new Map<string, number>();
    const known = new Set<string>(Object.values(pullManagerMetrics).map((d) => d.name));
    const metrics: MetricsRecorder = {
      incrementCounter: (name, labels) => {
        expect(known.has(name)).toBe(true);
        const key = `${name}${JSON.stringify(labels ?? {})}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      },
      setGauge: (name, value) => {
        expect(known.has(name)).toBe(true);
        gauges.set(name, value);
      },
    };
    const store = await CachedPullRecordStore.create(new MemoryPullRecordStore(), {
      metrics,
      pulledRecordsCapacity: 10,
    });
    const m = await open({ store, metrics });
    await m.mustAttemptImagePull(image, ref); // preloaded
    await m.recordPullIntent(image);
    await m.recordImagePulled(image, ref, { nodePodsAccessible: true });
    await m.mustAttemptImagePull(image, ref);
    await m.mustAttemptImagePull(image, "");
    const checks = (result: string) =>
      counts.get(`kubelet_imagemanager_image_mustpull_checks_total${JSON.stringify({ result })}`);
    expect(checks("credentialPolicyAllowed")).toBe(1);
    expect(checks("credentialRecordFound")).toBe(1);
    expect(checks("error")).toBeUndefined();
    expect(gauges.get("kubelet_imagemanager_inmemory_pulledrecords_usage_percent")).toBe(10);
  });

  it("prunes only records older than `until` that are not in use", async () => {
    let now = new Date("2025-01-01T00:00:00Z");
    const m = await open({ clock: { now: () => now.getTime() } });
    await m.recordImagePulled(image, "old", null);
    await m.recordImagePulled(image, "in-use", null);
    now = new Date("2025-01-02T00:00:00Z");
    await m.recordImagePulled(image, "new", null);
    await m.pruneUnknownRecords(["in-use"], new Date("2025-01-02T00:00:00Z"));
    const left = [];
    for (const r of ["old", "in-use", "new"]) {
      if ((await m.mustAttemptImagePull(image, r)).reason === "mustAuthenticate") left.push(r);
    }
    expect(left).toEqual(["in-use", "new"]);
  });
});
