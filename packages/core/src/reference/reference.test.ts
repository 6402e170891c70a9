import { describe, expect, it } from "vitest";
import { trimNamed, withDigest, withTag } from "./compose.js";
import { parse, parseAnyReference, parseNormalizedNamed } from "./parse.js";
import { domain, isNamedReference, path } from "./reference.js";

const hex64 = "0123456789abcdef".repeat(4);

describe("isNamedReference", () => {
  const nginx = parseNormalizedNamed("nginx:1.25");
  it.each([
    { what: "parseNormalizedNamed", value: nginx, want: true },
    { what: "parse", value: parse("quay.io/a/b"), want: true },
    { what: "withTag", value: withTag(nginx, "1.26"), want: true },
    { what: "withDigest", value: withDigest(nginx, `sha256:${hex64}`), want: true },
    { what: "trimNamed", value: trimNamed(nginx), want: true },
    // Only a parser's reading counts: a copy of its fields was checked by nobody.
    {
      what: "a look-alike object",
      value: {
        domain: nginx.domain,
        path: nginx.path,
        name: nginx.name,
        tag: nginx.tag,
        digest: nginx.digest,
        string: nginx.string,
        toString: () => nginx.string,
      },
      want: false,
    },
    { what: "a digest-only reference", value: parseAnyReference(`sha256:${hex64}`), want: false },
    { what: "a string", value: "docker.io/library/nginx:1.25", want: false },
    { what: "null", value: null, want: false },
  ])("$what → $want", ({ value, want }) => {
    expect(isNamedReference(value)).toBe(want);
  });
});

describe("domain and path (Go's Domain() and Path())", () => {
  it.each([
    {
      input: "quay.io/prometheus/node-exporter",
      domain: "quay.io",
      path: "prometheus/node-exporter",
    },
    { input: "nginx", domain: "docker.io", path: "library/nginx" },
  ])("$input", ({ input, domain: wantDomain, path: wantPath }) => {
    const r = parseNormalizedNamed(input);
    expect([domain(r), path(r)]).toEqual([wantDomain, wantPath]);
  });
});
