import { describe, expect, it } from "vitest";
import { isImageReferenceError } from "./errors.js";
import { familiarName, familiarString } from "./normalize.js";
import {
  parse,
  parseAnyReference,
  parseDockerRef,
  parseNamed,
  parseNormalizedNamed,
  safeParse,
  safeParseAnyReference,
  safeParseDockerRef,
  safeParseNamed,
  safeParseNormalizedNamed,
} from "./parse.js";
import { isNamed, type NamedReference, type Reference } from "./reference.js";

const hex64 = "0123456789abcdef".repeat(4);
const HEX64 = hex64.toUpperCase();
const hex128 = hex64 + hex64;

/** The error code `fn(input)` throws, or undefined when it returns. */
function codeOf(fn: (s: string) => unknown, input: string): string | undefined {
  try {
    fn(input);
    return undefined;
  } catch (error) {
    expect(isImageReferenceError(error)).toBe(true);
    return (error as { code: string }).code;
  }
}

describe("parseNormalizedNamed", () => {
  // Rows from the measured table of JavaScript peers (notes/js-peers.md):
  // every answer is what Go's distribution/reference gives.
  it.each([
    { input: "nginx", want: "docker.io/library/nginx" },
    { input: "library/nginx", want: "docker.io/library/nginx" },
    { input: "docker.io/nginx", want: "docker.io/library/nginx" },
    { input: "index.docker.io/nginx", want: "docker.io/library/nginx" }, // legacy Hub domain
    { input: "index.docker.io/library/nginx:1.25", want: "docker.io/library/nginx:1.25" },
    { input: "user/repo:tag", want: "docker.io/user/repo:tag" },
    { input: "localhost/foo", want: "localhost/foo" }, // localhost is always a domain
    { input: "localhost", want: "docker.io/library/localhost" }, // …but not without a slash
    { input: "localhost:5000", want: "docker.io/library/localhost:5000" }, // repository "localhost", tag "5000"
    { input: "[::1]:5000/foo", want: "[::1]:5000/foo" }, // IPv6 hosts (v0.6.0, not the old in-tree copy)
    { input: "[2001:db8::1]:5000/ns/app:v1", want: "[2001:db8::1]:5000/ns/app:v1" },
    { input: "gcr.io/a/b/c/d:1", want: "gcr.io/a/b/c/d:1" },
    { input: "Foo/bar", want: "Foo/bar" }, // an upper-case first component is taken as a domain
    { input: "FOO.io/bar", want: "FOO.io/bar" },
    { input: "foo:_ok", want: "docker.io/library/foo:_ok" },
    { input: `foo:${"t".repeat(128)}`, want: `docker.io/library/foo:${"t".repeat(128)}` },
    { input: `example.com/${"a".repeat(244)}`, want: `example.com/${"a".repeat(244)}` }, // 255 counts the path only
    { input: `foo:tag@sha256:${hex64}`, want: `docker.io/library/foo:tag@sha256:${hex64}` },
    { input: `foo@sha512:${hex128}`, want: `docker.io/library/foo@sha512:${hex128}` },
    { input: `sha256:${hex64}`, want: `docker.io/library/sha256:${hex64}` }, // repository "sha256", tag <hex>
    { input: `docker.io/${hex64}`, want: `docker.io/library/${hex64}` }, // only a bare hex name is refused
    { input: "foo__bar", want: "docker.io/library/foo__bar" },
    { input: "foo--bar", want: "docker.io/library/foo--bar" },
    { input: "example.com:65536/app", want: "example.com:65536/app" }, // ports are never range-checked
    { input: "ex_ample.com/app", want: "ex_ample.com/app" }, // see the domain row below
    { input: "xn--bcher-kva.example/app", want: "xn--bcher-kva.example/app" },
  ])("$input → $want", ({ input, want }) => {
    expect(parseNormalizedNamed(input).string).toBe(want);
  });

  it("keeps the Hub splitter's domain only when the grammar accepts it", () => {
    // splitDockerDomain takes "ex_ample.com" as a domain (it has a '.'), then
    // Parse cannot read '_' in a host, so everything falls into the path.
    const r = parseNormalizedNamed("ex_ample.com/app");
    expect([r.domain, r.path, r.name]).toEqual(["", "ex_ample.com/app", "ex_ample.com/app"]);
  });

  it.each([
    { input: "", code: "INVALID_REFERENCE_FORMAT" }, // Parse("docker.io/library/") fails the grammar
    { input: "::1/foo", code: "INVALID_REFERENCE_FORMAT" },
    { input: "ghcr.io/OWNER/repo", code: "REMOTE_NAME_CONTAINS_UPPERCASE" },
    { input: "Foo", code: "REMOTE_NAME_CONTAINS_UPPERCASE" },
    { input: "foo/Bar", code: "REMOTE_NAME_CONTAINS_UPPERCASE" },
    { input: "docker.io/library/Nginx", code: "REMOTE_NAME_CONTAINS_UPPERCASE" },
    { input: `ubuntu@SHA256:${hex64}`, code: "REMOTE_NAME_CONTAINS_UPPERCASE" }, // the remote runs to the first ':'
    { input: "foo:", code: "INVALID_REFERENCE_FORMAT" },
    { input: "foo:-bad", code: "INVALID_REFERENCE_FORMAT" },
    { input: "foo:.bad", code: "INVALID_REFERENCE_FORMAT" },
    { input: `foo:${"t".repeat(129)}`, code: "INVALID_REFERENCE_FORMAT" },
    { input: "a//b", code: "INVALID_REFERENCE_FORMAT" },
    { input: "a/", code: "INVALID_REFERENCE_FORMAT" },
    { input: "/a", code: "INVALID_REFERENCE_FORMAT" },
    { input: "a".repeat(256), code: "NAME_TOO_LONG" }, // "library/" + 256 > 255
    { input: "foo@sha256:short", code: "INVALID_REFERENCE_FORMAT" },
    { input: `foo@sha256:${HEX64}`, code: "DIGEST_INVALID_FORMAT" },
    { input: "foo@md5:d41d8cd98f00b204e9800998ecf8427e", code: "DIGEST_UNSUPPORTED" },
    { input: `foo@sha256:${hex64.slice(2)}`, code: "DIGEST_INVALID_LENGTH" },
    { input: `foo@sha256:${hex64}@sha256:${hex64}`, code: "INVALID_REFERENCE_FORMAT" },
    { input: "foo@", code: "INVALID_REFERENCE_FORMAT" },
    { input: `@sha256:${hex64}`, code: "INVALID_REFERENCE_FORMAT" },
    { input: hex64, code: "NAME_IS_HEX_IDENTIFIER" },
    { input: "foo___bar", code: "INVALID_REFERENCE_FORMAT" },
    { input: "foo-", code: "INVALID_REFERENCE_FORMAT" },
    { input: "-foo", code: "INVALID_REFERENCE_FORMAT" },
    { input: "foo.", code: "INVALID_REFERENCE_FORMAT" },
    { input: "foo..bar", code: "INVALID_REFERENCE_FORMAT" },
    { input: "foo.-bar", code: "INVALID_REFERENCE_FORMAT" },
    { input: "foo_/bar", code: "INVALID_REFERENCE_FORMAT" },
    { input: "registry:/app", code: "INVALID_REFERENCE_FORMAT" },
    { input: "registry:port/app", code: "INVALID_REFERENCE_FORMAT" },
    { input: "-example.com/app", code: "INVALID_REFERENCE_FORMAT" },
    { input: "example-.com/app", code: "INVALID_REFERENCE_FORMAT" },
    { input: "foo bar", code: "INVALID_REFERENCE_FORMAT" },
    { input: " nginx", code: "INVALID_REFERENCE_FORMAT" },
    { input: "nginx ", code: "INVALID_REFERENCE_FORMAT" },
    { input: "foo:tag:tag", code: "INVALID_REFERENCE_FORMAT" },
    { input: "foo/bar:tag/baz", code: "INVALID_REFERENCE_FORMAT" },
    // Go lowers U+0130 (İ) to "i", so the lower-cased copy matches: blamed on upper case.
    { input: "İ_x/foo", code: "NAME_CONTAINS_UPPERCASE" },
    // Capitals newer than Go 1.19's Unicode 13 are not upper case to Go:
    // no remote-name complaint, the grammar refuses them instead.
    { input: "x\u1c89", code: "INVALID_REFERENCE_FORMAT" }, // Cyrillic TJE, Unicode 16
    { input: "x\u2c2f", code: "INVALID_REFERENCE_FORMAT" }, // Glagolitic, Unicode 14
    { input: "ghcr.io/a\ua7c0", code: "INVALID_REFERENCE_FORMAT" }, // Latin old Polish O, Unicode 14
    { input: "x\u{10570}", code: "INVALID_REFERENCE_FORMAT" }, // Vithkuqi, Unicode 14
    { input: "x\u10a0", code: "REMOTE_NAME_CONTAINS_UPPERCASE" }, // Georgian capital, old enough for Go
  ])("$input → $code", ({ input, code }) => {
    expect(codeOf(parseNormalizedNamed, input)).toBe(code);
  });

  it("puts the upstream message and the input on the error", () => {
    try {
      parseNormalizedNamed("Foo");
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        name: "ImageReferenceError",
        code: "REMOTE_NAME_CONTAINS_UPPERCASE",
        input: "Foo",
        message: "invalid reference format: repository name (library/Foo) must be lowercase",
      });
    }
    expect(() => parseNormalizedNamed(hex64)).toThrow(
      `invalid repository name (${hex64}), cannot specify 64-byte hexadecimal strings`,
    );
  });

  it("returns a new plain object per call whose toString is its string", () => {
    const r = parseNormalizedNamed(`quay.io/a/b:1@sha256:${hex64}`);
    expect(Object.getPrototypeOf(r)).toBe(Object.prototype);
    expect(parseNormalizedNamed(`quay.io/a/b:1@sha256:${hex64}`)).not.toBe(r);
    expect(`${r}`).toBe(r.string);
    expect(r).toMatchObject({
      domain: "quay.io",
      path: "a/b",
      name: "quay.io/a/b",
      tag: "1",
      digest: `sha256:${hex64}`,
    });
    expect(JSON.parse(JSON.stringify(r))).toMatchObject({ name: "quay.io/a/b" });
  });
});

describe("parse", () => {
  it.each([
    { input: "ubuntu", domain: "", path: "ubuntu" }, // no normalization
    { input: "gol/ng", domain: "gol", path: "ng" }, // a first component that is a valid host is a domain
    { input: "ex_ample.com/app", domain: "", path: "ex_ample.com/app" },
    { input: "index.docker.io/nginx", domain: "index.docker.io", path: "nginx" },
    { input: hex64, domain: "", path: hex64 }, // only the normalizing operations refuse it
  ])("$input → domain '$domain', path '$path'", ({ input, domain, path }) => {
    const r = parse(input) as NamedReference;
    expect([r.domain, r.path, r.string]).toEqual([domain, path, input]);
  });

  it.each([
    { input: "", code: "NAME_EMPTY" }, // differs from parseNormalizedNamed's error for ""
    { input: "Ubuntu", code: "NAME_CONTAINS_UPPERCASE" }, // the lower-cased copy would parse
    { input: "UBUNTU:Latest", code: "NAME_CONTAINS_UPPERCASE" },
    { input: "Ubuntu bad", code: "INVALID_REFERENCE_FORMAT" },
    { input: "\u212Aubuntu", code: "NAME_CONTAINS_UPPERCASE" }, // the Kelvin sign lowers to "k"
    { input: "Éubuntu", code: "INVALID_REFERENCE_FORMAT" }, // "é" is not in the grammar
    { input: "a".repeat(256), code: "NAME_TOO_LONG" },
  ])("$input → $code", ({ input, code }) => {
    expect(codeOf(parse, input)).toBe(code);
  });

  it("does not count the domain in the 255 limit", () => {
    // "a" is a valid host, so the path is the 255 b's: within the limit.
    expect((parse(`a/${"b".repeat(255)}`) as NamedReference).path).toHaveLength(255);
    expect(codeOf(parse, `a/${"b".repeat(256)}`)).toBe("NAME_TOO_LONG");
  });

  it("reports the path length before the digest", () => {
    expect(codeOf(parse, `${"a".repeat(256)}@md5:${"0".repeat(32)}`)).toBe("NAME_TOO_LONG");
  });
});

describe("parseNamed", () => {
  it.each([
    { input: "docker.io/library/nginx:1.25", code: undefined },
    { input: "nginx:1.25", code: "NAME_NOT_CANONICAL" },
    { input: "index.docker.io/library/nginx", code: "NAME_NOT_CANONICAL" },
    { input: "docker.io/nginx", code: "NAME_NOT_CANONICAL" },
    { input: "Foo", code: "REMOTE_NAME_CONTAINS_UPPERCASE" }, // normalization errors come first
  ])("$input → $code", ({ input, code }) => {
    expect(codeOf(parseNamed, input)).toBe(code);
  });
});

describe("parseAnyReference", () => {
  it.each([
    { input: hex64, want: `sha256:${hex64}`, named: false }, // an image ID
    { input: `sha256:${hex64}`, want: `sha256:${hex64}`, named: false },
    { input: `sha512:${hex128}`, want: `sha512:${hex128}`, named: false },
    { input: `sha256:${HEX64}`, want: `docker.io/library/sha256:${HEX64}`, named: true }, // not a valid digest: a tag
    { input: "nginx", want: "docker.io/library/nginx", named: true },
  ])("$input → $want", ({ input, want, named }) => {
    const r = parseAnyReference(input);
    expect(r.string).toBe(want);
    expect(isNamed(r)).toBe(named);
    expect(familiarString(r)).toBe(isNamed(r) ? familiarString(r) : want);
  });
});

describe("parseDockerRef", () => {
  it.each([
    { input: "nginx", want: "docker.io/library/nginx:latest" },
    { input: "nginx:1.25", want: "docker.io/library/nginx:1.25" },
    { input: `nginx@sha256:${hex64}`, want: `docker.io/library/nginx@sha256:${hex64}` },
    { input: `nginx:1.25@sha256:${hex64}`, want: `docker.io/library/nginx@sha256:${hex64}` }, // the digest wins
  ])("$input → $want", ({ input, want }) => {
    expect(parseDockerRef(input).string).toBe(want);
  });
});

describe("safe forms", () => {
  const forms: [string, (s: string) => { success: boolean }][] = [
    ["safeParse", safeParse],
    ["safeParseNamed", safeParseNamed],
    ["safeParseNormalizedNamed", safeParseNormalizedNamed],
    ["safeParseAnyReference", safeParseAnyReference],
    ["safeParseDockerRef", safeParseDockerRef],
  ];
  it.each(forms)("%s returns the error instead of throwing", (_name, form) => {
    const bad = form("Not Valid");
    expect(bad.success).toBe(false);
    expect(isImageReferenceError((bad as unknown as { error: unknown }).error)).toBe(true);
    const good = form("docker.io/library/nginx:1.25");
    expect(good.success).toBe(true);
  });
});

describe("familiar forms of parse results", () => {
  it.each<{ r: () => Reference; name: string; string: string }>([
    { r: () => parse("docker.io/library/redis:7"), name: "redis", string: "redis:7" },
    {
      r: () => parse("docker.io/dmcgowan/myapp"),
      name: "dmcgowan/myapp",
      string: "dmcgowan/myapp",
    },
    { r: () => parse("docker.io/library/a/b"), name: "library/a/b", string: "library/a/b" },
    {
      r: () => parse("index.docker.io/library/redis"),
      name: "index.docker.io/library/redis",
      string: "index.docker.io/library/redis",
    }, // parse keeps the legacy domain
  ])("$string", ({ r, name, string }) => {
    const ref = r() as NamedReference;
    expect(familiarName(ref)).toBe(name);
    expect(familiarString(ref)).toBe(string);
  });
});
