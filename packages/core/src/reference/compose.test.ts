import { describe, expect, it } from "vitest";
import { trimNamed, withDigest, withTag } from "./compose.js";
import { parse, parseNormalizedNamed } from "./parse.js";
import type { NamedReference } from "./reference.js";

const hex64 = "0123456789abcdef".repeat(4);

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    return (error as { code?: string }).code;
  }
}

describe("withTag", () => {
  it.each([
    { input: "nginx", tag: "1.25", want: "docker.io/library/nginx:1.25" },
    { input: "nginx:old", tag: "new", want: "docker.io/library/nginx:new" },
    { input: `nginx@sha256:${hex64}`, tag: "1", want: `docker.io/library/nginx:1@sha256:${hex64}` }, // keeps the digest
    { input: "nginx", tag: "_ok", want: "docker.io/library/nginx:_ok" },
  ])("$input + $tag → $want", ({ input, tag, want }) => {
    expect(withTag(parseNormalizedNamed(input), tag).string).toBe(want);
  });

  it.each(["", "-bad", ".bad", "a:b", "a/b", "t".repeat(129), "ü"])("refuses tag %j", (tag) => {
    expect(codeOf(() => withTag(parseNormalizedNamed("nginx"), tag))).toBe("TAG_INVALID_FORMAT");
  });

  it("keeps an empty domain from parse", () => {
    const r = withTag(parse("ubuntu") as NamedReference, "22.04");
    expect([r.domain, r.string]).toEqual(["", "ubuntu:22.04"]);
  });
});

describe("withDigest", () => {
  it("keeps the tag", () => {
    expect(withDigest(parseNormalizedNamed("nginx:1"), `sha256:${hex64}`).string).toBe(
      `docker.io/library/nginx:1@sha256:${hex64}`,
    );
  });

  it.each([
    { digest: "sha256:short", code: "REFERENCE_DIGEST_INVALID_FORMAT" }, // fails the grammar's digest shape
    { digest: "nope", code: "REFERENCE_DIGEST_INVALID_FORMAT" },
    // Deliberate: Go's type system guarantees a validated digest.Digest; we
    // take a string, so go-digest's checks apply too.
    { digest: `md5:${"0".repeat(32)}`, code: "DIGEST_UNSUPPORTED" },
    { digest: `sha256:${hex64.toUpperCase()}`, code: "DIGEST_INVALID_FORMAT" },
    { digest: `sha512:${hex64}`, code: "DIGEST_INVALID_LENGTH" },
  ])("$digest → $code", ({ digest, code }) => {
    expect(codeOf(() => withDigest(parseNormalizedNamed("nginx"), digest))).toBe(code);
  });
});

describe("trimNamed", () => {
  it("drops tag and digest", () => {
    const input = parseNormalizedNamed(`quay.io/a/b:1@sha256:${hex64}`);
    const before = { ...input };
    const r = trimNamed(input);
    expect(r).toMatchObject({ string: "quay.io/a/b", tag: undefined, digest: undefined });
    // A new object; the argument is left as it was.
    expect(r).not.toBe(input);
    expect(input).toEqual(before);
  });
});
