import { describe, expect, it } from "vitest";
import type { ImagePolicyStatus } from "./image-policy-schema.js";
import { MemoryRegistry } from "./memory.js";
import { parseImagePolicySpec } from "./objects.js";
import { resolveImagePolicy } from "./resolve.js";

const image = "ghcr.io/org/app";
const digest1 = `sha256:${"1".repeat(64)}`;
const digest2 = `sha256:${"2".repeat(64)}`;

function spec(extra: Record<string, unknown> = {}) {
  return parseImagePolicySpec({
    imageRepositoryRef: { name: "app" },
    policy: { semver: { range: "1.x" } },
    ...extra,
  });
}

function registry() {
  return new MemoryRegistry({
    tags: { [image]: ["1.0.0", "1.1.0", "2.0.0"] },
    digests: { [`${image}:1.1.0`]: digest1, [`${image}:1.2.0`]: digest2 },
  });
}

describe("resolveImagePolicy", () => {
  it("resolves the tag and reports Ready with Flux's message", async () => {
    const r = await resolveImagePolicy({ spec: spec(), image, tagLister: registry() });
    expect(r.tag).toBe("1.1.0");
    expect(r.error).toBeUndefined();
    expect(r.requeueAfterMillis).toBeUndefined();
    expect(r.status).toEqual({
      latestRef: { name: image, tag: "1.1.0" },
      conditions: [
        {
          type: "Ready",
          status: "True",
          reason: "Succeeded",
          message: "Latest image tag for ghcr.io/org/app resolved to 1.1.0",
        },
      ],
    });
  });

  it("reflects digests: Always re-resolves and requeues after the interval", async () => {
    const reg = registry();
    const s = spec({ digestReflectionPolicy: "Always", interval: "5m" });
    const first = await resolveImagePolicy({ spec: s, image, tagLister: reg, digestResolver: reg });
    expect(first.status.latestRef).toEqual({ name: image, tag: "1.1.0", digest: digest1 });
    expect(first.requeueAfterMillis).toBe(300_000);
    // The tag moves to another manifest: the new digest, and the old ref becomes previous.
    reg.setDigest(`${image}:1.1.0`, digest2);
    const second = await resolveImagePolicy({
      spec: s,
      image,
      status: first.status,
      tagLister: reg,
      digestResolver: reg,
    });
    expect(second.status.latestRef?.digest).toBe(digest2);
    expect(second.status.observedPreviousRef).toEqual(first.status.latestRef);
    expect(second.status.conditions?.[0]?.message).toBe(
      `Latest image tag for ${image} resolved to 1.1.0 with digest ${digest2} (previously ${image}:1.1.0@${digest1})`,
    );
  });

  it("requeues after 10 minutes when Always has a zero interval", async () => {
    const reg = registry();
    const s = spec({ digestReflectionPolicy: "Always", interval: "0s" });
    const r = await resolveImagePolicy({ spec: s, image, tagLister: reg, digestResolver: reg });
    expect(r.requeueAfterMillis).toBe(600_000);
  });

  it("IfNotPresent keeps the stored digest while the tag is unchanged", async () => {
    const reg = registry();
    const s = spec({ digestReflectionPolicy: "IfNotPresent" });
    const first = await resolveImagePolicy({ spec: s, image, tagLister: reg, digestResolver: reg });
    reg.setDigest(`${image}:1.1.0`, digest2);
    const second = await resolveImagePolicy({
      spec: s,
      image,
      status: first.status,
      tagLister: reg,
      digestResolver: reg,
    });
    expect(second.status.latestRef?.digest).toBe(digest1);
    expect(second.status.observedPreviousRef).toBeUndefined();
  });

  it("Never drops a stored digest", async () => {
    const status: ImagePolicyStatus = { latestRef: { name: image, tag: "1.1.0", digest: digest1 } };
    const r = await resolveImagePolicy({ spec: spec(), image, status, tagLister: registry() });
    expect(r.status.latestRef).toEqual({ name: image, tag: "1.1.0" });
    expect(r.status.observedPreviousRef).toEqual(status.latestRef);
  });

  it("stalls on an invalid pattern and keeps the previous refs", async () => {
    const status: ImagePolicyStatus = { latestRef: { name: image, tag: "1.0.0" } };
    const s = parseImagePolicySpec({
      imageRepositoryRef: { name: "a" },
      policy: { numerical: {} },
    });
    const r = await resolveImagePolicy({
      spec: { ...s, filterTags: { pattern: "[=", extract: "" } },
      image,
      status,
      tagLister: registry(),
    });
    expect(r.error?.message).toContain("invalid regular expression pattern '[='");
    expect(r.status.latestRef).toEqual(status.latestRef);
    expect(r.status.conditions?.map((c) => [c.type, c.status, c.reason])).toEqual([
      ["Ready", "False", "InvalidPolicy"],
      ["Stalled", "True", "InvalidPolicy"],
    ]);
  });

  it("reports selection failures as Ready=False Failure with a retry", async () => {
    const r = await resolveImagePolicy({
      spec: spec({ policy: { semver: { range: ">=3" } } }),
      image,
      tagLister: registry(),
    });
    expect(r.tag).toBeUndefined();
    expect(r.status.conditions).toEqual([
      {
        type: "Ready",
        status: "False",
        reason: "Failure",
        message: "unable to determine latest version from provided list",
      },
      {
        type: "Reconciling",
        status: "True",
        reason: "ProgressingWithRetry",
        message: "reconciliation in progress",
      },
    ]);
  });

  it("retries in 30 s when the repository has no tags", async () => {
    const reg = new MemoryRegistry({ tags: { [image]: [] } });
    const r = await resolveImagePolicy({ spec: spec(), image, tagLister: reg });
    expect(r.requeueAfterMillis).toBe(30_000);
    expect(r.status.conditions?.[0]).toEqual({
      type: "Ready",
      status: "False",
      reason: "DependencyNotReady",
      message: "retrying in 30s error: no tags in database",
    });
  });

  it("reports a failed digest lookup and keeps the previous status", async () => {
    const status: ImagePolicyStatus = { latestRef: { name: image, tag: "1.0.0", digest: digest1 } };
    const reg = new MemoryRegistry({ tags: { [image]: ["1.1.0"] } });
    const r = await resolveImagePolicy({
      spec: spec({ digestReflectionPolicy: "IfNotPresent" }),
      image,
      status,
      tagLister: reg,
      digestResolver: reg,
    });
    expect(r.error?.message).toBe(
      `failed fetching digest of ${image}:1.1.0: manifest ${image}:1.1.0 not found`,
    );
    expect(r.status.latestRef).toEqual(status.latestRef);
    expect(r.status.conditions?.[0]?.reason).toBe("Failed");
  });

  it("stalls on an invalid image and fails on a listing error", async () => {
    const bad = await resolveImagePolicy({
      spec: spec(),
      image: "Not An Image",
      tagLister: registry(),
    });
    expect(bad.status.conditions?.find((c) => c.type === "Stalled")?.reason).toBe(
      "ImageURLInvalid",
    );
    const missing = await resolveImagePolicy({
      spec: spec(),
      image: "ghcr.io/org/other",
      tagLister: registry(),
    });
    expect(missing.error?.message).toBe(
      "failed to list tags: repository ghcr.io/org/other not found",
    );
  });

  it("rejects when aborted", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      resolveImagePolicy({ spec: spec(), image, tagLister: registry(), signal: controller.signal }),
    ).rejects.toThrow();
  });
});

describe("resolveImagePolicy given a whole ImagePolicy as spec", () => {
  it("rejects with INVALID_POLICY saying to pass its spec", async () => {
    const spec = { kind: "ImagePolicy", spec: { policy: { semver: { range: "1.x" } } } };
    await expect(
      resolveImagePolicy({
        spec: spec as never,
        image: "ghcr.io/org/app",
        tagLister: new MemoryRegistry({ tags: { "ghcr.io/org/app": ["1.0.0"] } }),
      }),
    ).rejects.toMatchObject({
      code: "INVALID_POLICY",
      message: expect.stringMatching(/pass its spec/),
    });
  });
});
