import { describe, expect, it } from "vitest";
import { TagPolicyError } from "./errors.js";
import { excludeTags } from "./exclusion.js";
import { MemoryRegistry } from "./memory.js";
import { parseImagePolicySpec } from "./objects.js";
import { resolveImagePolicy } from "./resolve.js";

describe("excludeTags", () => {
  // The rows of image-reflector-controller v1.2.0's TestFilterOutTags that give patterns.
  it.each([
    { tags: ["a", "b", "c", "d"], patterns: ["[abc]"], want: ["d"] },
    { tags: ["a", "b", "c", "d"], patterns: ["[a]", "[d]"], want: ["b", "c"] },
    {
      tags: ["0.1.0", "0.2.0", "0.2.-alpha", "0.3.0", "0.4.0", "0.4.0.sig"],
      patterns: ["^.*\\-alpha$", "^.*\\.sig$"],
      want: ["0.1.0", "0.2.0", "0.3.0", "0.4.0"],
    },
    { tags: ["aaa", "bbb", "ccc", "ddd"], patterns: ["aaa|ccc"], want: ["bbb", "ddd"] },
  ])("drops what $patterns match", ({ tags, patterns, want }) => {
    expect(excludeTags(tags, patterns)).toEqual(want);
  });

  it("an absent or empty list is Flux's default: signature tags go", () => {
    const tags = ["1.0.0", "sha256-ab12.sig", "1.1.0", "x.sig.old"];
    expect(excludeTags(tags, undefined)).toEqual(["1.0.0", "1.1.0", "x.sig.old"]);
    expect(excludeTags(tags, [])).toEqual(["1.0.0", "1.1.0", "x.sig.old"]);
    // A list of its own replaces the default.
    expect(excludeTags(tags, ["^1\\.0"])).toEqual(["sha256-ab12.sig", "1.1.0", "x.sig.old"]);
  });

  it("a pattern that is not a Go regexp names the field and Flux's message", () => {
    let caught: unknown;
    try {
      excludeTags(["a"], ["^ok$", "[="]);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TagPolicyError);
    const e = caught as TagPolicyError;
    expect(e.code).toBe("INVALID_IMAGE_REPOSITORY");
    expect(e.message).toBe(
      "failed to compile regex [=: error parsing regexp: missing closing ]: `[=`",
    );
    expect(e.issues).toEqual([
      { path: "spec.exclusionList[1]", value: "[=", message: expect.any(String) },
    ]);
    // Go's RE2 syntax, not JavaScript's: a lookahead is refused.
    expect(() => excludeTags(["a"], ["(?=a)"])).toThrow(/failed to compile regex \(\?=a\)/);
  });
});

describe("resolveImagePolicy with an exclusionList", () => {
  const image = "ghcr.io/org/app";
  const spec = parseImagePolicySpec({
    imageRepositoryRef: { name: "app" },
    policy: { alphabetical: { order: "asc" } },
  });
  const registry = new MemoryRegistry({
    tags: { [image]: ["1.0.0", "1.1.0", "sha256-ff.sig", "zz-nightly"] },
  });

  it("selects among the tags the scan keeps, and returns them", async () => {
    const byDefault = await resolveImagePolicy({ spec, image, tagLister: registry });
    expect(byDefault.tag).toBe("zz-nightly");
    expect(byDefault.tags).toEqual(["1.0.0", "1.1.0", "zz-nightly"]);
    const own = await resolveImagePolicy({
      spec,
      image,
      tagLister: registry,
      exclusionList: ["nightly$"],
    });
    expect(own.tag).toBe("sha256-ff.sig");
    expect(own.tags).toEqual(["1.0.0", "1.1.0", "sha256-ff.sig"]);
  });

  it("a bad pattern fails the listing, as a failed scan does", async () => {
    const r = await resolveImagePolicy({
      spec,
      image,
      tagLister: registry,
      exclusionList: ["(x"],
    });
    expect(r.tag).toBeUndefined();
    expect(r.tags).toBeUndefined();
    expect(r.error?.message).toBe(
      "failed to list tags: failed to compile regex (x: error parsing regexp: missing closing ): `(x`",
    );
    expect(r.error?.cause).toBeInstanceOf(TagPolicyError);
    expect(r.status.conditions?.[0]).toMatchObject({ status: "False", reason: "Failure" });
  });
});
