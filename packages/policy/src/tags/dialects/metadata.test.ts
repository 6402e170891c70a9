import { parseNormalizedNamed } from "@kubeimg/core/reference";
import { describe, expect, it } from "vitest";
import { selectKargoTag } from "../kargo/select.js";
import {
  collectTagInfo,
  MemoryTagMetadataSource,
  needsTagMetadata,
  type TagImageMetadata,
  TagMetadataError,
  type TagMetadataSource,
} from "./metadata.js";

const repository = parseNormalizedNamed("ghcr.io/org/app");
const d = (c: string) => `sha256:${c.repeat(64)}`;

describe("needsTagMetadata", () => {
  it("asks only for the strategies whose updaters fetch metadata", () => {
    expect(needsTagMetadata({ dialect: "flux" })).toBe(false);
    expect(needsTagMetadata({ dialect: "argocd-image-updater", strategy: "semver" })).toBe(false);
    expect(needsTagMetadata({ dialect: "argocd-image-updater", strategy: "alphabetical" })).toBe(
      false,
    );
    expect(needsTagMetadata({ dialect: "argocd-image-updater", strategy: "newest-build" })).toBe(
      true,
    );
    expect(needsTagMetadata({ dialect: "argocd-image-updater", strategy: "digest" })).toBe(true);
    expect(needsTagMetadata({ dialect: "kargo", subscription: {} })).toBe(false);
    expect(
      needsTagMetadata({ dialect: "kargo", subscription: { imageSelectionStrategy: "Lexical" } }),
    ).toBe(false);
    expect(
      needsTagMetadata({
        dialect: "kargo",
        subscription: { imageSelectionStrategy: "Lexical", platform: "linux/arm64" },
      }),
    ).toBe(true);
    expect(
      needsTagMetadata({
        dialect: "kargo",
        subscription: { imageSelectionStrategy: "NewestBuild" },
      }),
    ).toBe(true);
    expect(
      needsTagMetadata({ dialect: "kargo", subscription: { imageSelectionStrategy: "Digest" } }),
    ).toBe(true);
  });
});

describe("MemoryTagMetadataSource", () => {
  const source = new MemoryTagMetadataSource({
    "ghcr.io/org/app": [
      { name: "a", created: "2024-01-01T00:00:00Z", digest: d("a") },
      { name: "b", digest: d("b"), platforms: ["linux/amd64", "linux/arm64/v8"] },
    ],
  });

  it("answers from its table", async () => {
    await expect(source.tagMetadata(repository, "a", {})).resolves.toEqual({
      created: "2024-01-01T00:00:00Z",
      digest: d("a"),
      platforms: undefined,
    });
    await expect(source.tagMetadata(repository, "b", {})).resolves.toEqual({
      created: undefined,
      digest: d("b"),
      platforms: ["linux/amd64", "linux/arm64/v8"],
    });
  });

  it("refuses unknown tags and repositories with a typed error", async () => {
    const error = await source.tagMetadata(repository, "c", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TagMetadataError);
    expect(error).toMatchObject({ code: "TAG_NOT_FOUND", tag: "c", repository: "ghcr.io/org/app" });
    await expect(source.tagMetadata(parseNormalizedNamed("x.io/org/app"), "a", {})).rejects.toThrow(
      TagMetadataError,
    );
  });

  it("refuses a tag without digest, naming the field", () => {
    expect(() => new MemoryTagMetadataSource({ r: [{ name: "a" }] })).toThrow(/r\[0\]\.digest/);
  });
});

/** A source that counts lookups in flight and answers after a tick. */
function countingSource(delayMs = 1) {
  const state = { inFlight: 0, maxInFlight: 0, calls: 0 };
  const source: TagMetadataSource = {
    async tagMetadata(_repo, tag, options): Promise<TagImageMetadata> {
      state.calls++;
      state.inFlight++;
      state.maxInFlight = Math.max(state.maxInFlight, state.inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        options.signal?.throwIfAborted();
        if (tag === "boom") throw new Error("boom");
        const n = Number(tag);
        return {
          created: new Date(Date.UTC(2024, 0, 1) + n * 1000).toISOString(),
          digest: d((n % 10).toString()),
          platforms: undefined,
        };
      } finally {
        state.inFlight--;
      }
    },
  };
  return { source, state };
}

describe("collectTagInfo", () => {
  it("looks nothing up when the strategy does not need it", async () => {
    const { source, state } = countingSource();
    await expect(
      collectTagInfo(["1", "2"], { source, repository, needed: false }),
    ).resolves.toEqual([{ name: "1" }, { name: "2" }]);
    expect(state.calls).toBe(0);
  });

  it("fills 1,000 tags in order with bounded parallel lookups", async () => {
    const { source, state } = countingSource();
    const names = Array.from({ length: 1000 }, (_, i) => String(i));
    const tags = await collectTagInfo(names, { source, repository, needed: true, concurrency: 6 });
    expect(tags.map((t) => t.name)).toEqual(names);
    expect(tags[7]).toEqual({ name: "7", digest: d("7"), created: "2024-01-01T00:00:07.000Z" });
    expect(state.calls).toBe(1000);
    expect(state.maxInFlight).toBeGreaterThan(1);
    expect(state.maxInFlight).toBeLessThanOrEqual(6);
    // The filled list feeds the dialects directly.
    const picked = selectKargoTag(
      { repoURL: "ghcr.io/org/app", imageSelectionStrategy: "NewestBuild" },
      tags,
    );
    expect(picked.tag).toBe("999");
  });

  it("rejects with the first lookup error", async () => {
    const { source } = countingSource();
    await expect(
      collectTagInfo(["1", "boom", "3"], { source, repository, needed: true }),
    ).rejects.toThrow("boom");
  });

  it("stops when the caller aborts", async () => {
    const { source, state } = countingSource(5);
    const controller = new AbortController();
    const names = Array.from({ length: 500 }, (_, i) => String(i));
    const pending = collectTagInfo(names, {
      source,
      repository,
      needed: true,
      concurrency: 2,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(new Error("deadline")), 12);
    await expect(pending).rejects.toThrow("deadline");
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(state.calls).toBeLessThan(20);
    await expect(
      collectTagInfo(names, { source, repository, needed: true, signal: controller.signal }),
    ).rejects.toThrow("deadline");
  });

  it("refuses a bad concurrency", async () => {
    const { source } = countingSource();
    await expect(
      collectTagInfo(["1"], { source, repository, needed: true, concurrency: 0 }),
    ).rejects.toThrow(/concurrency/);
  });
});
