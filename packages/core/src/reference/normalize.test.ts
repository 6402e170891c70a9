import { describe, expect, it } from "vitest";
import { familiarName, familiarString, tagNameOnly } from "./normalize.js";
import { parseAnyReference, parseNormalizedNamed } from "./parse.js";

const hex64 = "0123456789abcdef".repeat(4);

describe("familiarName / familiarString", () => {
  it.each([
    { input: "docker.io/library/redis", name: "redis", string: "redis" },
    { input: "redis:7", name: "redis", string: "redis:7" },
    { input: "docker.io/dmcgowan/myapp:1", name: "dmcgowan/myapp", string: "dmcgowan/myapp:1" },
    { input: "docker.io/library/a/b", name: "library/a/b", string: "library/a/b" }, // nested library paths keep it
    {
      input: `gcr.io/a/b@sha256:${hex64}`,
      name: "gcr.io/a/b",
      string: `gcr.io/a/b@sha256:${hex64}`,
    },
    { input: "localhost:5000/x", name: "localhost:5000/x", string: "localhost:5000/x" },
    // Upstream quirk: the familiar form of a 64-hex Hub name is the bare hex,
    // which ParseNormalizedNamed itself refuses.
    { input: `docker.io/${hex64}`, name: hex64, string: hex64 },
  ])("$input", ({ input, name, string }) => {
    const r = parseNormalizedNamed(input);
    expect(familiarName(r)).toBe(name);
    expect(familiarString(r)).toBe(string);
  });

  it("returns a digest-only reference as its digest", () => {
    expect(familiarString(parseAnyReference(hex64))).toBe(`sha256:${hex64}`);
  });
});

describe("tagNameOnly", () => {
  it.each([
    { input: "nginx", want: "docker.io/library/nginx:latest" },
    { input: "nginx:1.25", want: "docker.io/library/nginx:1.25" },
    { input: `nginx@sha256:${hex64}`, want: `docker.io/library/nginx@sha256:${hex64}` }, // a digest is enough
  ])("$input → $want", ({ input, want }) => {
    expect(tagNameOnly(parseNormalizedNamed(input)).string).toBe(want);
  });
});
